import { z } from 'zod';
import { findCarrier, normalizeTrackId } from '../delivery/carriers.js';

/**
 * `POST /api/v1/delivery/watch` (CONTRACT §5): a carrier, a waybill number (the tracking
 * rules), and for REST callers the webhook URL that receives the changes. Channel targets
 * come from the bot door, never from the body.
 */
export const watchCreateSchema = z
  .object({
    carrier_id: z.string().trim().min(1).max(64),
    track_id: z.string().trim().min(1).max(64),
    webhook_url: z.string().trim().min(1).max(2048).optional(),
  })
  .superRefine((input, ctx) => {
    if (!findCarrier(input.carrier_id)) {
      ctx.addIssue({ code: 'custom', path: ['carrier_id'], message: `지원하지 않는 택배사입니다: ${input.carrier_id}` });
    } else if (!normalizeTrackId(input.carrier_id, input.track_id)) {
      ctx.addIssue({ code: 'custom', path: ['track_id'], message: '운송장 번호는 숫자만 입력하세요(공백과 하이픈은 무시됩니다).' });
    }
  })
  .transform((input) => ({
    carrierId: input.carrier_id,
    trackId: normalizeTrackId(input.carrier_id, input.track_id)!,
    webhookUrl: input.webhook_url,
  }));

export type WatchCreateInput = z.output<typeof watchCreateSchema>;

export const watchIdSchema = z.object({ id: z.coerce.number({ error: '알림 ID는 숫자여야 합니다.' }).int().positive().max(2_147_483_647) });
