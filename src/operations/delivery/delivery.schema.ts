import { z } from 'zod';
import { carrierMatchError, matchCarrier } from './carrier-names.js';
import { normalizeTrackId } from './carriers.js';
import { courierToneSchema, situationSchema } from './courier-messages.js';
import { STATUS_LABELS, type StatusId } from './statuses.js';

/** `carrier_id: "auto"`: the carrier is detected from the number's format (carrier-detect.ts). */
export const AUTO_CARRIER = 'auto';

/** Empty text counts as "not sent", so a form's blank field does not become a bad value. */
const optionalText = z
  .string()
  .trim()
  .max(64, '64자 이하여야 합니다.')
  .optional()
  .transform((value) => (value === '' ? undefined : value));

/**
 * `POST /api/v1/delivery/track` (SPEC §7, CONTRACT §5): a lookup needs both `carrier_id`
 * (one of the 29 carriers) and `track_id` (digits once spaces and hyphens are dropped;
 * letters only for the four international carriers). With neither and `ai` on, only the
 * courier message is made; with neither and `ai` off there is nothing to do (400).
 */
export const deliveryTrackSchema = z
  .object({
    carrier_id: optionalText,
    track_id: optionalText,
    ai: z
      .union([z.boolean(), z.literal(0), z.literal(1)], { error: 'ai는 true/false 또는 1/0이어야 합니다.' })
      .default(false)
      .transform((value) => value === true || value === 1),
    situation: situationSchema.default('door'),
    tone: courierToneSchema.default('polite'),
  })
  .superRefine((input, ctx) => {
    if (input.carrier_id === undefined && input.track_id === undefined) {
      if (!input.ai)
        ctx.addIssue({
          code: 'custom',
          path: ['carrier_id'],
          message: '배송 조회에는 carrier_id와 track_id가 필요합니다. (메시지 추천만 받으려면 ai를 켜세요.)',
        });
      return;
    }
    // `track_id` alone: the carrier is found from the number (CONTRACT §5), as with `auto`.
    const carrierId = carrierIdOf(input.carrier_id ?? AUTO_CARRIER);
    if (!carrierId.ok) {
      ctx.addIssue({ code: 'custom', path: ['carrier_id'], message: carrierId.message });
      return;
    }
    if (input.track_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['track_id'], message: 'carrier_id와 함께 운송장 번호(track_id)를 보내야 합니다.' });
      return;
    }
    if (!normalizeTrackId(carrierId.id, input.track_id)) {
      ctx.addIssue({ code: 'custom', path: ['track_id'], message: trackIdHint(carrierId.id) });
    }
  })
  .transform((input) => {
    const carrierId = input.track_id !== undefined ? carrierIdOf(input.carrier_id ?? AUTO_CARRIER) : undefined;
    const lookup =
      carrierId?.ok && input.track_id !== undefined
        ? { carrierId: carrierId.id, trackId: normalizeTrackId(carrierId.id, input.track_id)! }
        : undefined;
    return { lookup, ai: input.ai, situation: input.situation, tone: input.tone };
  });

/** A carrier id, Korean or English name or short name (CONTRACT §5), or `auto`. */
export function carrierIdOf(given: string): { ok: true; id: string } | { ok: false; message: string } {
  if (given.trim().toLowerCase() === AUTO_CARRIER) return { ok: true, id: AUTO_CARRIER };
  const match = matchCarrier(given);
  return 'carrier' in match ? { ok: true, id: match.carrier.id } : { ok: false, message: carrierMatchError(given, match) };
}

export function trackIdHint(carrierId: string): string {
  return normalizeTrackId(carrierId, 'A1')
    ? '운송장 번호는 영문과 숫자만 입력하세요(공백과 하이픈은 무시됩니다).'
    : '운송장 번호는 숫자만 입력하세요(공백과 하이픈은 무시됩니다).';
}

export type DeliveryTrackInput = z.output<typeof deliveryTrackSchema>;

export const carrierCandidateOutput = z.object({
  id: z.string(),
  name: z.string(),
  name_ko: z.string(),
  confidence: z.number().min(0).max(1),
  rule: z.enum(['published', 'inferred']),
  found: z.boolean().nullable(),
});

const carrierOutput = z.object({ id: z.string(), name: z.string(), name_ko: z.string(), tel: z.string() });
const statusOutput = z.object({ id: z.enum(Object.keys(STATUS_LABELS) as [StatusId, ...StatusId[]]), text: z.string() });

export const deliveryOutputSchema = z.object({
  carrier: carrierOutput.nullable(),
  state: statusOutput.nullable(),
  progresses: z.array(
    z.object({ time: z.string().nullable(), status: statusOutput, location: z.object({ name: z.string() }), description: z.string() }),
  ),
  ai_analysis: z.string().nullable(),
  recommend_message: z.string().nullable(),
  /** Addition (issue 38): the arrival estimate of a lookup; null once delivered. */
  estimated_arrival: z
    .object({
      date: z.string(),
      earliest: z.string(),
      latest: z.string(),
      confidence: z.enum(['high', 'medium', 'low']),
      basis: z.string(),
      samples: z.number().int(),
    })
    .nullable()
    .optional(),
  /** Addition (issue 38): with `carrier_id` auto or omitted, when several candidate carriers knew the number. */
  carrier_candidates: z.array(carrierCandidateOutput).optional(),
});
