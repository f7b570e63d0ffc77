import { apiLabel } from '../../src/operations/catalog.js';
import { z } from 'zod';
import { alreadyDelivered, duplicate, tooManyWatches, watchNotFound } from '../../src/operations/delivery-watch/watch-service.js';
import { watchCreateSchema, watchIdSchema } from '../../src/operations/delivery-watch/watch.schema.js';
import { quotaExceeded, subscriptionRequired } from '../../src/platform/subscriptions.js';
import { trackerFailure } from '../../src/providers/tracker.js';
import type { Runtime } from '../../src/runtime.js';
import { accountOf } from '../middleware/auth.js';
import { ok, watchView } from '../response-schemas.js';
import { defineRoute, type Route } from '../route.js';
import { RATE_LIMIT_HEADERS, runForRequest } from './operations.js';

const watch = {
  id: 12,
  carrier_id: 'kr.cjlogistics',
  track_id: '123456789012',
  status: 'active',
  target: { type: 'webhook', url: 'https://example.com/hooks/parcel' },
  state: { id: 'in_transit', text: '상품이동중' },
  end_reason: null,
  created_at: '2026-11-22T06:00:00.000Z',
  expires_at: '2026-12-22T06:00:00.000Z',
  next_poll_at: '2026-11-22T06:10:00.000Z',
  last_notified_at: null,
  digest_at: null,
};

/**
 * CONTRACT §5 watches: `POST /delivery/watch` (201, costs one `delivery-tracking` call; the
 * webhook secret is shown only here), `GET /delivery/watch` and `DELETE /delivery/watch/:id`
 * (free). `X-API-Key` or a login token; another account's watch is 404.
 */
export function watchRoutes(runtime: Runtime): Route[] {
  const tag = '택배 조회';
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/delivery/watch',
      operationId: 'createDeliveryWatch',
      tag,
      summary: '배송 변경 알림(웹훅) 등록: 변경마다 X-Signature(HMAC-SHA256) 서명된 POST를 보냅니다',
      auth: 'either',
      right: 'keys',
      body: {
        schema: watchCreateSchema,
        example: { carrier_id: 'kr.cjlogistics', track_id: '1234-5678-9012', webhook_url: 'https://example.com/hooks/parcel' },
        validatedBy: 'core',
      },
      answers: {
        201: {
          description: '등록됨 (webhook_secret은 이 응답에서만 보입니다)',
          schema: ok({ watch: watchView, webhook_secret: z.string().optional(), remaining: z.number().int() }),
          example: { success: true, watch, webhook_secret: 'whsec_…', remaining: 998 },
          headers: RATE_LIMIT_HEADERS,
        },
      },
      errors: [
        subscriptionRequired('delivery-tracking', apiLabel('delivery-tracking')),
        duplicate(),
        tooManyWatches(),
        alreadyDelivered(),
        quotaExceeded('delivery-tracking', new Date('2026-11-30T15:00:00.000Z'), 721673, apiLabel('delivery-tracking')),
        trackerFailure('택배 조회 서버에 연결하지 못했습니다.'),
      ],
      handler: async (_input, req, res) => {
        const { output, remaining } = await runForRequest(runtime, runtime.watchOperation, req, res);
        res.setHeader('Cache-Control', 'no-store');
        return { success: true, watch: output.watch, webhook_secret: output.webhookSecret, remaining };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/delivery/watch',
      operationId: 'listDeliveryWatches',
      tag,
      summary: '내 배송 알림 목록',
      auth: 'either',
      right: 'read',
      answers: { 200: { description: '목록', schema: ok({ watches: z.array(watchView) }), example: { success: true, watches: [watch] } } },
      handler: async (_input, req) => ({ success: true, watches: await runtime.watches.list(accountOf(req).id) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/delivery/watch/:id',
      operationId: 'deleteDeliveryWatch',
      tag,
      summary: '배송 알림 해제',
      auth: 'either',
      right: 'keys',
      params: watchIdSchema,
      answers: { 200: { description: '해제됨', schema: ok({ id: z.number().int() }), example: { success: true, id: 12 } } },
      errors: [watchNotFound()],
      handler: async ({ params }, req) => {
        const removed = await runtime.watches.remove(accountOf(req).id, params);
        if (removed.length === 0) throw watchNotFound();
        return { success: true, id: params.id };
      },
    }),
  ];
}
