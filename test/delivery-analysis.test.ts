import { describe, expect, it } from 'vitest';
import { analyzeDelivery } from '../src/operations/delivery/analysis.js';
import { analysisText, domesticTel } from '../src/operations/delivery/analysis-text.js';
import { CARRIERS, findCarrier, normalizeTrackId } from '../src/operations/delivery/carriers.js';
import { COURIER_TEMPLATES, COURIER_TONES, SITUATIONS } from '../src/operations/delivery/courier-messages.js';
import { createHolidayCalendar, KOREAN_HOLIDAYS } from '../src/operations/delivery/holidays.js';
import { addWorkingDays, dayOff, koreanDate, seoulDate, seoulIso, weekdayOf, workingHoursBetween } from '../src/seoul-time.js';
import { toTrackingResult, type TrackingResult } from '../src/operations/delivery/tracking-result.js';
import { ev } from './fakes/tracker-server.js';

const calendar = createHolidayCalendar();
const cj = findCarrier('kr.cjlogistics')!;

function parcel(events: ReturnType<typeof ev>[], carrierId = 'kr.cjlogistics'): TrackingResult {
  return toTrackingResult(findCarrier(carrierId)!, { lastEvent: events.at(-1) ?? null, events });
}

describe('carriers and track ids', () => {
  it('ships the 29 carriers with "" for an unknown telephone', () => {
    expect(CARRIERS).toHaveLength(29);
    expect(new Set(CARRIERS.map((c) => c.id)).size).toBe(29);
    expect(findCarrier('kr.coupangls')).toEqual({
      id: 'kr.coupangls',
      name: 'Coupang Logistics Services',
      name_ko: '쿠팡 로지스틱스 서비스',
      tel: '',
    });
    expect(cj.tel).toBe('+8215881255');
  });

  it('drops spaces and hyphens and accepts letters only for the four international carriers', () => {
    expect(normalizeTrackId('kr.cjlogistics', ' 1234-5678 9012 ')).toBe('123456789012');
    expect(normalizeTrackId('kr.cjlogistics', '12AB34')).toBeUndefined();
    expect(normalizeTrackId('kr.cjlogistics', '--')).toBeUndefined();
    expect(normalizeTrackId('kr.epost.ems', 'ee 123 456 789 kr')).toBe('EE123456789KR');
    expect(normalizeTrackId('kr.lotte.global', 'AB-12')).toBe('AB12');
    expect(normalizeTrackId('kr.epost.ems', 'EE12#')).toBeUndefined();
  });

  it('writes carrier numbers the Korean way', () => {
    expect(domesticTel('+8215881255')).toBe('1588-1255');
    expect(domesticTel('+82314620100')).toBe('031-462-0100');
    expect(domesticTel('+82533543001')).toBe('053-354-3001');
  });
});

