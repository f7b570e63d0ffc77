import { eventKey } from '../operations/delivery-watch/event-key.js';
import type { DeliveryAnalysis } from '../operations/delivery/analysis.js';
import type { Progress, TrackingResult } from '../operations/delivery/tracking-result.js';

/** What a watch remembers of the parcel between polls. */
export interface SeenState {
  lastStateId: string | null;
  lastEventKey: string | null;
  seenEvents: number;
  stallNotified: boolean;
  /** When the last stall notice went out (null: none since the parcel last moved). */
  stallNotifiedAt: Date | null;
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
 * Compares a fresh lookup with what the watch saw. Only events the watch has not seen are
 * news: the upstream only ever adds events, so their count must grow; they start after the
 * last one seen. A stale answer (fewer events) or the same events in another order (scans
 * of the same minute come back in either order) is no change, so each event is told once
 * (issue 33 item 7: told twice when the newest event's key alone decided). A delivered state
 * is news once; a parcel that just crossed the stall line (no event for longer than normal for
 * its carrier and step, at least 24 working hours) is told once, and again only after it moved
 * or one more such period passed (`stall.repeatDue`); anything else is no change.
 */
export function detectChange(
  seen: SeenState,
  result: TrackingResult,
  analysis: DeliveryAnalysis,
  stall: { now?: Date; repeatDue?: boolean } = {},
): Change {
  const newEvents = unseenEvents(seen, result.progresses);
  const delivered = result.state.id === 'delivered';
  if (newEvents.length > 0 || (delivered && seen.lastStateId !== 'delivered')) {
    const newest = result.progresses.at(-1);
    return {
      kind: delivered ? 'delivered' : 'updated',
      newEvents,
      next: {
        lastStateId: result.state.id,
        lastEventKey: newest ? eventKey(newest) : null,
        seenEvents: Math.max(result.progresses.length, seen.seenEvents),
        stallNotified: false,
        stallNotifiedAt: null,
      },
    };
  }
  // Once per stall: again only after the parcel moved (reset above) or one more normal period passed.
  if (analysis.stalled && (!seen.stallNotified || stall.repeatDue)) {
    return { kind: 'stalled', newEvents: [], next: { ...seen, stallNotified: true, stallNotifiedAt: stall.now ?? null } };
  }
  return { kind: 'none', newEvents: [], next: seen };
}

/** The events after the last one seen, never more than the count has grown by. */
function unseenEvents(seen: SeenState, progresses: Progress[]): Progress[] {
  if (progresses.length <= seen.seenEvents) return [];
  const known = seen.lastEventKey ? progresses.findIndex((p) => eventKey(p) === seen.lastEventKey) : -1;
  return progresses.slice(Math.max(known + 1, seen.seenEvents));
}
