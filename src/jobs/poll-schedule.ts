import cron from 'node-cron';
import { seoulHour, seoulMsOfDay } from '../seoul-time.js';

/** Hours in Seoul when quiet parcels are polled less often: from `start` (inclusive) to `end` (exclusive). */
export interface QuietHours {
  start: number;
  end: number;
}

/** How often watches are polled: the cadence of `WATCH_CRON`, `WATCH_MAX_INTERVAL`, `WATCH_QUIET_HOURS`. */
export interface PollSchedule {
  /** The shortest gap between two ticks of the poll schedule. */
  cadenceMs: number;
  /** Longest wait between two polls of a quiet parcel (never shorter than the cadence). */
  maxIntervalMs: number;
  /** null: the same cadence day and night. */
  quietHours: QuietHours | null;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90s`, `30m`, `2h`, `1h30m`, `1d` → milliseconds; undefined when not a duration. */
export function parseDuration(text: string): number | undefined {
  const compact = text.trim().toLowerCase();
  if (!/^(\d+(ms|s|m|h|d))+$/.test(compact)) return undefined;
  let total = 0;
  for (const [, amount, unit] of compact.matchAll(/(\d+)(ms|s|m|h|d)/g)) total += Number(amount) * UNITS[unit!]!;
  return total > 0 ? total : undefined;
}

/** `22-7` (22:00 to 07:00 in Seoul) or `off`; undefined when neither. */
export function parseQuietHours(text: string): QuietHours | null | undefined {
  const compact = text.trim().toLowerCase();
  if (compact === 'off' || compact === 'none') return null;
  const match = /^(\d{1,2})-(\d{1,2})$/.exec(compact);
  if (!match) return undefined;
  const start = Number(match[1]);
  const end = Number(match[2]);
  return start <= 23 && end <= 24 && start !== end ? { start, end: end % 24 } : undefined;
}

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

/** The schedule from the configuration; `WATCH_CRON=off` (another instance polls) assumes the default cadence. */
export function pollScheduleOf(config: { WATCH_CRON: string; WATCH_MAX_INTERVAL: number; WATCH_QUIET_HOURS: QuietHours | null }): PollSchedule {
  const cadenceMs = cadenceOf(config.WATCH_CRON === 'off' ? '*/10 * * * *' : config.WATCH_CRON);
  return { cadenceMs, maxIntervalMs: Math.max(config.WATCH_MAX_INTERVAL, cadenceMs), quietHours: config.WATCH_QUIET_HOURS };
}

export const DEFAULT_POLL_SCHEDULE: PollSchedule = { cadenceMs: 10 * 60_000, maxIntervalMs: 2 * 3_600_000, quietHours: { start: 22, end: 7 } };

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
