import { isInternational } from './carriers.js';
import type { HolidayCalendar } from './holidays.js';
import { addDays, addWorkingDays, daysOffBetween, nextWorkingDay, seoulDate, seoulHour, workingHoursBetween } from '../../seoul-time.js';
import type { StatusId } from './statuses.js';
import type { Progress, TrackingResult } from './tracking-result.js';

/** No event for this many working hours (weekends and holidays left out) is a stall. */
export const STALL_WORKING_HOURS = 48;
/** A step this long (working hours) at one place is a bottleneck worth naming. */
const SLOW_STEP_WORKING_HOURS = 24;

export interface Step {
  location: string;
  status: string;
  /** Working hours until the next event (weekends and holidays left out). */
  workingHours: number;
  hours: number;
}

export type DelayCause =
  | { kind: 'days_off'; days: Array<{ date: string; name: string }> }
  | { kind: 'hub_congestion'; location: string; workingHours: number }
  | { kind: 'failed_attempt' }
  | { kind: 'customs' }
  | { kind: 'exception' }
  | { kind: 'stalled'; workingHours: number };

/** The deterministic analysis that always runs; the LLM, when there is one, refines its wording. */
export interface DeliveryAnalysis {
  today: string;
  stateId: StatusId;
  deliveredAt?: string;
  hoursSinceLastEvent: number | null;
  workingHoursSinceLastEvent: number | null;
  steps: Step[];
  bottleneck?: Step;
  stalled: boolean;
  /** `YYYY-MM-DD` in Seoul; absent once delivered or ready for pickup. */
  expectedDate?: string;
  causes: DelayCause[];
}

/**
 * Typical working days from a step to the delivery, by carrier kind: parcel networks deliver
 * the day after the trunk run, freight carriers (branch pickup) take a day more, international
 * shipments wait for flights and customs.
 */
const REMAINING_DAYS: Record<'parcel' | 'freight' | 'international', Partial<Record<StatusId, number>>> = {
  parcel: { information_received: 2, at_pickup: 1, in_transit: 1, out_for_delivery: 0, attempt_fail: 1, exception: 2, unknown: 2 },
  freight: { information_received: 3, at_pickup: 2, in_transit: 2, out_for_delivery: 0, attempt_fail: 1, exception: 3, unknown: 3 },
  international: { information_received: 7, at_pickup: 6, in_transit: 4, out_for_delivery: 0, attempt_fail: 1, exception: 5, unknown: 5 },
};
const FREIGHT = new Set(['kr.kdexp', 'kr.daesin', 'kr.hdexp', 'kr.kunyoung', 'kr.chunilps', 'kr.ltl', 'kr.yongmalogis', 'kr.goodstoluck']);

function carrierKind(carrierId: string): keyof typeof REMAINING_DAYS {
  return isInternational(carrierId) ? 'international' : FREIGHT.has(carrierId) ? 'freight' : 'parcel';
}

const HUB = /hub|허브|터미널|물류센터|센터|집중국|TML/i;
const CUSTOMS = /통관|세관|customs/i;

export interface AnalysisOptions {
  /** Working hours without an event that count as a stall (the history's normal wait for this carrier and step; default 48). */
  stallAfterWorkingHours?: number;
}

export function analyzeDelivery(
  result: TrackingResult,
  now: Date,
  calendar: HolidayCalendar,
  options: AnalysisOptions = {},
): DeliveryAnalysis {
  const today = seoulDate(now);
  const timed = result.progresses.filter((progress): progress is Progress & { time: string } => progress.time !== null);
  const steps: Step[] = timed.slice(0, -1).map((progress, index) => {
    const from = new Date(progress.time);
    const to = new Date(timed[index + 1]!.time);
    return {
      location: progress.location.name,
      status: progress.status.text,
      workingHours: round1(workingHoursBetween(from, to, calendar)),
      hours: round1((to.getTime() - from.getTime()) / 3600_000),
    };
  });
  const last = timed.at(-1);
  const lastAt = last ? new Date(last.time) : undefined;
  const stateId = result.state.id;
  const finished = stateId === 'delivered';
  const hoursSinceLastEvent = lastAt ? round1((now.getTime() - lastAt.getTime()) / 3600_000) : null;
  const workingHoursSinceLastEvent = lastAt ? round1(workingHoursBetween(lastAt, now, calendar)) : null;
  const stalled =
    !finished &&
    stateId !== 'available_for_pickup' &&
    (workingHoursSinceLastEvent ?? 0) >= (options.stallAfterWorkingHours ?? STALL_WORKING_HOURS);

  // The bottleneck: the longest wait, counting the current one while the parcel is still moving.
  const current: Step | undefined =
    last && lastAt && !finished
      ? {
          location: last.location.name,
          status: last.status.text,
          workingHours: workingHoursSinceLastEvent ?? 0,
          hours: hoursSinceLastEvent ?? 0,
        }
      : undefined;
  const bottleneck = [...steps, ...(current ? [current] : [])].reduce<Step | undefined>(
    (slowest, step) => (!slowest || step.workingHours > slowest.workingHours ? step : slowest),
    undefined,
  );

  const expectedDate = finished || stateId === 'available_for_pickup' ? undefined : estimateArrival(result, lastAt, now, calendar);
  const causes: DelayCause[] = [];
  const windowStart = lastAt ? seoulDate(lastAt) : today;
  const windowEnd = expectedDate ?? today;
  const daysOff = finished ? [] : daysOffBetween(windowStart < today ? windowStart : today, windowEnd, calendar);
  if (daysOff.length > 0) causes.push({ kind: 'days_off', days: daysOff });
  if (bottleneck && bottleneck.workingHours >= SLOW_STEP_WORKING_HOURS && HUB.test(bottleneck.location)) {
    causes.push({ kind: 'hub_congestion', location: bottleneck.location, workingHours: bottleneck.workingHours });
  }
  if (result.progresses.some((progress) => progress.status.id === 'attempt_fail')) causes.push({ kind: 'failed_attempt' });
  if (result.progresses.some((progress) => CUSTOMS.test(`${progress.status.text} ${progress.description} ${progress.location.name}`))) {
    causes.push({ kind: 'customs' });
  }
  if (stateId === 'exception') causes.push({ kind: 'exception' });
  if (stalled) causes.push({ kind: 'stalled', workingHours: workingHoursSinceLastEvent ?? 0 });

  return {
    today,
    stateId,
    ...(finished && last ? { deliveredAt: last.time } : {}),
    hoursSinceLastEvent,
    workingHoursSinceLastEvent,
    steps,
    ...(bottleneck && !finished ? { bottleneck } : {}),
    stalled,
    ...(expectedDate ? { expectedDate } : {}),
    causes,
  };
}

/**
 * The last event's date plus the carrier's typical working days from that step; never
 * before today (after 18:00 in Seoul, not today either), and a stalled parcel at the
 * soonest the next working day.
 */
function estimateArrival(result: TrackingResult, lastAt: Date | undefined, now: Date, calendar: HolidayCalendar): string {
  const today = seoulDate(now);
  const days = REMAINING_DAYS[carrierKind(result.carrier.id)][result.state.id] ?? 2;
  const estimate = addWorkingDays(lastAt ? seoulDate(lastAt) : today, days, calendar);
  const earliest = nextWorkingDay(seoulHour(now) >= 18 ? addDays(today, 1) : today, calendar);
  return estimate < earliest ? earliest : estimate;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
