import cron from 'node-cron';
import type { Logger } from '../logger.js';
import type { WatchPoller } from './watch-poller.js';

/**
 * The cadence of a node-cron expression: the shortest gap between its next 50 ticks in Seoul
 * (`*\/5 * * * * *` → 5 s, `*\/10 * * * *` → 10 min, `0 9-18 * * 1-5` → 1 h).
 */
export function cadenceOf(expression: string): number {
  const task = cron.createTask(expression, () => undefined, { timezone: 'Asia/Seoul' });
  try {
    const runs = task.getNextRuns(50);
    const gaps = runs.slice(1).map((run, index) => run.getTime() - runs[index]!.getTime());
    return Math.max(1000, Math.min(...gaps));
  } finally {
    void task.destroy();
  }
}

export interface WatchCron {
  stop(): Promise<void>;
}

/**
 * Runs the poller on `WATCH_CRON` (Asia/Seoul). node-cron's `noOverlap` skips a tick while
 * the previous cycle still runs; `stop` waits for a running cycle to finish (SIGTERM drains
 * it before the database closes).
 */
export function startWatchCron(poller: WatchPoller, expression: string, logger: Logger): WatchCron {
  if (!cron.validate(expression)) throw new Error(`WATCH_CRON: not a valid cron expression: ${expression}`);
  let running: Promise<unknown> | undefined;
  const task = cron.schedule(
    expression,
    () => {
      running = poller.runCycle().catch((error: unknown) => logger.error({ err: error }, 'watch poll cycle failed'));
      return running;
    },
    { name: 'delivery-watch', timezone: 'Asia/Seoul', noOverlap: true },
  );
  task.on('execution:overlap', () => logger.warn('watch poll cycle still running: this tick is skipped'));
  logger.info({ schedule: expression, timezone: 'Asia/Seoul' }, 'parcel watch poller scheduled');
  return {
    async stop() {
      await task.stop();
      await task.destroy();
      await running;
    },
  };
}

/**
 * node-cron for other in-process schedules (the harmful-URL feed refresh): `schedule` skips a
 * tick while the previous run still goes; `periodMs` is the time between two runs.
 */
export const cronScheduler = {
  schedule(expression: string, job: () => Promise<unknown>, timezone?: string): { stop(): Promise<void> } {
    const task = cron.schedule(expression, job, { noOverlap: true, ...(timezone ? { timezone } : {}) });
    return {
      async stop() {
        await task.stop();
        await task.destroy();
      },
    };
  },
  periodMs(expression: string): number {
    const task = cron.createTask(expression, () => undefined);
    try {
      const [first, second] = task.getNextRuns(2);
      return first && second ? second.getTime() - first.getTime() : 6 * 3600_000;
    } finally {
      void task.destroy();
    }
  },
};
