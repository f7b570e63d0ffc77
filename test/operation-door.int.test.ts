import { apiLabel } from '../src/operations/catalog.js';
import { request } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../db/schema.js';
import { invalidJson, payloadTooLarge } from '../api/json-body.js';
import { missingKey } from '../api/middleware/auth.js';
import { operationBody } from '../api/response-schemas.js';
import { errorBody } from '../src/errors.js';
import { CATALOG, operationModule } from '../src/operations/catalog.js';
import type { ApiId } from '../src/platform/catalog.js';
import { subscriptionRequired } from '../src/platform/subscriptions.js';
import { startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';
import { ev, startFakeTracker, type FakeTracker } from './fakes/tracker-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { makeImageSet } from './helpers/id-images.js';

/**
 * The operation door (api/operation-door.ts) is the only door of the eight operations; express
 * answers every other route. Both render with the same pieces (api/http-answer.ts,
 * api/json-body.ts). For every operation × {200, 400, 401, 403, 413, 429, English}: the status,
 * the whole body (what the route declaration documents), and the header names in order — the
 * same as an express route with a key and a body (`POST /api/v1/delivery/watch`) answers the
 * same failure.
 */
const WATCH = '/api/v1/delivery/watch';
const REQUEST_ID = 'parity-1';

let app: TestApp;
let llm: FakeOpenAI;
let tracker: FakeTracker;
let user: TestUser;
let unsubscribed: TestUser;
let exhausted: TestUser;
const valid = {} as Record<ApiId, object>;

beforeAll(async () => {
  [llm, tracker] = await Promise.all([startFakeOpenAI(), startFakeTracker()]);
  app = await startTestApp({
    OPENAI_BASE_URL: llm.url,
    DELIVERY_TRACKER_URL: tracker.url,
    DELIVERY_TRACKER_CLIENT_ID: 'cid',
    DELIVERY_TRACKER_CLIENT_SECRET: 'csecret',
  });
  [user, unsubscribed, exhausted] = await Promise.all([app.signUp(), app.signUp(), app.signUp()]);
  for (const account of [user, exhausted])
    for (const api of CATALOG) await app.post('/api/v1/subscriptions', { api: api.id }, account.apiKey);
  await app.runtime.db.delete(subscriptions).where(eq(subscriptions.accountId, unsubscribed.accountId));
  await app.runtime.db.update(subscriptions).set({ remaining: 0 }).where(eq(subscriptions.accountId, exhausted.accountId));

  tracker.parcel('kr.cjlogistics', '123412341234', { events: [ev('2026-11-20T18:02:00+09:00', 'IN_TRANSIT', '간선상차', '곤지암Hub')] });
  const [card] = await makeImageSet(7, 'clean', 1, ['business']);
  Object.assign(valid, {
    'chatbot-rag': { action: 'list' },
    'tone-transformation': { text: '내일 회의는 3시입니다', target_tone: 'formal' },
    'harmful-url-detection': { url: 'https://casino-king.xyz/event' },
    'text-generation': { prompt: '회의 안내문' },
    'ocr-idcard': { base64_image: card!.image.toString('base64') },
    translation: { text: '내일 회의는 3시입니다', target_lang: 'en' },
    'delivery-tracking': { carrier_id: 'kr.cjlogistics', track_id: '123412341234' },
    'url-shortener': { url: 'https://example.com/a' },
  } satisfies Record<ApiId, object>);
}, 120_000);
afterAll(async () => {
  await app?.close();
  await Promise.all([llm?.close(), tracker?.close()]);
});

interface Raw {
  status: number;
  /** Header names in the order sent; the transport's own (Date, Connection, Keep-Alive) left out. */
  names: string[];
  headers: Record<string, string>;
  body: any;
}

/** One POST as sent on the wire; `declaredLength` claims a Content-Length without sending it (413 before reading). */
function post(path: string, payload: string, headers: Record<string, string>, declaredLength?: number): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${app.url}${path}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-request-id': REQUEST_ID,
          'content-length': String(declaredLength ?? Buffer.byteLength(payload)),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const transport = new Set(['date', 'connection', 'keep-alive']);
          const names = res.rawHeaders.filter((_, i) => i % 2 === 0).filter((name) => !transport.has(name.toLowerCase()));
          resolve({ status: res.statusCode!, names, headers: res.headers as Record<string, string>, body: JSON.parse(text) });
          if (declaredLength !== undefined) req.destroy();
        });
      },
    );
    req.on('error', (error) => (declaredLength === undefined ? reject(error) : undefined));
    if (declaredLength === undefined) req.end(payload);
    else req.write(payload);
  });
}

