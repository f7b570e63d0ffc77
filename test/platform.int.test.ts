import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('sign-up and log-in', () => {
  it('registers, rejects a duplicate email (case-insensitive) and logs in', async () => {
    const email = `Mixed.${Date.now()}@Example.COM`;
    const created = await app.post('/api/v1/auth/register', { email, password: 'longenough' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ success: true, user: { id: expect.any(Number), email: email.toLowerCase() } });

    const again = await app.post('/api/v1/auth/register', { email: email.toLowerCase(), password: 'longenough' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, code: 409, error_code: 'EMAIL_TAKEN' });

    const login = await app.post('/api/v1/auth/login', { email, password: 'longenough' });
    expect(login.status).toBe(200);
    expect(login.body.token).toMatch(/^[\w-]{40,}$/);
    const expires = new Date(login.body.expires_at).getTime();
    expect(expires - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
  });

  it('answers 400 naming the field for bad sign-up input', async () => {
    const short = await app.post('/api/v1/auth/register', { email: 'a@b.co', password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ code: 400, error_code: 'INVALID_REQUEST', field: 'password' });
    expect(short.body.error).toContain('8자 이상');

    const noEmail = await app.post('/api/v1/auth/register', { password: 'longenough' });
    expect(noEmail.body).toMatchObject({ code: 400, field: 'email' });
    expect(noEmail.body.error).toContain('필수');

    const badEmail = await app.post('/api/v1/auth/register', { email: 'not-an-email', password: 'longenough' });
    expect(badEmail.body).toMatchObject({ code: 400, field: 'email' });
  });

  it('answers 401 for a wrong password and for an unknown email alike', async () => {
    const user = await app.signUp();
    const wrong = await app.post('/api/v1/auth/login', { email: user.email, password: 'wrong password' });
    const unknown = await app.post('/api/v1/auth/login', { email: 'nobody@example.com', password: 'whatever1' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error).toBe(unknown.body.error);
    // A short wrong password is a wrong password too: the sign-up length rule is not told.
    const short = await app.post('/api/v1/auth/login', { email: user.email, password: 'abc' });
    expect(short.status).toBe(401);
    expect(short.body).toMatchObject({ error_code: 'INVALID_CREDENTIALS', error: wrong.body.error });
    const empty = await app.post('/api/v1/auth/login', { email: user.email, password: '' });
    expect(empty.body).toMatchObject({ code: 400, field: 'password' });
  });
});

describe('API keys', () => {
  it('shows a key once, lists it by prefix only, and revokes it at once', async () => {
    const user = await app.signUp();
    const created = await app.post('/api/v1/keys', { name: '배포 서버' }, undefined);
    expect(created.status).toBe(401);

    const res = await fetch(`${app.url}/api/v1/keys`, {
      method: 'POST',
      headers: { ...bearer(user.token), 'content-type': 'application/json' },
      body: JSON.stringify({ name: '배포 서버' }),
    });
    const body = (await res.json()) as any;
    expect(res.status).toBe(201);
    expect(body.api_key).toMatch(/^aik_[0-9A-Za-z]{34}$/);
    expect(body.key).toMatchObject({ name: '배포 서버', prefix: body.api_key.slice(0, 10) });

    const list = await app.get('/api/v1/keys', bearer(user.token));
    expect(list.body.keys.map((k: any) => k.name)).toEqual(['배포 서버', 'test']);
    expect(JSON.stringify(list.body)).not.toContain(body.api_key);

    const use = await app.post('/api/v1/url/shorten', { url: 'https://example.com/k' }, body.api_key);
    expect(use.status).toBe(200);

    const revoke = await fetch(`${app.url}/api/v1/keys/${body.key.id}`, { method: 'DELETE', headers: bearer(user.token) });
    expect(revoke.status).toBe(200);
    const after = await app.post('/api/v1/url/shorten', { url: 'https://example.com/k' }, body.api_key);
    expect(after.status).toBe(401);
    expect(after.body.error_code).toBe('UNAUTHORIZED');
  });

  it("cannot revoke another account's key, and key endpoints need a login token", async () => {
    const owner = await app.signUp();
    const other = await app.signUp();
    const list = await app.get('/api/v1/keys', bearer(owner.token));
    const id = list.body.keys[0].id;
    const res = await fetch(`${app.url}/api/v1/keys/${id}`, { method: 'DELETE', headers: bearer(other.token) });
    expect(res.status).toBe(404);
    expect((await app.post('/api/v1/url/shorten', { url: 'https://example.com' }, owner.apiKey)).status).toBe(200);

    expect((await app.get('/api/v1/keys', { 'x-api-key': owner.apiKey })).status).toBe(401);
    expect((await app.get('/api/v1/keys', bearer('not-a-token'))).status).toBe(401);
  });

  it('rejects malformed, mistyped and unknown keys with 401', async () => {
    const user = await app.signUp();
    const flipped = user.apiKey.slice(0, -1) + (user.apiKey.endsWith('A') ? 'B' : 'A');
    for (const key of ['', 'nonsense', flipped, `aik_${'x'.repeat(34)}`]) {
      const res = await app.post('/api/v1/url/shorten', { url: 'https://example.com' }, key || undefined);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, code: 401, error_code: 'UNAUTHORIZED' });
    }
  });
});

