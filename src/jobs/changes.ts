import { eventKey } from '../operations/delivery-watch/event-key.js';
import type { DeliveryAnalysis } from '../operations/delivery/analysis.js';
import type { Progress, TrackingResult } from '../operations/delivery/tracking-result.js';

/** What a watch remembers of the parcel between polls. */
export interface SeenState {
  lastStateId: string | null;
  lastEventKey: string | null;
  seenEvents: number;
  stallNotified: boolean;
}

export type ChangeKind = 'none' | 'updated' | 'delivered' | 'stalled';

export interface Change {
  kind: ChangeKind;
  /** Events not seen before, oldest first. */
  newEvents: Progress[];
  /** What to remember once the notice went out. */
  next: SeenState;
}

export { eventKey };

/** Causes that make a parcel late (days off alone are only the calendar). */
const LATE_CAUSES = new Set(['hub_congestion', 'failed_attempt', 'customs', 'exception', 'stalled']);

export function isLate(analysis: DeliveryAnalysis): boolean {
  return analysis.stalled || analysis.causes.some((cause) => LATE_CAUSES.has(cause.kind));
}

export function mentionsCustoms(result: TrackingResult): boolean {
  return result.progresses.some((p) => /통관|세관|customs/i.test(`${p.status.text} ${p.description} ${p.location.name}`));
}

/**
 * Compares a fresh lookup with what the watch saw: a new newest event or a new state is an
 * update (a delivered state is the final one); a parcel that just crossed the stall line
 * (no event for 48 working hours) is told once; anything else is no change.
 */
export function detectChange(seen: SeenState, result: TrackingResult, analysis: DeliveryAnalysis): Change {
  const newest = result.progresses.at(-1);
  const key = newest ? eventKey(newest) : null;
  const moved = key !== seen.lastEventKey || result.state.id !== seen.lastStateId;
  if (moved) {
    const known = seen.lastEventKey ? result.progresses.findIndex((p) => eventKey(p) === seen.lastEventKey) : -1;
    const newEvents =
      known >= 0 ? result.progresses.slice(known + 1) : result.progresses.slice(Math.min(seen.seenEvents, result.progresses.length));
    return {
      kind: result.state.id === 'delivered' ? 'delivered' : 'updated',
      newEvents,
      next: { lastStateId: result.state.id, lastEventKey: key, seenEvents: result.progresses.length, stallNotified: false },
    };
  }
  if (analysis.stalled && !seen.stallNotified) {
    return { kind: 'stalled', newEvents: [], next: { ...seen, stallNotified: true } };
  }
  return { kind: 'none', newEvents: [], next: seen };
}
