import { describe, expect, it } from 'vitest';
import { startWatchCron } from '../src/jobs/watch-cron.js';
import type { CycleReport, WatchPoller } from '../src/jobs/watch-poller.js';
import { createLogger } from '../src/logger.js';

const empty: CycleReport = { claimed: 0, notified: 0, unchanged: 0, ended: 0, retrying: 0, errors: 0, parcels: 0, durationMs: 0 };

describe('the watch cron job', () => {
  it('runs cycles on the schedule, never two at once, and stop waits for the running one', async () => {
    let running = 0;
    let most = 0;
    let started = 0;
    let finished = 0;
    const poller = {
      async runCycle() {
        started++;
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 1500)); // longer than the 1-second tick
        running--;
        finished++;
        return empty;
      },
    } as WatchPoller;
    const job = startWatchCron(poller, '* * * * * *', createLogger('silent'));
    await new Promise((resolve) => setTimeout(resolve, 3300));
    await job.stop();
    expect(started).toBeGreaterThanOrEqual(1);
    expect(started).toBeLessThanOrEqual(2); // ~3 ticks, each overlapping one skipped
    expect(most).toBe(1);
    expect(finished).toBe(started);
  });

  it('refuses an invalid WATCH_CRON', () => {
    expect(() => startWatchCron({} as WatchPoller, 'every ten minutes', createLogger('silent'))).toThrow(/WATCH_CRON/);
  });
});
