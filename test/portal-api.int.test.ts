import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyErrors } from '../db/schema.js';
import { KEY_ERRORS_KEPT } from '../src/platform/usage-store.js';
import { startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

/**
 * Issue 35 over HTTP: usage per day, the last refused calls per key, a key's name, expiry and
 * rotation, the operator's view, Korean names of tones and languages, and the small things
 * (blank passwords, 405 with Allow, form and `null` bodies, favicon, docs, CORS).
 * One app with a clock the tests move (Seoul noon on 10 November 2026 to start).
 */
let now = new Date('2026-11-10T03:00:00Z');
let app: TestApp;
let llm: FakeOpenAI;
const OPERATOR = { email: 'ops@example.com', password: 'operator password' };

beforeAll(async () => {
  llm = await startFakeOpenAI();
  app = await startTestApp(
    { DEFAULT_QUOTA: '3', ADMIN_EMAILS: `someone@else.kr, ${OPERATOR.email.toUpperCase()}`, OPENAI_BASE_URL: llm.url },
    { clock: () => now, llm: { retryBaseDelayMs: 1 } },
  );
});
afterAll(async () => {
  await app?.close();
  await llm?.close();
});

const bearer = (user: { token: string }) => ({ authorization: `Bearer ${user.token}` });

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(app.url + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

const shorten = (user: TestUser, url: string, key = user.apiKey) => app.post('/api/v1/url/shorten', { url }, key);

describe('GET /api/v1/usage?from=&to= (issue 35 item 2)', () => {
  it('gives answered calls per API and Seoul day, the current period by default, beside remaining and renewal', async () => {
    now = new Date('2026-11-10T03:00:00Z');
    const user = await app.signUp();
    expect((await shorten(user, 'https://example.com/a')).status).toBe(200);
    expect((await shorten(user, 'https://example.com/b')).status).toBe(200);
    // 23:30 in Seoul is still the 10th there; 00:30 on the 11th in Seoul is the next day.
    now = new Date('2026-11-10T14:30:00Z');
    const refused = await shorten(user, 'not a url');
    expect(refused.status).toBe(400); // refused calls cost nothing and are not counted
    now = new Date('2026-11-10T15:30:00Z');
    expect((await shorten(user, 'https://example.com/c')).status).toBe(200);

    const usage = await app.get('/api/v1/usage', bearer(user));
    expect(usage.status).toBe(200);
    expect(usage.body.from).toBe('2026-11-01');
    expect(usage.body.to).toBe('2026-11-11');
    expect(usage.body.daily).toEqual([
      { day: '2026-11-10', api: 'url-shortener', calls: 2 },
      { day: '2026-11-11', api: 'url-shortener', calls: 1 },
    ]);
    const row = usage.body.usage.find((entry: { api: string }) => entry.api === 'url-shortener');
    expect(row).toEqual({ api: 'url-shortener', subscribed: true, remaining: 0, renews_at: '2026-11-30T15:00:00.000Z', monthly_quota: 3 });

    // The same numbers with the API key, for one chosen day.
    const oneDay = await app.get('/api/v1/usage?from=2026-11-11&to=2026-11-11', { 'x-api-key': user.apiKey });
    expect(oneDay.body.daily).toEqual([{ day: '2026-11-11', api: 'url-shortener', calls: 1 }]);
  });

  it('refuses a bad date, a reversed range and a range over 366 days, naming the parameter', async () => {
    const user = await app.signUp();
    const bad = await app.get('/api/v1/usage?from=2026-13-01', bearer(user));
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error_code: 'INVALID_REQUEST', field: 'from' });
    expect(bad.body.error).toContain('YYYY-MM-DD');
    const reversed = await app.get('/api/v1/usage?from=2026-11-05&to=2026-11-01', bearer(user));
    expect(reversed.body).toMatchObject({ code: 400, field: 'from', error: 'from은 to보다 늦을 수 없습니다.' });
    const long = await app.get('/api/v1/usage?from=2025-01-01&to=2026-11-01', bearer(user));
    expect(long.body).toMatchObject({ code: 400, field: 'to' });
  });

  it('is documented in OpenAPI with from/to query parameters and the per-day list', async () => {
    const doc = (await app.get('/openapi.json')).body;
    const operation = doc.paths['/api/v1/usage'].get;
    expect(operation.parameters.map((p: { name: string; in: string; required: boolean }) => [p.name, p.in, p.required])).toEqual([
      ['from', 'query', false],
      ['to', 'query', false],
    ]);
    expect(Object.keys(operation.responses['200'].content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['usage', 'from', 'to', 'daily']),
    );
  });
});

