import { z } from 'zod';
import { AUDIT_ACTIONS } from './audit-log.js';
import { isCalendarDate } from './usage-period.js';

/** Most events one `GET /api/v1/audit` answers; a longer span is read in parts (`to` = the oldest `at` seen). */
export const MAX_AUDIT_EVENTS = 10_000;

/** `2026-11-01` is a day in Korea (from its start; as `to`, through its end); an ISO instant is taken as it is. */
const instant = (name: 'from' | 'to') =>
  z
    .string()
    .trim()
    .refine(
      (text) =>
        /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2}))?$/.test(text) &&
        isCalendarDate(text.slice(0, 10)) &&
        !Number.isNaN(Date.parse(text)),
      {
        message: `${name}은 2026-11-01 같은 날짜(한국 날짜)나 2026-11-01T09:00:00Z 같은 시각이어야 합니다.`,
      },
    )
    .transform((text) => {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return new Date(text);
      const start = new Date(`${text}T00:00:00+09:00`);
      return name === 'to' ? new Date(start.getTime() + 86_400_000) : start;
    })
    .optional();

export const auditQuerySchema = z.object({
  from: instant('from').describe('이 날짜(한국)·시각부터'),
  to: instant('to').describe('이 날짜(한국)까지, 또는 이 시각 전까지'),
  action: z.enum(AUDIT_ACTIONS, { error: `action은 ${AUDIT_ACTIONS.join(', ')} 중 하나여야 합니다.` }).optional(),
  format: z.enum(['json', 'csv'], { error: "format은 'json'이나 'csv'여야 합니다." }).default('json'),
  limit: z.coerce
    .number({ error: `limit은 1에서 ${MAX_AUDIT_EVENTS} 사이의 정수여야 합니다.` })
    .int(`limit은 1에서 ${MAX_AUDIT_EVENTS} 사이의 정수여야 합니다.`)
    .min(1, `limit은 1에서 ${MAX_AUDIT_EVENTS} 사이의 정수여야 합니다.`)
    .max(MAX_AUDIT_EVENTS, `limit은 1에서 ${MAX_AUDIT_EVENTS} 사이의 정수여야 합니다.`)
    .default(1000),
});
