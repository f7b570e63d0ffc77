import { z } from 'zod';
import { deliveryOutputSchema } from '../operations/delivery/delivery.schema.js';

const progresses = deliveryOutputSchema.shape.progresses;
const state = z.object({ id: z.string(), text: z.string() });

/** The body of a change notice (CONTRACT §5), and of the stalled-parcel notice (issue 38). */
export const webhookPayloadSchema = z.object({
  event: z.enum(['delivery.updated', 'delivery.delivered', 'delivery.stalled']),
  watch_id: z.number().int(),
  carrier_id: z.string(),
  track_id: z.string(),
  state,
  progresses,
  ai_analysis: z.string().nullable(),
  /** `delivery.stalled` only: a message to send the courier. */
  recommend_message: z.string().optional(),
  /** `delivery.stalled` only: working hours without an event, the normal wait it was judged by, the carrier's phone. */
  stalled: z.object({ hours_without_event: z.number(), normal_hours: z.number(), carrier_tel: z.string() }).optional(),
});

/** The daily digest of the watches with `digest_at` posting to one webhook URL (issue 38). */
export const digestPayloadSchema = z.object({
  event: z.literal('delivery.digest'),
  /** The Seoul date of the digest. */
  date: z.string(),
  watch_ids: z.array(z.number().int()),
  parcels: z.array(
    z.object({
      watch_id: z.number().int(),
      carrier_id: z.string(),
      track_id: z.string(),
      state: state.nullable(),
      last_event: progresses.element.nullable(),
    }),
  ),
});

/** The events a webhook receives, for the OpenAPI document's `webhooks`. */
export const WEBHOOK_EVENTS = [
  { name: 'delivery.updated', summary: '배송 단계가 바뀜 (delivery.delivered: 배송 완료, 마지막 알림)', schema: webhookPayloadSchema },
  { name: 'delivery.stalled', summary: '배송이 멈춘 것 같아요: 평소보다 오래(최소 24시간) 새 단계가 없음', schema: webhookPayloadSchema },
  { name: 'delivery.digest', summary: 'digest_at 시각에 하루 한 번 보내는 배송 현황', schema: digestPayloadSchema },
] as const;
