import { seoulHour } from '../seoul-time.js';
import type { StatusId } from '../operations/delivery/statuses.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface PollTiming {
  now: Date;
  stateId: StatusId | null;
  /** Polls in a row that found nothing new. */
  quietPolls: number;
  /** The parcel's events mention customs (통관, 세관). */
  customs: boolean;
  /** The interval after a change (default 10 minutes, the default cron). */
  baseMs: number;
}

/** Longest wait between two polls of a moving parcel. */
export const MAX_POLL_INTERVAL_MS = 6 * HOUR;

/**
 * When to poll a watched parcel again. Quiet parcels back off (base × 2^quiet polls, up to
 * 6 h); a parcel out for delivery stays close (it will change today); one held in customs
 * waits at least 3 h (clearance takes days); at night in Seoul (22:00–07:00) at least 2 h,
 * since few scans happen then and a notice at 3 a.m. helps nobody.
 */
export function nextPollDelayMs(timing: PollTiming): number {
  let delay = timing.baseMs * 2 ** Math.min(timing.quietPolls, 6);
  if (timing.stateId === 'out_for_delivery' || timing.stateId === 'attempt_fail') delay = Math.min(delay, 2 * timing.baseMs);
  if (timing.customs && timing.stateId !== 'out_for_delivery') delay = Math.max(delay, 3 * HOUR);
  const hour = seoulHour(timing.now);
  if (hour >= 22 || hour < 7) delay = Math.max(delay, 2 * HOUR);
  return Math.min(delay, MAX_POLL_INTERVAL_MS);
}

/** Notices that failed are retried after 1, 2, 4 … minutes (at most 2 h apart) for 24 hours. */
export const RETRY_WINDOW_MS = 24 * HOUR;

export function retryDelayMs(failedAttempts: number): number {
  return Math.min(MINUTE * 2 ** Math.max(0, failedAttempts - 1), 2 * HOUR);
}
