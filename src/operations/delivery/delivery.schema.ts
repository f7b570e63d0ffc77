import { z } from 'zod';
import { findCarrier, normalizeTrackId } from './carriers.js';
import { situationSchema, courierToneSchema } from './courier-messages.js';

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
      if (!input.ai) ctx.addIssue({ code: 'custom', path: ['carrier_id'], message: '배송 조회에는 carrier_id와 track_id가 필요합니다. (메시지 추천만 받으려면 ai를 켜세요.)' });
      return;
    }
    if (input.carrier_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['carrier_id'], message: 'track_id와 함께 택배사 ID(carrier_id)를 보내야 합니다.' });
      return;
    }
    if (!findCarrier(input.carrier_id)) {
      ctx.addIssue({ code: 'custom', path: ['carrier_id'], message: `지원하지 않는 택배사입니다: ${input.carrier_id}` });
      return;
    }
    if (input.track_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['track_id'], message: 'carrier_id와 함께 운송장 번호(track_id)를 보내야 합니다.' });
      return;
    }
    if (!normalizeTrackId(input.carrier_id, input.track_id)) {
      ctx.addIssue({ code: 'custom', path: ['track_id'], message: '운송장 번호는 숫자만 입력하세요(공백과 하이픈은 무시됩니다).' });
    }
  })
  .transform((input) => {
    const lookup =
      input.carrier_id !== undefined && input.track_id !== undefined
        ? { carrierId: input.carrier_id, trackId: normalizeTrackId(input.carrier_id, input.track_id)! }
        : undefined;
    return { lookup, ai: input.ai, situation: input.situation, tone: input.tone };
  });

export type DeliveryTrackInput = z.output<typeof deliveryTrackSchema>;