describe('the last refused calls of each key (issue 35 item 2)', () => {
  it('keeps status, error code and time per key, never the body, and at most KEY_ERRORS_KEPT', async () => {
    now = new Date('2026-11-12T01:00:00Z');
    const user = await app.signUp();
    await shorten(user, 'ftp://secret-target.example/private');
    for (let i = 0; i < 3; i++) await shorten(user, `https://example.com/${i}`);
    const quota = await shorten(user, 'https://example.com/over');
    expect(quota.status).toBe(429);

    const listed = await app.get('/api/v1/keys/errors', bearer(user));
    expect(listed.status).toBe(200);
    const keyId = (await app.get('/api/v1/keys', bearer(user))).body.keys[0].id;
    expect(listed.body.errors).toEqual([
      { key_id: keyId, api: 'url-shortener', status: 429, error_code: 'QUOTA_EXCEEDED', at: '2026-11-12T01:00:00.000Z' },
      { key_id: keyId, api: 'url-shortener', status: 400, error_code: 'INVALID_REQUEST', at: '2026-11-12T01:00:00.000Z' },
    ]);
    // Nothing of the request is stored: the rows hold no URL, no message.
    const rows = await app.runtime.db.select().from(keyErrors).where(eq(keyErrors.keyId, keyId));
    expect(JSON.stringify(rows)).not.toContain('secret-target');

    for (let i = 0; i < KEY_ERRORS_KEPT + 5; i++) await shorten(user, `not a url ${i}`);
    await app.runtime.platform.usageLog.flush();
    expect(await app.runtime.db.select().from(keyErrors).where(eq(keyErrors.keyId, keyId))).toHaveLength(KEY_ERRORS_KEPT);
    // A refusal on an express route called with the key counts too (no API charged: api null).
    expect((await app.get('/api/v1/url/shorten/zzzzz/stats', { 'x-api-key': user.apiKey })).status).toBe(404);
    const [newest] = (await app.get('/api/v1/keys/errors', bearer(user))).body.errors;
    expect(newest).toEqual({ key_id: keyId, api: null, status: 404, error_code: 'NOT_FOUND', at: '2026-11-12T01:00:00.000Z' });
    // Another account sees none of them.
    const other = await app.signUp();
    expect((await app.get('/api/v1/keys/errors', bearer(other))).body.errors).toEqual([]);
  });
});

describe("a key's name, expiry and rotation (issue 35 item 2)", () => {
  it('renames a key and sets an expiry; an expired key is refused and no longer listed', async () => {
    now = new Date('2026-11-13T01:00:00Z');
    const user = await app.signUp();
    const [key] = (await app.get('/api/v1/keys', bearer(user))).body.keys;
    const renamed = await send('PATCH', `/api/v1/keys/${key.id}`, { name: '배포 서버', expires_at: '2026-11-14' }, bearer(user));
    expect(renamed.status).toBe(200);
    // A date is the end of that day in Korea.
    expect(renamed.body.key).toMatchObject({ id: key.id, name: '배포 서버', expires_at: '2026-11-14T14:59:59.999Z' });
    expect((await shorten(user, 'https://example.com/before')).status).toBe(200);

    const past = await send('PATCH', `/api/v1/keys/${key.id}`, { expires_at: '2026-11-01' }, bearer(user));
    expect(past.body).toMatchObject({ code: 400, error: 'expires_at은 지금보다 뒤의 시각이어야 합니다.' });
    const nothing = await send('PATCH', `/api/v1/keys/${key.id}`, {}, bearer(user));
    expect(nothing.status).toBe(400);

    now = new Date('2026-11-14T15:00:00Z');
    expect((await shorten(user, 'https://example.com/after')).status).toBe(401);
    const fresh = await app.post('/api/v1/auth/login', { email: user.email, password: user.password });
    expect((await app.get('/api/v1/keys', bearer(fresh.body))).body.keys).toEqual([]);
  });

  it('creates a key with an expiry, and refuses one in the past', async () => {
    now = new Date('2026-11-15T01:00:00Z');
    const user = await app.signUp();
    const created = await app.post('/api/v1/keys', { name: 'ci', expires_at: '2026-12-01T00:00:00Z' }, undefined);
    expect(created.status).toBe(401);
    const res = await send('POST', '/api/v1/keys', { name: 'ci', expires_at: '2026-12-01T00:00:00Z' }, bearer(user));
    expect(res.body.key).toMatchObject({ name: 'ci', expires_at: '2026-12-01T00:00:00.000Z' });
    const past = await send('POST', '/api/v1/keys', { expires_at: '2026-11-01' }, bearer(user));
    expect(past.status).toBe(400);
  });

  it('rotates: the new key works at once, the old one until its grace period ends', async () => {
    now = new Date('2026-11-16T01:00:00Z');
    const user = await app.signUp();
    const [old] = (await app.get('/api/v1/keys', bearer(user))).body.keys;
    const rotated = await send('POST', `/api/v1/keys/${old.id}/rotate`, { grace_hours: 2 }, bearer(user));
    expect(rotated.status).toBe(201);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    expect(rotated.body.api_key).toMatch(/^aik_/);
    expect(rotated.body.key).toMatchObject({ name: old.name, expires_at: null });
    expect(rotated.body.previous).toMatchObject({ id: old.id, expires_at: '2026-11-16T03:00:00.000Z' });
    expect((await shorten(user, 'https://example.com/old', user.apiKey)).status).toBe(200);
    expect((await shorten(user, 'https://example.com/new', rotated.body.api_key)).status).toBe(200);
    // Last use on the service's clock, as every time it keeps (written in the background).
    const lastUsed = async () =>
      (await app.get('/api/v1/keys', bearer(user))).body.keys.find((key: { id: number }) => key.id === rotated.body.key.id)?.last_used_at;
    await expect.poll(lastUsed).toBe('2026-11-16T01:00:00.000Z');

    now = new Date('2026-11-16T03:00:01Z');
    expect((await shorten(user, 'https://example.com/old2', user.apiKey)).status).toBe(401);
    expect((await shorten(user, 'https://example.com/new2', rotated.body.api_key)).status).toBe(200);
    // A key rotated away (expired) cannot be rotated again; someone else's key is not found.
    expect((await send('POST', `/api/v1/keys/${old.id}/rotate`, {}, bearer(user))).status).toBe(404);
    const other = await app.signUp();
    expect((await send('POST', `/api/v1/keys/${rotated.body.key.id}/rotate`, {}, bearer(other))).status).toBe(404);
    const badGrace = await send('POST', `/api/v1/keys/${rotated.body.key.id}/rotate`, { grace_hours: 10_000 }, bearer(user));
    expect(badGrace.body).toMatchObject({ code: 400, field: 'grace_hours' });
  });
});