const SECURITY = ['Content-Security-Policy', 'X-Frame-Options', 'X-Content-Type-Options', 'Cross-Origin-Opener-Policy'];
const ERROR_HEAD = [...SECURITY, 'X-Request-Id', 'Vary', 'Content-Type', 'Content-Length'];

/** The cases both doors answer alike: each gives the request and the body the declaration documents. */
const SHARED_CASES = {
  '400 (bad JSON)': { payload: '{"url": ', key: true, english: false, status: 400, body: () => errorBody(invalidJson()) },
  '401': { payload: '{}', key: false, english: false, status: 401, body: () => errorBody(missingKey()) },
  English: { payload: '{}', key: false, english: true, status: 401, body: () => errorBody(missingKey(), 'en') },
};

describe.each(CATALOG.map((api) => [api.id, api.path] as const))('%s', (api, path) => {
  const key = () => ({ 'x-api-key': user.apiKey });

  it('200: the declared success body in its envelope, the quota headers, the request id echoed', { timeout: 60_000 }, async () => {
    if (api === 'translation') llm.chat({ content: 'The meeting is at 3 tomorrow.' });
    const res = await post(path, JSON.stringify(valid[api]), key());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(operationBody(operationModule(api)).parse(res.body)).toMatchObject({ success: true, api });
    expect(res.body.remaining).toBe(await app.remaining(user.apiKey, api));
    expect(res.names).toEqual([...SECURITY, 'X-Request-Id', 'RateLimit-Policy', 'RateLimit', 'Content-Type', 'Content-Length']);
    expect(res.headers['x-request-id']).toBe(REQUEST_ID);
    expect(res.headers['ratelimit']).toMatch(new RegExp(`^"monthly";r=${res.body.remaining};t=\\d+$`));
  });

  it.each(Object.entries(SHARED_CASES))('%s: as declared, and as an express route answers it', async (_case, spec) => {
    const headers = { ...(spec.key ? key() : {}), ...(spec.english ? { 'accept-language': 'en-US,en;q=0.9' } : {}) };
    const [door, express] = await Promise.all([post(path, spec.payload, headers), post(WATCH, spec.payload, headers)]);
    expect(door).toMatchObject({ status: spec.status, body: spec.body(), names: ERROR_HEAD });
    expect(door.headers['x-request-id']).toBe(REQUEST_ID);
    expect(express).toEqual({ ...door, headers: expect.anything() });
  });

  it('403: the subscription the route declares, free of charge', async () => {
    const res = await post(path, JSON.stringify(valid[api]), { 'x-api-key': unsubscribed.apiKey });
    expect(res).toMatchObject({ status: 403, body: errorBody(subscriptionRequired(api, apiLabel(api))), names: ERROR_HEAD });
  });

  it('413: a body over the declared limit, refused before it is read', async () => {
    const limitMb = api === 'ocr-idcard' || api === 'chatbot-rag' ? 15 : 1;
    const res = await post(path, '{"url":"', key(), limitMb * 1024 * 1024 + 1);
    expect(res).toMatchObject({ status: 413, body: errorBody(payloadTooLarge(limitMb * 1024 * 1024)), names: ERROR_HEAD });
    if (limitMb === 1)
      expect(await post(WATCH, '{"url":"', key(), limitMb * 1024 * 1024 + 1)).toEqual({ ...res, headers: expect.anything() });
  });

  it('429: used up, with Retry-After and RateLimit r=0', async () => {
    const res = await post(path, JSON.stringify(valid[api]), { 'x-api-key': exhausted.apiKey });
    expect(res).toMatchObject({ status: 429, body: { success: false, code: 429, error_code: 'QUOTA_EXCEEDED', remaining: 0 } });
    // The API named in words (`URL 단축`), not by its id.
    expect(res.body.error).toContain(`이번 달 ${apiLabel(api).ko} 호출 한도`);
    expect(res.body.error).not.toContain(api);
    expect(res.names).toEqual([...SECURITY, 'X-Request-Id', 'Retry-After', 'Vary', 'RateLimit', 'Content-Type', 'Content-Length']);
    expect(res.headers['ratelimit']).toBe(`"monthly";r=0;t=${res.headers['retry-after']}`);
  });
});
