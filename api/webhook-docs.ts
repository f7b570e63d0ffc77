import { z } from 'zod';
import { WEBHOOK_EVENTS } from '../src/jobs/webhook-events.js';

/**
 * The OpenAPI 3.1 `webhooks` of parcel watches: what `POST webhook_url` carries per event, from
 * the same zod schemas the poller's payloads are typed by. Each is signed with `X-Signature`.
 */
export function webhookDocs(): Record<string, object> {
  return Object.fromEntries(
    WEBHOOK_EVENTS.map((event) => [
      event.name,
      {
        post: {
          // `delivery.updated` → `onDeliveryUpdated`: what a generated receiver's handler is called.
          operationId: `on${event.name.replace(/(^|\.)(\w)/g, (_whole, _dot: string, letter: string) => letter.toUpperCase())}`,
          tags: ['택배 조회'],
          summary: event.summary,
          description:
            '`X-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under webhook_secret>`. 2xx로 받음, 410이면 알림 종료.',
          parameters: [{ name: 'X-Signature', in: 'header', required: true, schema: { type: 'string' } }],
          requestBody: { required: true, content: { 'application/json': { schema: z.toJSONSchema(event.schema, { io: 'output' }) } } },
          responses: { '200': { description: '받음' }, '410': { description: '이 알림을 끝냄' } },
        },
      },
    ]),
  );
}