describe('operator detail only for ADMIN_EMAILS (issue 35 item 1)', () => {
  it('tells the portal who is an operator, and answers the operator view only to them', async () => {
    const customer = await app.signUp();
    expect((await app.get('/api/v1/account', bearer(customer))).body.user).toMatchObject({ email: customer.email, operator: false });
    const refused = await app.get('/api/v1/operator/status', bearer(customer));
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe('FORBIDDEN');

    await app.post('/api/v1/auth/register', OPERATOR);
    const login = await app.post('/api/v1/auth/login', OPERATOR);
    expect((await app.get('/api/v1/account', bearer(login.body))).body.user.operator).toBe(true);
    const status = await app.get('/api/v1/operator/status', bearer(login.body));
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({
      llm: { on: true, host: new URL(llm.url).host, model: 'gpt-4o-mini' },
      tracker: { host: 'apis.tracker.delivery', hosted: true, credentials: false, usable: false },
      chat: { slack: false, discord: false },
    });
  });

  it('marks delivery-tracking unavailable in the catalogue, in customer words, when the hosted tracker has no credentials', async () => {
    const catalog = (await app.get('/api/v1/catalog')).body.apis;
    const delivery = catalog.find((api: { id: string }) => api.id === 'delivery-tracking');
    expect(delivery).toMatchObject({ status: 'normal', available: false, unavailable_reason: '택배 조회 서비스에 접속할 권한이 없습니다' });
    expect(JSON.stringify(catalog)).not.toMatch(/OPENAI_|DELIVERY_TRACKER_/);
  });
});

describe('Korean names where users type them (issue 35 item 4)', () => {
  it('takes 해요체 as target_tone and answers the code', async () => {
    const user = await app.signUp();
    llm.chat({ content: '내일 회의는 몇 시예요?' });
    const res = await app.post('/api/v1/tone/transform', { text: '내일 회의 몇 시야?', target_tone: '해요체' }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.target_tone).toBe('casual');
    llm.chat({ content: '뭐냐, 내일 회의 몇 시냐.' });
    expect((await app.post('/api/v1/tone/transform', { text: '회의 몇 시?', target_tone: '느와르' }, user.apiKey)).body.target_tone).toBe(
      'thug',
    );
    const unknown = await app.post('/api/v1/tone/transform', { text: '안녕', target_tone: '사투리' }, user.apiKey);
    expect(unknown.body).toMatchObject({ code: 400, field: 'target_tone' });
    expect(unknown.body.error).toContain('casual(해요체)');
  });

  it('takes 한국어/영 as languages and answers the codes', async () => {
    const user = await app.signUp();
    llm.chat({ content: 'Good morning' });
    const res = await app.post('/api/v1/translate', { text: '좋은 아침입니다', source_lang: '한국어', target_lang: '영' }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ translated: 'Good morning', source_lang: 'ko', target_lang: 'en' });
    llm.chat({ content: 'おはようございます' });
    expect((await app.post('/api/v1/translate', { text: '좋은 아침', target_lang: '일본어' }, user.apiKey)).body.target_lang).toBe('ja');
  });
});

