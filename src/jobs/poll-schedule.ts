import type { QuietHours } from '../config.js';
import { seoulHour, seoulMsOfDay } from '../seoul-time.js';
import { cadenceOf } from './watch-cron.js';

export type { QuietHours };

/** How often watches are polled: the cadence of `WATCH_CRON`, `WATCH_MAX_INTERVAL`, `WATCH_QUIET_HOURS`. */
export interface PollSchedule {
  /** The shortest gap between two ticks of the poll schedule. */
  cadenceMs: number;
  /** Longest wait between two polls of a quiet parcel (never shorter than the cadence). */
  maxIntervalMs: number;
  /** null: the same cadence day and night. */
  quietHours: QuietHours | null;
}

/** The schedule from the configuration; `WATCH_CRON=off` (another instance polls) assumes the default cadence. */
export function pollScheduleOf(config: {
  WATCH_CRON: string;
  WATCH_MAX_INTERVAL: number;
  WATCH_QUIET_HOURS: QuietHours | null;
}): PollSchedule {
  const cadenceMs = cadenceOf(config.WATCH_CRON === 'off' ? '*/10 * * * *' : config.WATCH_CRON);
  return { cadenceMs, maxIntervalMs: Math.max(config.WATCH_MAX_INTERVAL, cadenceMs), quietHours: config.WATCH_QUIET_HOURS };
}

export const DEFAULT_POLL_SCHEDULE: PollSchedule = {
  cadenceMs: 10 * 60_000,
  maxIntervalMs: 2 * 3_600_000,
  quietHours: { start: 22, end: 7 },
};

/** Whether `now` falls in the quiet hours, and how long until they end. */
export function quietHoursLeftMs(now: Date, quiet: QuietHours | null): number {
  if (!quiet) return 0;
  const hour = seoulHour(now);
  const inside = quiet.start < quiet.end ? hour >= quiet.start && hour < quiet.end : hour >= quiet.start || hour < quiet.end;
  if (!inside) return 0;
  const endMs = quiet.end * 3_600_000;
  return (endMs - seoulMsOfDay(now) + 86_400_000) % 86_400_000 || 86_400_000;
}

/**
 * The `next_poll_at` for a wait of `delayMs`: half a cadence early, so the watch is due at the
 * tick that comes `delayMs` after this one rather than one tick later (a poll finishes a little
 * after its tick, and `now + cadence` would fall just after the next tick).
 */
export function nextPollAt(now: Date, delayMs: number, schedule: PollSchedule): Date {
  return new Date(now.getTime() + delayMs - schedule.cadenceMs / 2);
}
