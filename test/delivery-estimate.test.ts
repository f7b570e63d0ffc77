import { describe, expect, it } from 'vitest';
import { findCarrier } from '../src/operations/delivery/carriers.js';
import { estimateArrival, MIN_SAMPLES, stallThresholdHours, STALL_FLOOR_HOURS } from '../src/operations/delivery/estimate.js';
import { dayPartOf, placeKindOf, type DurationSample } from '../src/operations/delivery/durations.js';
import { createHolidayCalendar } from '../src/operations/delivery/holidays.js';
import { seoulDate, seoulHour, seoulIso } from '../src/seoul-time.js';
import type { TrackingResult } from '../src/operations/delivery/tracking-result.js';
import { seededRandom } from './helpers/seeded-random.js';

const calendar = createHolidayCalendar();
const HOUR = 3600_000;
const CJ = findCarrier('kr.cjlogistics')!;

function parcelAt(lastAt: Date, place: string): TrackingResult {
  return {
    carrier: CJ,
    state: { id: 'in_transit', text: '상품이동중' },
    progresses: [
      {
        time: seoulIso(new Date(lastAt.getTime() - 20 * HOUR)),
        status: { id: 'at_pickup', text: '집화처리' },
        location: { name: '성수' },
        description: '',
      },
      { time: seoulIso(lastAt), status: { id: 'in_transit', text: '간선하차' }, location: { name: place }, description: '' },
    ],
  };
}

/**
 * The synthetic world: the time from an in-transit scan to the delivery depends on the kind of
 * place and the time of day (a hub scan in the evening makes the next morning's round; one in the
 * morning waits for the night's trunk run), log-normally spread.
 */
function drawHours(random: () => number, place: string, hour: number): number {
  const median = placeKindOf(place) === 'hub' ? [30, 26, 20, 14][dayPartOf(hour)]! : [10, 8, 30, 16][dayPartOf(hour)]!;
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return median * Math.exp(0.3 * normal);
}

const PLACES = ['곤지암Hub', '대전HUB', '강남대리점', '성수SC'];

function history(random: () => number, n: number): DurationSample[] {
  return Array.from({ length: n }, () => {
    const place = PLACES[Math.floor(random() * PLACES.length)]!;
    const hour = Math.floor(random() * 24);
    const hours = drawHours(random, place, hour);
    return { placeKind: placeKindOf(place), hour, hours, workingHours: hours };
  });
}

describe('arrival estimate from the history of past parcels', () => {
  it('on a synthetic history, the real arrival falls between earliest and latest about as often as the 10–90 % range says', () => {
    const random = seededRandom(38);
    const samples = history(random, 2000);
    const start = Date.parse('2026-10-05T00:00:00+09:00');
    let inside = 0;
    let exact = 0;
    const confidences = { high: 0, medium: 0, low: 0 };
    const N = 400;
    for (let i = 0; i < N; i++) {
      const place = PLACES[Math.floor(random() * PLACES.length)]!;
      const lastAt = new Date(start + Math.floor(random() * 40 * 24) * HOUR);
      const now = new Date(lastAt.getTime() + random() * 4 * HOUR);
      const truth = drawHours(random, place, seoulHour(lastAt));
      const arrival = new Date(lastAt.getTime() + truth * HOUR);
      if (arrival <= now) continue; // delivered already: nothing to estimate
      const estimate = estimateArrival({ result: parcelAt(lastAt, place), now, calendar, samples, ruleDate: undefined })!;
      confidences[estimate.confidence]++;
      const day = seoulDate(arrival);
      if (day >= estimate.earliest && day <= estimate.latest) inside++;
      if (day === estimate.date) exact++;
    }
    const total = confidences.high + confidences.medium + confidences.low;
    const coverage = inside / total;
    console.info(
      `estimate calibration (synthetic, ${samples.length} history samples, ${total} parcels): arrival within earliest–latest ${(coverage * 100).toFixed(1)} %, on the estimated date ${((exact / total) * 100).toFixed(1)} %, confidence ${JSON.stringify(confidences)}`,
    );
    // The 10th–90th percentile range, widened to whole days, holds at least 80 % of arrivals, and is not a week wide either.
    expect(coverage).toBeGreaterThanOrEqual(0.8);
    expect(coverage).toBeLessThan(0.995);
    expect(exact / total).toBeGreaterThan(0.4);
    expect(confidences.high).toBeGreaterThan(0);
  });

  it('with too little history says low and why, and uses the rule date', () => {
    const random = seededRandom(7);
    const thin = history(random, MIN_SAMPLES - 1);
    const now = new Date('2026-11-23T12:00:00+09:00');
    const estimate = estimateArrival({
      result: parcelAt(new Date(now.getTime() - 2 * HOUR), '곤지암Hub'),
      now,
      calendar,
      samples: thin,
      ruleDate: '2026-11-24',
    })!;
    expect(estimate).toMatchObject({ date: '2026-11-24', earliest: '2026-11-24', confidence: 'low', samples: 0 });
    expect(estimate.latest > estimate.date).toBe(true);
    expect(estimate.basis).toMatch(/과거 배송 기록이 \d건뿐이라\(최소 10건 필요\)/);
  });

  it('says which history it used, narrowing to the same place kind and time of day when there is enough', () => {
    const random = seededRandom(11);
    const now = new Date('2026-11-23T15:00:00+09:00');
    const estimate = estimateArrival({
      result: parcelAt(new Date(now.getTime() - HOUR), '곤지암Hub'),
      now,
      calendar,
      samples: history(random, 2000),
      ruleDate: undefined,
    })!;
    expect(estimate.basis).toContain('같은 장소 유형(허브·터미널)·같은 시간대(오후)');
    expect(estimate.samples).toBeGreaterThanOrEqual(MIN_SAMPLES);
    // Only the history that had already waited as long counts: after a long wait, the estimate moves later.
    const waited = estimateArrival({
      result: parcelAt(new Date(now.getTime() - 26 * HOUR), '곤지암Hub'),
      now,
      calendar,
      samples: history(seededRandom(11), 2000),
      ruleDate: undefined,
    })!;
    expect(waited.date >= seoulDate(now)).toBe(true);
  });

  it('none once delivered', () => {
    const result = parcelAt(new Date('2026-11-23T10:00:00+09:00'), '강남대리점');
    expect(
      estimateArrival({
        result: { ...result, state: { id: 'delivered', text: '배송완료' } },
        now: new Date(),
        calendar,
        samples: [],
        ruleDate: undefined,
      }),
    ).toBeNull();
  });

  it('the stall line is the 90th percentile of the normal wait at that step, never under 24 working hours', () => {
    expect(stallThresholdHours([])).toEqual({ hours: 48, samples: 0 });
    const quick = Array.from({ length: 20 }, (_, i) => ({ placeKind: 'hub', hour: 10, hours: i, workingHours: i }));
    expect(stallThresholdHours(quick).hours).toBe(STALL_FLOOR_HOURS);
    const slow = Array.from({ length: 20 }, (_, i) => ({ placeKind: 'hub', hour: 10, hours: 30 + i, workingHours: 30 + i }));
    expect(stallThresholdHours(slow).hours).toBeCloseTo(47.1, 1);
  });
});
