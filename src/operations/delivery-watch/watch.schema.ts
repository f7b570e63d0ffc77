import { z } from 'zod';
import { normalizeTrackId } from '../delivery/carriers.js';
import { carrierIdOf, trackIdHint } from '../delivery/delivery.schema.js';
import { DIGEST_TIME } from './digest-store.js';

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
    /** Addition (issue 38): one daily digest at this Seoul time instead of a message per change. */
    digest_at: z.string().trim().max(5).regex(DIGEST_TIME, "digest_at은 'HH:MM' 형식의 시각이어야 합니다 (예: '09:00').").optional(),
  })
  .superRefine((input, ctx) => {
    const carrier = carrierIdOf(input.carrier_id);
    if (!carrier.ok) {
      ctx.addIssue({ code: 'custom', path: ['carrier_id'], message: carrier.message });
    } else if (!normalizeTrackId(carrier.id, input.track_id)) {
      ctx.addIssue({ code: 'custom', path: ['track_id'], message: trackIdHint(carrier.id) });
    }
  })
  .transform((input) => {
    // Reached only when the refinement passed: a carrier (or `auto`) and a valid number.
    const carrierId = (carrierIdOf(input.carrier_id) as { id: string }).id;
    return { carrierId, trackId: normalizeTrackId(carrierId, input.track_id)!, webhookUrl: input.webhook_url, digestAt: input.digest_at };
  });

export type WatchCreateInput = z.output<typeof watchCreateSchema>;

export const watchIdSchema = z.object({ id: z.coerce.number({ error: '알림 ID는 숫자여야 합니다.' }).int().positive().max(2_147_483_647) });