describe('small things a user notices (issue 35 item 7)', () => {
  it('refuses a password of eight spaces', async () => {
    const res = await app.post('/api/v1/auth/register', { email: 'blank@example.com', password: '        ' });
    expect(res.body).toMatchObject({
      code: 400,
      field: 'password',
      error: "'password' 필드: 비밀번호는 공백을 빼고 8자 이상이어야 합니다.",
    });
  });

  it('answers GET on a POST-only route 405 with Allow, on the operation door and on express routes', async () => {
    for (const path of ['/api/v1/url/shorten', '/api/v1/tone/transform', '/api/v1/url/scan', '/api/v1/auth/login']) {
      const res = await send('GET', path);
      expect(res.status, path).toBe(405);
      expect(res.headers.get('allow'), path).toBe('POST');
      expect(res.body).toMatchObject({ success: false, code: 405, error_code: 'METHOD_NOT_ALLOWED' });
      expect(res.body.error).toContain('GET 요청을 받지 않습니다');
    }
    const keys = await send('PUT', '/api/v1/keys');
    expect(keys.status).toBe(405);
    expect(keys.headers.get('allow')).toBe('POST, GET, HEAD');
    expect((await send('GET', '/api/v1/nothing-here')).status).toBe(404);
  });

  it('tells a form-encoded body to send application/json, and a null body that it must be an object (both doors)', async () => {
    const user = await app.signUp();
    for (const [path, headers] of [
      ['/api/v1/url/shorten', { 'x-api-key': user.apiKey }],
      ['/api/v1/auth/login', {}],
    ] as const) {
      const form = await send('POST', path, 'url=https%3A%2F%2Fexample.com', {
        ...headers,
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(form.status, path).toBe(400);
      expect(form.body.error, path).toContain('Content-Type: application/json');
      const nothing = await send('POST', path, 'null', headers);
      expect(nothing.status, path).toBe(400);
      expect(nothing.body.error, path).toContain('본문은 JSON 객체여야 합니다');
    }
    // curl -d '{…}' sends JSON labelled as a form: it is still read.
    const curlish = await send('POST', '/api/v1/url/shorten', JSON.stringify({ url: 'https://example.com/curl' }), {
      'x-api-key': user.apiKey,
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(curlish.status).toBe(200);
  });

  it('serves /favicon.ico, and /docs links back to the portal with tags in one language', async () => {
    const icon = await fetch(`${app.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toMatch(/icon/);
    expect(Buffer.from(await icon.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    const docs = await (await fetch(`${app.url}/docs`)).text();
    expect(docs).toContain('<a href="/"');
    const doc = (await app.get('/openapi.json')).body;
    const tags = new Set<string>();
    for (const item of Object.values<any>(doc.paths)) for (const operation of Object.values<any>(item)) tags.add(operation.tags[0]);
    expect([...tags].filter((tag) => !/[가-힣]/.test(tag))).toEqual([]);
  });

  it('sends no CORS headers by default', async () => {
    const res = await fetch(`${app.url}/api/v1/catalog`, { headers: { origin: 'https://app.example.kr' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${app.url}/api/v1/url/shorten`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.kr', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS_ORIGINS (issue 35 item 7)', () => {
  let cors: TestApp;
  beforeAll(async () => {
    cors = await startTestApp({ CORS_ORIGINS: 'https://app.example.kr' });
  });
  afterAll(async () => cors?.close());

  it('answers the preflight and the call of a listed origin, and nothing to another', async () => {
    const user = await cors.signUp();
    const preflight = await fetch(`${cors.url}/api/v1/url/shorten`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.kr', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.kr');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('X-API-Key');
    const call = await fetch(`${cors.url}/api/v1/url/shorten`, {
      method: 'POST',
      headers: { origin: 'https://app.example.kr', 'x-api-key': user.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/cors' }),
    });
    expect(call.status).toBe(200);
    expect(call.headers.get('access-control-allow-origin')).toBe('https://app.example.kr');
    expect(call.headers.get('access-control-expose-headers')).toContain('RateLimit');
    const other = await fetch(`${cors.url}/api/v1/catalog`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});
