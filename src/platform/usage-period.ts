import { z } from 'zod';
import { AppError } from '../errors.js';
import { seoulDate } from '../seoul-time.js';

const DAY_MS = 86_400_000;
/** The longest span one `GET /api/v1/usage` answers. */
export const MAX_USAGE_DAYS = 366;

/** A `YYYY-MM-DD` that exists (`Date.parse` rolls `2026-02-30` into March; this does not). */
export function isCalendarDate(text: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}$/.test(text) &&
    !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) &&
    new Date(`${text}T00:00:00Z`).toISOString().startsWith(text)
  );
}

const day = (name: 'from' | 'to') =>
  z
    .string()
    .trim()
    .refine(isCalendarDate, {
      message: `${name === 'from' ? 'from은' : 'to는'} 2026-11-01 같은 날짜(YYYY-MM-DD, 한국 날짜)여야 합니다.`,
    })
    .optional()
    .describe(`YYYY-MM-DD (한국 날짜); 기본은 ${name === 'from' ? '이번 달 1일' : '오늘'}`);

export const usageQuerySchema = z.object({ from: day('from'), to: day('to') });

/** The Seoul dates a usage query covers: the current month up to today by default. */
export function usagePeriod(query: { from?: string | undefined; to?: string | undefined }, now: Date): { from: string; to: string } {
  const today = seoulDate(now);
  const to = query.to ?? today;
  const from = query.from ?? `${to.slice(0, 7)}-01`;
  if (from > to) throw new AppError('INVALID_REQUEST', 'from은 to보다 늦을 수 없습니다.', { field: 'from' });
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
  if (days > MAX_USAGE_DAYS)
    throw new AppError('INVALID_REQUEST', `한 번에 ${MAX_USAGE_DAYS}일까지 조회할 수 있습니다 (from과 to 사이가 ${days}일).`, {
      field: 'to',
    });
  return { from, to };
}
