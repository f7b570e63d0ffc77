import type { Logger } from '../logger.js';

/** A cleanup that deletes what has expired and says how many rows went. */
export type HousekeepingTask = () => Promise<number>;

const HOUR_MS = 60 * 60 * 1000;

/**
 * Periodic deletion of expired rows (sessions, remembered bot signatures, throttling windows),
 * so tables that callers grow stay bounded. Best effort: a failed round is logged and the next
 * one tries again; a database outage must not crash the process.
 */
export function startHousekeeping(tasks: Record<string, HousekeepingTask>, logger: Logger, intervalMs = HOUR_MS) {
  let running: Promise<void> | undefined;

  async function runAll(): Promise<Record<string, number>> {
    const removed: Record<string, number> = {};
    for (const [name, task] of Object.entries(tasks)) {
      try {
        removed[name] = await task();
      } catch (error) {
        logger.warn({ err: error, task: name }, 'housekeeping task failed');
      }
    }
    return removed;
  }

  const timer = setInterval(() => {
    running ??= runAll()
      .then((removed) => logger.debug({ removed }, 'housekeeping done'))
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();

  return {
    /** Runs every task now (tests; a round already running is not doubled). */
    run: runAll,
    async stop(): Promise<void> {
      clearInterval(timer);
      await running;
    },
  };
}

export type Housekeeping = ReturnType<typeof startHousekeeping>;
