import type { TrackerEvent, TrackerParcel } from '../../providers/tracker.js';
import type { Carrier } from './carriers.js';
import { seoulIso } from '../../seoul-time.js';
import { STATUS_LABELS, statusIdOf, type StatusId } from './statuses.js';

export interface DeliveryState {
  id: StatusId;
  text: string;
}

/**
 * A SPEC progress entry: ISO 8601 time with offset (null when the carrier gave none: an
 * invented time would mislead), the carrier's step name when given.
 */
export interface Progress {
  time: string | null;
  status: { id: StatusId; text: string };
  location: { name: string };
  description: string;
}

/** What a lookup gives (SPEC §7): the carrier, the state and the events oldest first. */
export interface TrackingResult {
  carrier: Carrier;
  state: DeliveryState;
  progresses: Progress[];
}

export function stateOf(id: StatusId): DeliveryState {
  return { id, text: STATUS_LABELS[id] };
}

function toProgress(event: TrackerEvent): Progress {
  const id = statusIdOf(event.status?.code);
  const instant = event.time ? new Date(event.time) : undefined;
  return {
    time: instant && !Number.isNaN(instant.getTime()) ? seoulIso(instant) : null,
    status: { id, text: event.status?.name?.trim() || STATUS_LABELS[id] },
    location: { name: event.location?.name?.trim() ?? '' },
    description: event.description?.trim() ?? '',
  };
}

/**
 * Sort keys: an event without a time keeps its place after the event the upstream listed
 * before it (the upstream lists oldest first), instead of jumping to either end.
 */
function sortKeys(progresses: Progress[]): number[] {
  let previous = Number.NEGATIVE_INFINITY;
  return progresses.map((progress) => (previous = progress.time ? Date.parse(progress.time) : previous));
}

/**
 * Maps the upstream's answer to SPEC's shapes: events sorted oldest first (carriers list
 * them in either order, sometimes mixed), and the state of the delivered event when there
 * is one (a late scan after delivery does not undo it), else of the newest event.
 */
export function toTrackingResult(carrier: Carrier, parcel: TrackerParcel): TrackingResult {
  const listed = parcel.events.map(toProgress);
  const keys = sortKeys(listed);
  // Array.prototype.sort is stable: events at the same minute keep the upstream's order.
  const progresses = listed
    .map((progress, index) => ({ progress, key: keys[index]! }))
    .sort((a, b) => a.key - b.key)
    .map((entry) => entry.progress);
  const delivered = progresses.some((progress) => progress.status.id === 'delivered');
  const newest = progresses.at(-1)?.status.id ?? (parcel.lastEvent ? statusIdOf(parcel.lastEvent.status?.code) : 'unknown');
  return { carrier, state: stateOf(delivered ? 'delivered' : newest), progresses };
}

export function isDelivered(result: TrackingResult): boolean {
  return result.state.id === 'delivered';
}
