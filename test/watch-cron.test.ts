import { describe, expect, it } from 'vitest';
import { cronScheduler, startWatchCron } from '../src/jobs/watch-cron.js';
import { emptyCycleReport, type WatchPoller } from '../src/jobs/watch-poller.js';
import { createLogger } from '../src/logger.js';

const empty = emptyCycleReport();

describe('the watch cron job', () => {
  // Events, not sleeps (issue 33 item 9): the cycle runs until the test lets it finish, the
  // skipped tick is seen in the log line the job writes for it, and `stop` is awaited.
  it('runs cycles on the schedule, never two at once, and stop waits for the running one', async () => {
    let running = 0;
    let most = 0;
    let started = 0;
    let finished = 0;
    let finishCycle = () => {};
    let cycleStarted = () => {};
    const firstCycle = new Promise<void>((resolve) => (cycleStarted = resolve));
    const poller = {
      async runCycle() {
        started++;
        most = Math.max(most, ++running);
        cycleStarted();
        await new Promise<void>((resolve) => (finishCycle = resolve));
        running--;
        finished++;
        return empty;
      },
    } as WatchPoller;
    let tickSkipped = () => {};
    const skipped = new Promise<void>((resolve) => (tickSkipped = resolve));
    const logger = createLogger('warn', {
      write: (line: string) => {
        if (line.includes('this tick is skipped')) tickSkipped();
      },
    });
    const job = startWatchCron(poller, '* * * * * *', logger);
    await firstCycle;
    await skipped; // a tick came while the cycle ran, and was skipped
    expect(started).toBe(1);
    const stopped = job.stop();
    let stopReturned = false;
    void stopped.then(() => (stopReturned = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(stopReturned).toBe(false); // stop waits for the running cycle
    finishCycle();
    await stopped;
    expect(most).toBe(1);
    expect(finished).toBe(started);
  });

  it('refuses an invalid WATCH_CRON', () => {
    expect(() => startWatchCron({} as WatchPoller, 'every ten minutes', createLogger('silent'))).toThrow(/WATCH_CRON/);
  });
});

describe('the scheduler of the other in-process jobs (feed refresh, rescans)', () => {
  it('tells the time between two runs of an expression', () => {
    expect(cronScheduler.periodMs('0 */6 * * *')).toBe(6 * 3600_000);
    expect(cronScheduler.periodMs('*/15 * * * *')).toBe(15 * 60_000);
    expect(cronScheduler.periodMs('30 4 * * *')).toBe(24 * 3600_000);
  });

  it('runs a job on its schedule and stops it', async () => {
    let runs = 0;
    let ran = () => {};
    const firstRun = new Promise<void>((resolve) => (ran = resolve));
    const task = cronScheduler.schedule(
      '* * * * * *',
      async () => {
        runs++;
        ran();
      },
      'Asia/Seoul',
    );
    await firstRun;
    await task.stop();
    expect(runs).toBeGreaterThanOrEqual(1);
  });
});
