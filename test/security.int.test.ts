import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryWatches, subscriptions } from '../db/schema.js';
import { CATALOG } from '../src/operations/catalog.js';
import type { ApiId } from '../src/platform/catalog.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

/**
 * The shared security table: every one of the eight APIs, with a valid body, refused the
 * same way before any work is done (no key, malformed key, revoked key, not subscribed,
 * quota exhausted), and another account's data answered 404.
 */
const VALID_BODY: Record<ApiId, unknown> = {
  'chatbot-rag': { action: 'list' },
  'tone-transformation': { text: '안녕하세요', target_tone: 'formal' },
  'harmful-url-detection': { url: 'https://example.com/' },
  'text-generation': { prompt: '회의 안내문' },
  'ocr-idcard': { base64_image: 'iVBORw0KGgo=' },
  translation: { text: '안녕하세요', target_lang: 'en' },
  'delivery-tracking': { carrier_id: 'kr.cjlogistics', track_id: '123412341234' },
  'url-shortener': { url: 'https://example.com/a' },
};

let app: TestApp;
let user: TestUser;
/** One account per refusal, shared by the eight APIs: each is refused before any state changes. */
let revoked: TestUser;
let unsubscribed: TestUser;
let exhausted: TestUser;

beforeAll(async () => {
  app = await startTestApp({ DEFAULT_QUOTA: '5' });
  [user, revoked, unsubscribed, exhausted] = await Promise.all([app.signUp(), app.signUp(), app.signUp(), app.signUp()]);
  const keys = await app.get('/api/v1/keys', { authorization: `Bearer ${revoked.token}` });
  const revoke = await fetch(`${app.url}/api/v1/keys/${keys.body.keys[0].id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${revoked.token}` },
  });
  expect(revoke.status).toBe(200);
  await app.runtime.db.delete(subscriptions).where(eq(subscriptions.accountId, unsubscribed.accountId));
  for (const api of CATALOG) await app.post('/api/v1/subscriptions', { api: api.id }, exhausted.apiKey);
  await app.runtime.db.update(subscriptions).set({ remaining: 0 }).where(eq(subscriptions.accountId, exhausted.accountId));
});
afterAll(async () => {
  await app?.close();
});

describe.each(CATALOG.map((api) => [api.id, api.path] as const))('%s', (api, path) => {
  it('refuses a missing, malformed or revoked key with 401', async () => {
    const missing = await app.post(path, VALID_BODY[api]);
    expect(missing).toMatchObject({ status: 401, body: { success: false, code: 401, error_code: 'UNAUTHORIZED' } });
    const malformed = await app.post(path, VALID_BODY[api], 'not-a-key');
    expect(malformed).toMatchObject({ status: 401, body: { error_code: 'UNAUTHORIZED', error: '유효하지 않은 API 키입니다.' } });
    expect(await app.post(path, VALID_BODY[api], revoked.apiKey)).toMatchObject({ status: 401, body: { error_code: 'UNAUTHORIZED' } });
  });

  it('refuses an account without the subscription with 403', async () => {
    const res = await app.post(path, VALID_BODY[api], unsubscribed.apiKey);
    expect(res).toMatchObject({ status: 403, body: { success: false, code: 403, error_code: 'SUBSCRIPTION_REQUIRED' } });
    expect(res.body.error).toContain(api);
  });

  it('answers 429 with RateLimit and Retry-After once the month is used up', async () => {
    const res = await app.post(path, VALID_BODY[api], exhausted.apiKey);
    expect(res).toMatchObject({ status: 429, body: { success: false, code: 429, error_code: 'QUOTA_EXCEEDED', remaining: 0 } });
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(res.headers.get('ratelimit')).toBe(`"monthly";r=0;t=${retryAfter}`);
    expect(await app.remaining(exhausted.apiKey, api)).toBe(0);
  });
});

describe("another account's data", () => {
  it('is 404: short-link statistics, knowledge entries, watches', async () => {
    const shortened = await app.post('/api/v1/url/shorten', { url: 'https://example.com/mine' }, user.apiKey);
    expect(shortened.status).toBe(200);
    const indexed = await app.post(
      '/api/v1/chatbot/rag',
      { action: 'index', content: '사내 와이파이 비밀번호는 총무팀에 문의하세요.' },
      user.apiKey,
    );
    expect(indexed.status).toBe(200);
    // The user's watch, written as its creation would leave it (creating one over HTTP looks the parcel up).
    const [watched] = await app.runtime.db
      .insert(deliveryWatches)
      .values({
        accountId: user.accountId,
        carrierId: 'kr.cjlogistics',
        trackId: '123412341234',
        targetKind: 'webhook',
        target: 'https://example.com/hook',
        nextPollAt: new Date(Date.now() + 3600_000),
        expiresAt: new Date(Date.now() + 30 * 24 * 3600_000),
      })
      .returning({ id: deliveryWatches.id });

    const stranger = await app.signUp();
    const stats = await app.get(`/api/v1/url/shorten/${shortened.body.code}/stats`, { 'x-api-key': stranger.apiKey });
    expect(stats).toMatchObject({ status: 404, body: { error_code: 'NOT_FOUND' } });
    const deleted = await app.post('/api/v1/chatbot/rag', { action: 'delete', id: indexed.body.id }, stranger.apiKey);
    expect(deleted).toMatchObject({ status: 404, body: { error_code: 'NOT_FOUND' } });
    const watch = await fetch(`${app.url}/api/v1/delivery/watch/${watched!.id}`, {
      method: 'DELETE',
      headers: { 'x-api-key': stranger.apiKey },
    });
    expect(watch.status).toBe(404);
    // The owner still sees all three.
    expect((await app.get(`/api/v1/url/shorten/${shortened.body.code}/stats`, { 'x-api-key': user.apiKey })).status).toBe(200);
    const listed = await app.post('/api/v1/chatbot/rag', { action: 'list' }, user.apiKey);
    expect(listed.body.knowledge_list.map((entry: { id: number }) => entry.id)).toContain(indexed.body.id);
    const watches = await app.get('/api/v1/delivery/watch', { 'x-api-key': user.apiKey });
    expect(watches.body.watches.map((entry: { id: number }) => entry.id)).toEqual([watched!.id]);
  });
});
