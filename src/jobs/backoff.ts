import type { StatusId } from '../operations/delivery/statuses.js';
import { quietHoursLeftMs, type PollSchedule } from './poll-schedule.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export interface PollTiming {
  now: Date;
  stateId: StatusId | null;
  /** Polls in a row that found nothing new. */
  quietPolls: number;
  /** The parcel's events mention customs (통관, 세관). */
  customs: boolean;
  /** Time since the watch was created. */
  ageMs: number;
  schedule: PollSchedule;
}

/** A watch this young is polled at the schedule's cadence whatever it shows (its parcel just started). */
export const YOUNG_WATCH_MS = HOUR;
/** Clearance takes days: a parcel in customs is not polled more often than this (bounded by the maximum). */
const CUSTOMS_INTERVAL_MS = 3 * HOUR;

/**
 * How long to wait before polling a watched parcel again. At the schedule's cadence while the
 * watch is young, after every change and while the parcel is out for delivery (it changes
 * today); quiet parcels back off (cadence × 2^quiet polls) up to the maximum interval; one in
 * customs waits up to 3 h; in the quiet hours a quiet parcel waits the maximum interval, or
 * until the quiet hours end. Never less than the cadence, never more than the maximum.
 */
export function nextPollDelayMs(timing: PollTiming): number {
  const { cadenceMs, maxIntervalMs, quietHours } = timing.schedule;
  const urgent = timing.stateId === 'out_for_delivery' || timing.stateId === 'attempt_fail';
  if (timing.ageMs < YOUNG_WATCH_MS || urgent) return cadenceMs;
  let delay = cadenceMs * 2 ** Math.min(timing.quietPolls, 20);
  if (timing.customs) delay = Math.max(delay, CUSTOMS_INTERVAL_MS);
  const quietLeft = timing.quietPolls > 0 ? quietHoursLeftMs(timing.now, quietHours) : 0;
  if (quietLeft > 0) delay = Math.max(delay, Math.min(maxIntervalMs, quietLeft));
  return Math.max(cadenceMs, Math.min(delay, maxIntervalMs));
}

/** Notices that failed are retried after 1, 2, 4 … minutes (at most 2 h apart) for 24 hours. */
export const RETRY_WINDOW_MS = 24 * HOUR;

export function retryDelayMs(failedAttempts: number): number {
  return Math.min(MINUTE * 2 ** Math.max(0, failedAttempts - 1), 2 * HOUR);
}
