/** Helpers of the durations history (history-store.ts) that need no database: place kinds, day parts, quantiles. */

/** A kind of place, from the location name: the estimate compares parcels waiting at the same kind. */
export type PlaceKind = 'hub' | 'branch' | 'customs' | 'other';

const PLACES: Array<[PlaceKind, RegExp]> = [
  ['customs', /통관|세관|customs/i],
  ['hub', /hub|허브|터미널|물류센터|집중국|TML|메가|센터/i],
  ['branch', /대리점|영업소|집배|우체국|지점|캠프|camp|SC|배송점|서브/i],
];

export function placeKindOf(name: string): PlaceKind {
  return PLACES.find(([, pattern]) => pattern.test(name))?.[0] ?? 'other';
}

/** Time of day in four parts (Seoul): night 0–6, morning 6–12, afternoon 12–18, evening 18–24. */
export function dayPartOf(hour: number): number {
  return Math.floor(hour / 6);
}

export const DAY_PART_KO = ['새벽', '오전', '오후', '저녁'] as const;

/** A sample of the history: one step of a past parcel. */
export interface DurationSample {
  placeKind: string;
  hour: number;
  hours: number;
  workingHours: number;
}

/** The q-quantile (0–1) of sorted values, linear between neighbours. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}
