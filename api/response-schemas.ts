import { z } from 'zod';
import type { OperationModule } from '../src/operations/operation-module.js';
import { API_IDS, type ApiId } from '../src/platform/catalog.js';

/**
 * Shapes of success bodies that the route declarations (api/routes/*.ts) share: the eight
 * operations' from their modules' output schemas inside the door's envelope, the rest here.
 */
export const iso = z.string().describe('ISO 8601');

/** `{success: true, …shape}`. */
export const ok = <T extends z.ZodRawShape>(shape: T) => z.object({ success: z.literal(true), ...shape });

export const keySummary = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string(),
  created_at: iso,
  last_used_at: iso.nullable(),
  expires_at: iso.nullable().describe('이 시각부터 키가 거부됩니다 (정한 만료일 또는 교체 뒤 유예 기간의 끝); null은 만료 없음'),
});

export const watchView = z.object({
  id: z.number().int(),
  carrier_id: z.string(),
  track_id: z.string(),
  status: z.string(),
  target: z.union([
    z.object({ type: z.literal('webhook'), url: z.string() }),
    z.object({ type: z.enum(['slack', 'discord']), channel_id: z.string() }),
  ]),
  state: z.object({ id: z.string(), text: z.string() }).nullable(),
  end_reason: z.string().nullable(),
  created_at: iso,
  expires_at: iso,
  next_poll_at: iso.nullable(),
  last_notified_at: iso.nullable(),
  /** Issue 38: the Seoul time of the daily digest (null: a message per change). */
  digest_at: z.string().nullable(),
});

export const catalogBody = ok({
  monthly_quota: z.number().int(),
  apis: z.array(
    z.object({
      id: z.enum(API_IDS),
      name: z.string(),
      name_en: z.string(),
      path: z.string(),
      category: z.string(),
      category_en: z.string(),
      description: z.string(),
      description_en: z.string(),
      status: z.literal('normal'),
      requires_subscription: z.boolean(),
      available: z.boolean(),
      engine: z.string(),
      unavailable_reason: z.string().optional(),
      unavailable_reason_en: z.string().optional(),
    }),
  ),
});

export const linkStatsBody = ok({
  code: z.string(),
  short_url: z.string(),
  url: z.string(),
  created_at: iso,
  clicks: z.object({
    total: z.number().int(),
    human: z.number().int(),
    bot: z.number().int(),
    daily: z.array(
      z.object({
        date: z.string().describe('YYYY-MM-DD (Asia/Seoul)'),
        total: z.number().int(),
        human: z.number().int(),
        bot: z.number().int(),
        qr: z.number().int().optional().describe('QR 코드로 연 클릭'),
      }),
    ),
    qr: z.number().int().optional().describe('QR 코드로 연 클릭 (?qr=1)'),
    direct: z.number().int().optional(),
  }),
  // Issue 36/40: honest statistics, limits and the rescan's verdict.
  unique_visitors: z
    .array(z.object({ date: z.string(), visitors: z.number().int() }))
    .optional()
    .describe('날짜별 순 방문자 (날마다 바뀌는 솔트로 만든 해시; 주소는 저장하지 않음)'),
  referrers: z.array(z.object({ host: z.string(), clicks: z.number().int() })).optional(),
  devices: z.array(z.object({ name: z.string(), clicks: z.number().int() })).optional(),
  os: z.array(z.object({ name: z.string(), clicks: z.number().int() })).optional(),
  browsers: z.array(z.object({ name: z.string(), clicks: z.number().int() })).optional(),
  countries: z
    .array(z.object({ name: z.string(), clicks: z.number().int() }))
    .nullable()
    .optional(),
  countries_note: z.string().optional().describe('GEOIP_DB가 없을 때 국가 통계가 없는 이유'),
  status: z.enum(['active', 'expired', 'used_up', 'blocked']).optional(),
  expires_at: iso.nullable().optional(),
  max_clicks: z.number().int().nullable().optional(),
  clicks_used: z.number().int().nullable().optional(),
  safety: z
    .object({
      state: z.enum(['unchecked', 'ok', 'harmful']),
      category: z.string().nullable(),
      reason: z.string().nullable(),
      checked_at: iso.nullable(),
      found_at: iso.nullable(),
    })
    .optional()
    .describe('URL_RESCAN 재검사 결과: 유해로 바뀐 링크는 경고 페이지 뒤에 있습니다'),
});

export const urlListsBody = z.looseObject({
  success: z.literal(true),
  lists: z.array(
    z.looseObject({
      name: z.string(),
      category: z.string(),
      entries: z.number().int(),
      fetched_at: iso.nullable(),
      last_error: z.string().nullable(),
    }),
  ),
});

/** The 200 body of an operation's route: its output inside the envelope every door adds. */
export type OperationBody<Id extends ApiId, Output extends z.ZodType> = { success: true; api: Id; remaining: number } & z.output<Output>;

/** An operation's 200 body schema: its module's output in the envelope (`successEnvelope`, api/http-answer.ts). */
export function operationBody<Id extends ApiId, Output extends z.ZodType<object>>(
  module: Pick<OperationModule<Id, z.ZodType, Output, never>, 'catalog' | 'output'>,
): z.ZodType<OperationBody<Id, Output>> {
  const envelope = z.object({
    success: z.literal(true),
    api: z.literal(module.catalog.id),
    remaining: z.number().int().describe('이번 달 남은 호출 수'),
  });
  const { output } = module;
  const body = output instanceof z.ZodObject ? output.extend(envelope.shape) : z.intersection(envelope, output);
  return body as unknown as z.ZodType<OperationBody<Id, Output>>;
}