describe('Seoul calendar and holidays', () => {
  it('reads dates in Asia/Seoul whatever the instant', () => {
    expect(seoulDate(new Date('2026-11-20T15:30:00Z'))).toBe('2026-11-21');
    expect(seoulIso(new Date('2026-11-20T09:02:00Z'))).toBe('2026-11-20T18:02:00+09:00');
    expect(koreanDate('2026-11-23')).toBe('11월 23일(월)');
  });

  it('covers 2025–2027 with the lunar and substitute holidays', () => {
    for (const year of ['2025', '2026', '2027']) {
      const names = Object.entries(KOREAN_HOLIDAYS)
        .filter(([date]) => date.startsWith(year))
        .map(([, name]) => name);
      for (const holiday of ['신정', '설날', '삼일절', '현충일', '광복절', '추석', '개천절', '한글날', '성탄절']) {
        expect(names, `${year} ${holiday}`).toContain(holiday);
      }
      expect(names.some((name) => name.includes('부처님오신날'))).toBe(true);
    }
    expect(calendar.holiday('2026-02-17')).toBe('설날');
    expect(calendar.holiday('2027-02-09')).toBe('대체공휴일(설날)');
    expect(calendar.holiday('2026-09-25')).toBe('추석');
    expect(calendar.holiday('2026-11-23')).toBeUndefined();
  });

  it('puts every substitute holiday on a weekday right after a holiday that fell on a weekend or on another holiday', () => {
    const substitutes = Object.entries(KOREAN_HOLIDAYS).filter(([, name]) => name.startsWith('대체공휴일'));
    expect(substitutes.length).toBeGreaterThanOrEqual(10);
    for (const [date] of substitutes) {
      expect([0, 6], date).not.toContain(weekdayOf(date));
      const before = [1, 2, 3, 4].map((back) => new Date(Date.parse(`${date}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10));
      expect(
        before.some((day) => KOREAN_HOLIDAYS[day] && [0, 6].includes(weekdayOf(day))) ||
          before.some((day) => KOREAN_HOLIDAYS[day]?.includes('·')),
        date,
      ).toBe(true);
    }
  });

  it('counts working hours and working days without weekends and holidays', () => {
    // Friday 17:00 → Monday 17:00 KST: 7 h on Friday + 17 h on Monday.
    expect(workingHoursBetween(new Date('2026-11-20T17:00:00+09:00'), new Date('2026-11-23T17:00:00+09:00'), calendar)).toBe(24);
    expect(addWorkingDays('2026-11-20', 1, calendar)).toBe('2026-11-23');
    expect(addWorkingDays('2026-09-23', 1, calendar)).toBe('2026-09-28'); // 추석 연휴 + weekend
    expect(dayOff('2026-10-05', calendar)).toBe('대체공휴일(개천절)');
    expect(dayOff('2026-11-22', calendar)).toBe('일요일');
  });
});

describe('tracking result mapping', () => {
  it('sorts out-of-order events oldest first and lets the delivered event win over a later scan', () => {
    const result = parcel([
      ev('2026-11-20T14:00:00+09:00', 'DELIVERED', '배달완료', '강남', '고객님의 상품이 배달완료 되었습니다.'),
      ev('2026-11-19T01:00:00.000Z', 'IN_TRANSIT', '간선상차', '곤지암Hub'),
      ev('2026-11-18T18:00:00+09:00', 'AT_PICKUP', null, '성수', '집화처리'),
      ev('2026-11-20T20:00:00+09:00', 'IN_TRANSIT', '간선하차', '곤지암Hub'),
    ]);
    expect(result.progresses.map((p) => p.time)).toEqual([
      '2026-11-18T18:00:00+09:00',
      '2026-11-19T10:00:00+09:00',
      '2026-11-20T14:00:00+09:00',
      '2026-11-20T20:00:00+09:00',
    ]);
    expect(result.progresses[0]).toEqual({
      time: '2026-11-18T18:00:00+09:00',
      status: { id: 'at_pickup', text: '상품인수' },
      location: { name: '성수' },
      description: '집화처리',
    });
    expect(result.progresses[1]!.status).toEqual({ id: 'in_transit', text: '간선상차' });
    expect(result.state).toEqual({ id: 'delivered', text: '배송완료' });
  });

  it('follows the newest event otherwise, and maps unknown codes to unknown', () => {
    expect(parcel([ev('2026-11-18T18:00:00+09:00', 'AT_PICKUP'), ev('2026-11-19T08:00:00+09:00', 'OUT_FOR_DELIVERY')]).state).toEqual({
      id: 'out_for_delivery',
      text: '배송출발',
    });
    expect(parcel([ev('2026-11-18T18:00:00+09:00', 'WEIRD')]).state).toEqual({ id: 'unknown', text: '알수없음' });
    expect(parcel([]).state.id).toBe('unknown');
  });
});

describe('deterministic analysis (fixed clock)', () => {
  it('pushes the arrival past a weekend and names the days off', () => {
    const result = parcel([
      ev('2026-11-19T20:00:00+09:00', 'AT_PICKUP', '집화처리', '성수'),
      ev('2026-11-20T18:02:00+09:00', 'IN_TRANSIT', '간선상차', '곤지암Hub'),
    ]);
    const now = new Date('2026-11-21T10:00:00+09:00'); // Saturday
    const analysis = analyzeDelivery(result, now, calendar);
    expect(analysis.today).toBe('2026-11-21');
    expect(analysis.expectedDate).toBe('2026-11-23');
    expect(analysis.stalled).toBe(false);
    expect(analysis.hoursSinceLastEvent).toBe(16);
    expect(analysis.workingHoursSinceLastEvent).toBe(6);
    expect(analysis.steps).toEqual([{ location: '성수', status: '집화처리', hours: 22, workingHours: 22 }]);
    expect(analysis.causes).toEqual([
      {
        kind: 'days_off',
        days: [
          { date: '2026-11-21', name: '토요일' },
          { date: '2026-11-22', name: '일요일' },
        ],
      },
    ]);
    const text = analysisText(result, analysis);
    expect(text).toContain('오늘은 11월 21일(토)입니다.');
    expect(text).toContain('예상 도착일은 11월 23일(월)입니다.');
    expect(text).toContain('11월 22일(일) 일요일');
    expect(text).toContain('곤지암Hub');
  });

  it('skips a public holiday (추석 2026) in the estimate and names it', () => {
    const result = parcel([ev('2026-09-23T20:00:00+09:00', 'IN_TRANSIT', '간선하차', '대전HUB')]);
    const analysis = analyzeDelivery(result, new Date('2026-09-24T12:00:00+09:00'), calendar);
    expect(analysis.expectedDate).toBe('2026-09-28');
    expect(analysis.stalled).toBe(false);
    const daysOff = analysis.causes.find((cause) => cause.kind === 'days_off');
    expect(daysOff && 'days' in daysOff ? daysOff.days.map((d) => d.name) : []).toEqual(['추석 연휴', '추석', '추석 연휴', '일요일']);
    expect(analysisText(result, analysis)).toContain('9월 25일(금) 추석');
    expect(analysisText(result, analysis)).toContain('예상 도착일은 9월 28일(월)입니다.');
  });

  it('flags a stall only after 48 working hours, naming the hub as the bottleneck', () => {
    const events = [
      ev('2026-11-13T19:00:00+09:00', 'AT_PICKUP', '집화처리', '성수'),
      ev('2026-11-16T09:00:00+09:00', 'IN_TRANSIT', '간선하차', '곤지암Hub'),
    ];
    const stalled = analyzeDelivery(parcel(events), new Date('2026-11-20T09:00:00+09:00'), calendar);
    expect(stalled.stalled).toBe(true);
    expect(stalled.bottleneck).toMatchObject({ location: '곤지암Hub', workingHours: 96 });
    expect(stalled.expectedDate).toBe('2026-11-20');
    expect(stalled.causes.map((c) => c.kind)).toEqual(['hub_congestion', 'stalled']);
    const text = analysisText(parcel(events), stalled);
    expect(text).toContain('새 소식이 없어 배송이 멈춘 것으로 보입니다');
    expect(text).toContain('1588-1255');

    // Friday 17:00 to Monday 17:00 is 72 hours but only 24 working hours: not a stall.
    const weekend = analyzeDelivery(
      parcel([ev('2026-11-20T17:00:00+09:00', 'IN_TRANSIT', '간선하차', '곤지암Hub')]),
      new Date('2026-11-23T17:00:00+09:00'),
      calendar,
    );
    expect(weekend.hoursSinceLastEvent).toBe(72);
    expect(weekend.stalled).toBe(false);
  });

  it('reports a failed attempt, customs and an international carrier’s longer legs', () => {
    const failed = analyzeDelivery(
      parcel([
        ev('2026-11-19T09:00:00+09:00', 'OUT_FOR_DELIVERY', '배송출발', '강남'),
        ev('2026-11-19T15:00:00+09:00', 'ATTEMPT_FAIL', '미배달', '강남', '고객 부재'),
      ]),
      new Date('2026-11-19T16:00:00+09:00'),
      calendar,
    );
    expect(failed.causes.map((c) => c.kind)).toContain('failed_attempt');
    expect(failed.expectedDate).toBe('2026-11-20');
    const ems = analyzeDelivery(
      parcel([ev('2026-11-16T10:00:00+09:00', 'IN_TRANSIT', '통관검사대기', '인천공항 세관')], 'kr.epost.ems'),
      new Date('2026-11-16T12:00:00+09:00'),
      calendar,
    );
    expect(ems.causes.map((c) => c.kind)).toContain('customs');
    expect(ems.expectedDate).toBe('2026-11-20');
  });

  it('gives no arrival estimate once delivered', () => {
    const result = parcel([ev('2026-11-20T14:00:00+09:00', 'DELIVERED', '배달완료', '강남')]);
    const analysis = analyzeDelivery(result, new Date('2026-11-21T10:00:00+09:00'), calendar);
    expect(analysis.expectedDate).toBeUndefined();
    expect(analysis.causes).toEqual([]);
    expect(analysisText(result, analysis)).toContain('CJ대한통운 택배가 11월 20일(금)에 배송 완료되었습니다.');
  });
});

describe('courier message templates', () => {
  it('has a distinct, non-empty message for every situation and tone', () => {
    const all = SITUATIONS.flatMap((situation) => COURIER_TONES.map((tone) => COURIER_TEMPLATES[situation][tone]));
    expect(all).toHaveLength(12);
    expect(new Set(all).size).toBe(12);
    expect(COURIER_TEMPLATES.security.short).toContain('경비실');
    expect(COURIER_TEMPLATES.box.polite).toContain('택배함');
    expect(COURIER_TEMPLATES.call.friendly).toContain('전화');
    expect(COURIER_TEMPLATES.door.polite).toContain('문 앞');
  });
});