describe('catalogue, subscriptions and usage', () => {
  it('lists the eight APIs with category, status and subscription need', async () => {
    const res = await app.get('/api/v1/catalog');
    expect(res.status).toBe(200);
    expect(res.body.apis.map((api: any) => api.id)).toEqual([
      'chatbot-rag',
      'tone-transformation',
      'harmful-url-detection',
      'text-generation',
      'ocr-idcard',
      'translation',
      'delivery-tracking',
      'url-shortener',
    ]);
    for (const api of res.body.apis) {
      expect(api).toMatchObject({ status: 'normal', path: expect.stringMatching(/^\/api\/v1\//), category: expect.any(String) });
      expect(api.requires_subscription).toBe(api.id === 'delivery-tracking' || api.id === 'harmful-url-detection');
      expect(api).toMatchObject({
        name_en: expect.any(String),
        description: expect.stringMatching(/[가-힣]/),
        description_en: expect.any(String),
      });
      expect(typeof api.available).toBe('boolean');
      expect(api.engine).toMatch(/^[a-z-]+(\+[a-z-]+)*$/);
    }
  });

  it('subscribes idempotently with a key or a token, and usage shows the counters', async () => {
    const user = await app.signUp();
    const before = await app.get('/api/v1/usage', { 'x-api-key': user.apiKey });
    const tracking = before.body.usage.find((row: any) => row.api === 'delivery-tracking');
    expect(tracking).toEqual({ api: 'delivery-tracking', subscribed: false, remaining: null, renews_at: null, monthly_quota: null });

    const first = await app.post('/api/v1/subscriptions', { api: 'delivery-tracking' }, user.apiKey);
    expect(first.status).toBe(201);
    expect(first.body.subscription).toMatchObject({ api: 'delivery-tracking', remaining: 1000 });
    // Counters renew at midnight on the first of the next month, Asia/Seoul (UTC+9).
    const renewsInSeoul = new Date(new Date(first.body.subscription.renews_at).getTime() + 9 * 3600_000);
    expect(renewsInSeoul.toISOString()).toMatch(/^\d{4}-\d{2}-01T00:00:00.000Z$/);
    expect(renewsInSeoul.getTime()).toBeGreaterThan(Date.now());

    const second = await fetch(`${app.url}/api/v1/subscriptions`, {
      method: 'POST',
      headers: { ...bearer(user.token), 'content-type': 'application/json' },
      body: JSON.stringify({ api: 'delivery-tracking' }),
    });
    expect(second.status).toBe(201);
    expect(((await second.json()) as any).subscription).toEqual(first.body.subscription);

    const unknown = await app.post('/api/v1/subscriptions', { api: 'weather' }, user.apiKey);
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('api');
    expect((await app.post('/api/v1/subscriptions', { api: 'translation' })).status).toBe(401);
  });
});

describe('errors of the HTTP door', () => {
  it('answers malformed JSON, unknown paths and oversize bodies in the contract shape', async () => {
    const user = await app.signUp();
    const malformed = await app.post('/api/v1/url/shorten', '{"url": ', user.apiKey);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ success: false, code: 400, error: expect.stringContaining('JSON'), error_code: 'INVALID_JSON' });

    const unknown = await app.get('/api/v1/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ success: false, code: 404, error_code: 'NOT_FOUND' });

    const big = await app.post('/api/v1/url/shorten', { url: 'https://example.com/', pad: 'x'.repeat(1_100_000) }, user.apiKey);
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ success: false, code: 413, error_code: 'PAYLOAD_TOO_LARGE' });

    const wrongType = await app.post('/api/v1/url/shorten', { url: 42 }, user.apiKey);
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.field).toBe('url');
  });

  it('lets the image route take a 10 MB image in Base64', async () => {
    const user = await app.signUp();
    const image = Buffer.alloc(10 * 1024 * 1024, 7).toString('base64');
    const res = await app.post('/api/v1/ocr/idcard', { base64_image: image }, user.apiKey);
    expect(res.status).not.toBe(413);
    const tooBig = await app.post('/api/v1/ocr/idcard', { base64_image: image + image }, user.apiKey);
    expect(tooBig.status).toBe(413);
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const given = await app.get('/api/v1/catalog', { 'x-request-id': 'trace-123' });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const made = await app.get('/api/v1/catalog', { 'x-request-id': 'bad id with spaces' });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers /healthz', async () => {
    const res = await app.get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });
});
