import type { HolidayCalendar } from './holidays.js';
import { DAY_PART_KO, dayPartOf, placeKindOf, quantile, type DurationSample, type PlaceKind } from './durations.js';
import { addWorkingDays, seoulDate, seoulHour } from '../../seoul-time.js';
import type { Progress, TrackingResult } from './tracking-result.js';

/** `estimated_arrival` of a lookup (issue 38): dates in Asia/Seoul, `YYYY-MM-DD`. */
export interface EstimatedArrival {
  date: string;
  earliest: string;
  latest: string;
  confidence: 'high' | 'medium' | 'low';
  /** What the estimate rests on, in Korean; with `low`, why. */
  basis: string;
  /** Past parcels' steps it was computed from (0: the carrier-kind rule). */
  samples: number;
}

/** Fewer comparable past steps than this: the estimate falls back to the rule and says `low`. */
export const MIN_SAMPLES = 10;
/** A `high` estimate needs this many samples at the finest level (same place kind and time of day). */
const HIGH_SAMPLES = 30;
/** The share of arrivals the earliest–latest range is meant to hold (10th to 90th percentile). */
export const RANGE_QUANTILES = [0.1, 0.5, 0.9] as const;

const PLACE_KO: Record<PlaceKind, string> = { hub: '허브·터미널', branch: '대리점·영업소', customs: '통관', other: '기타 장소' };

export interface EstimateInput {
  result: TrackingResult;
  now: Date;
  calendar: HolidayCalendar;
  /** Past `to_delivery` samples of this carrier and the last event's status. */
  samples: readonly DurationSample[];
  /** The rule-based date (analysis.ts), used when the history is too thin. */
  ruleDate: string | undefined;
}

/**
 * The arrival estimate from the parcel's last event and the history of past watched parcels:
 * the steps of the same carrier and status, narrowed to the same kind of place and time of day
 * when there are enough, and to those that had already waited as long as this parcel has; the
 * 10th, 50th and 90th percentiles of their time to delivery give earliest, date and latest.
 * With fewer than MIN_SAMPLES comparable steps it answers the rule's date, `low`, and why.
 * Null once delivered or waiting at a pickup point.
 */
export function estimateArrival(input: EstimateInput): EstimatedArrival | null {
  const { result, now, calendar } = input;
  const state = result.state.id;
  if (state === 'delivered' || state === 'available_for_pickup') return null;
  const today = seoulDate(now);
  const last = [...result.progresses].reverse().find((progress): progress is Progress & { time: string } => progress.time !== null);
  const ruleDate = input.ruleDate ?? addWorkingDays(today, 2, calendar);
  const thin = (why: string): EstimatedArrival => ({
    date: ruleDate,
    earliest: ruleDate < today ? today : ruleDate,
    latest: addWorkingDays(ruleDate, 2, calendar),
    confidence: 'low',
    basis: `${why} 택배사 유형별 평균 소요일로 계산했습니다.`,
    samples: 0,
  });
  if (!last) return thin('시간이 기록된 배송 단계가 없어');
  const lastAt = new Date(last.time);
  const elapsed = Math.max(0, (now.getTime() - lastAt.getTime()) / 3600_000);
  const place = placeKindOf(last.location.name);
  const part = dayPartOf(seoulHour(lastAt));
  const levels: Array<{ keep: (sample: DurationSample) => boolean; label: string; finest: boolean }> = [
    {
      keep: (sample) => sample.placeKind === place && dayPartOf(sample.hour) === part,
      label: `같은 단계(${last.status.text})·같은 장소 유형(${PLACE_KO[place]})·같은 시간대(${DAY_PART_KO[part]})`,
      finest: true,
    },
    {
      keep: (sample) => sample.placeKind === place,
      label: `같은 단계(${last.status.text})·같은 장소 유형(${PLACE_KO[place]})`,
      finest: false,
    },
    { keep: () => true, label: `같은 단계(${last.status.text})`, finest: false },
  ];
  for (const level of levels) {
    // Only past parcels that had already waited this long tell how much longer this one will.
    const hours = input.samples
      .filter((sample) => level.keep(sample) && sample.hours >= elapsed)
      .map((sample) => sample.hours)
      .sort((a, b) => a - b);
    if (hours.length < MIN_SAMPLES) continue;
    const [low, mid, high] = RANGE_QUANTILES.map((q) => seoulDate(new Date(lastAt.getTime() + quantile(hours, q) * 3600_000)));
    const earliest = low! < today ? today : low!;
    const date = mid! < earliest ? earliest : mid!;
    const latest = high! < date ? date : high!;
    const span = daysBetween(earliest, latest);
    const confidence = level.finest && hours.length >= HIGH_SAMPLES && span <= 1 ? 'high' : span <= 3 ? 'medium' : 'low';
    const wide = confidence === 'low' ? ` 과거 소요 시간의 편차가 커서(${span + 1}일 범위) 신뢰도가 낮습니다.` : '';
    return {
      date,
      earliest,
      latest,
      confidence,
      basis: `${result.carrier.name_ko}의 과거 배송 ${hours.length}건(${level.label}, 지금까지 기다린 시간 이상) 기준 10~90% 범위입니다.${wide}`,
      samples: hours.length,
    };
  }
  const comparable = input.samples.filter((sample) => sample.hours >= elapsed).length;
  return thin(`같은 택배사·단계의 과거 배송 기록이 ${comparable}건뿐이라(최소 ${MIN_SAMPLES}건 필요)`);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** A stalled-parcel alert never comes sooner than this many working hours without an event. */
export const STALL_FLOOR_HOURS = 24;
/** Without enough history for the carrier and status: the analysis's fixed line. */
export const STALL_DEFAULT_HOURS = 48;

/**
 * How long without a new event is longer than normal for this carrier and last status: the 90th
 * percentile of the working hours past parcels waited at that step before their next event
 * (never under STALL_FLOOR_HOURS), or STALL_DEFAULT_HOURS when the history is too thin.
 */
export function stallThresholdHours(toNext: readonly DurationSample[]): { hours: number; samples: number } {
  if (toNext.length < MIN_SAMPLES) return { hours: STALL_DEFAULT_HOURS, samples: 0 };
  const sorted = toNext.map((sample) => sample.workingHours).sort((a, b) => a - b);
  return { hours: Math.max(STALL_FLOOR_HOURS, Math.round(quantile(sorted, 0.9) * 10) / 10), samples: toNext.length };
}
