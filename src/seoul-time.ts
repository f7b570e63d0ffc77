/**
 * Asia/Seoul time, the one module that does its arithmetic: Korea has kept UTC+9 without
 * daylight saving since 1988, so plain arithmetic is exact. Quota renewal, the delivery
 * analysis, holidays and the watch poller's quiet hours all read the clock through it.
 */

/** Public holidays by Seoul date (operations/delivery/holidays.ts implements it). */
export interface HolidayCalendar {
  /** The holiday's name on a Seoul date (`YYYY-MM-DD`), if any. */
  holiday(date: string): string | undefined;
}

const OFFSET_MS = 9 * 3600_000;
const DAY_MS = 86_400_000;

export const WEEKDAYS_KO = ['일', '월', '화', '수', '목', '금', '토'] as const;

function shifted(instant: Date): Date {
  return new Date(instant.getTime() + OFFSET_MS);
}

/** The hour (0–23) of an instant on a Seoul wall clock. */
export function seoulHour(instant: Date): number {
  return shifted(instant).getUTCHours();
}

/** Milliseconds since midnight on a Seoul wall clock. */
export function seoulMsOfDay(instant: Date): number {
  return shifted(instant).getTime() % DAY_MS;
}

/** The start of the next calendar month in Seoul (when monthly quotas renew). */
export function nextSeoulMonth(instant: Date): Date {
  const seoul = shifted(instant);
  return new Date(Date.UTC(seoul.getUTCFullYear(), seoul.getUTCMonth() + 1, 1) - OFFSET_MS);
}

/** The Seoul calendar date of an instant, `YYYY-MM-DD`. */
export function seoulDate(instant: Date): string {
  return shifted(instant).toISOString().slice(0, 10);
}

/** ISO 8601 with the Seoul offset: `2026-11-20T18:02:00+09:00`. */
export function seoulIso(instant: Date): string {
  return `${shifted(instant).toISOString().slice(0, 19)}+09:00`;
}

/** 0 = Sunday … 6 = Saturday, for a `YYYY-MM-DD` date. */
export function weekdayOf(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay();
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** `11월 23일(월)` */
export function koreanDate(date: string): string {
  const [, month, day] = date.split('-').map(Number);
  return `${month}월 ${day}일(${WEEKDAYS_KO[weekdayOf(date)]})`;
}

/** Why a date is not a working day for couriers, or undefined on a working day. */
export function dayOff(date: string, calendar: HolidayCalendar): string | undefined {
  const holiday = calendar.holiday(date);
  if (holiday) return holiday;
  const weekday = weekdayOf(date);
  return weekday === 0 ? '일요일' : weekday === 6 ? '토요일' : undefined;
}

/** The first working day on or after `date`. */
export function nextWorkingDay(date: string, calendar: HolidayCalendar): string {
  let day = date;
  for (let i = 0; i < 30 && dayOff(day, calendar); i++) day = addDays(day, 1);
  return day;
}

/** Adds `count` working days to a date (0: the date itself if it is one, else the next). */
export function addWorkingDays(date: string, count: number, calendar: HolidayCalendar): string {
  let day = nextWorkingDay(date, calendar);
  for (let i = 0; i < count; i++) day = nextWorkingDay(addDays(day, 1), calendar);
  return day;
}

/** Hours between two instants that fall on working days in Seoul (weekends and holidays left out). */
export function workingHoursBetween(from: Date, to: Date, calendar: HolidayCalendar): number {
  let total = 0;
  let cursor = from.getTime();
  const end = to.getTime();
  while (cursor < end) {
    const dayStart = Math.floor((cursor + OFFSET_MS) / DAY_MS) * DAY_MS - OFFSET_MS;
    const next = Math.min(dayStart + DAY_MS, end);
    if (!dayOff(seoulDate(new Date(cursor)), calendar)) total += next - cursor;
    cursor = next;
  }
  return total / 3600_000;
}

/** The days off (weekends and holidays) between two dates inclusive, as `date name` pairs. */
export function daysOffBetween(from: string, to: string, calendar: HolidayCalendar): Array<{ date: string; name: string }> {
  const result: Array<{ date: string; name: string }> = [];
  for (let day = from, i = 0; day <= to && i < 60; day = addDays(day, 1), i++) {
    const name = dayOff(day, calendar);
    if (name) result.push({ date: day, name });
  }
  return result;
}
