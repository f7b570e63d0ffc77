import { request } from 'node:http';
import { eq } from 'drizzle-orm';
import { linkClicks, sessions, shortLinks } from '../db/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

/** #18: what an anonymous or hostile caller can make the HTTP door do. */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** Sends the headers and the first chunk of a large body, then waits for an answer without finishing it. */
function answerBeforeBody(path: string, headers: Record<string, string>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, app.url);
    const req = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(14_900_000), ...headers },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.write(`{"base64_image":"${'A'.repeat(64 * 1024)}`); // never ended
  });
}

describe('the API key is checked before the body is read', () => {
  it('answers 401 to a 15 MB upload without a key, or with a malformed or unknown one, before the upload ends', async () => {
    expect((await answerBeforeBody('/api/v1/ocr/idcard', {})).status).toBe(401);
    expect((await answerBeforeBody('/api/v1/ocr/idcard', { 'x-api-key': 'nonsense' })).status).toBe(401);
    const unknown = await answerBeforeBody('/api/v1/ocr/idcard', { 'x-api-key': `aik_${'a'.repeat(34)}` });
    expect(unknown).toMatchObject({ status: 401, body: { success: false, error_code: 'UNAUTHORIZED' } });
  });

  it('answers 401, not 400, to malformed JSON without a key', async () => {
    const res = await app.post('/api/v1/url/shorten', '{"url": ');
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: 401, error_code: 'UNAUTHORIZED' });
    const user = await app.signUp();
    const withKey = await app.post('/api/v1/url/shorten', '{"url": ', user.apiKey);
    expect(withKey).toMatchObject({ status: 400, body: { error_code: 'INVALID_JSON' } });
  });
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('small holes', () => {
  it('answers 404, not 500, to revoking a key id beyond any stored one', async () => {
    const user = await app.signUp();
    const res = await fetch(`${app.url}/api/v1/keys/9999999999`, { method: 'DELETE', headers: bearer(user.token) });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 404, error_code: 'NOT_FOUND' });
  });

  it('refuses short links to the service itself through loopback aliases and a trailing dot', async () => {
    const user = await app.signUp();
    const port = new URL(app.url).port;
    for (const url of [
      `http://127.0.0.1:${port}/s/abcde`,
      `http://[::1]:${port}/s/abcde`,
      `http://localhost.:${port}/s/abcde`,
      `http://LOCALHOST:${port}/s/abcde`,
      `http://127.1.2.3:${port}/s`,
      `http://[::ffff:127.0.0.1]:${port}/s/x`,
    ]) {
      const res = await app.post('/api/v1/url/shorten', { url }, user.apiKey);
      expect(res.status, url).toBe(400);
      expect(res.body).toMatchObject({ field: 'url' });
    }
    const elsewhere = await app.post('/api/v1/url/shorten', { url: `http://127.0.0.1:${port}/docs` }, user.apiKey);
    expect(elsewhere.status).toBe(200);
  });

  it('logs out: the token stops working at once', async () => {
    const user = await app.signUp();
    expect((await app.get('/api/v1/keys', bearer(user.token))).status).toBe(200);
    const out = await fetch(`${app.url}/api/v1/auth/logout`, { method: 'POST', headers: bearer(user.token) });
    expect(out.status).toBe(200);
    expect(await out.json()).toEqual({ success: true });
    expect((await app.get('/api/v1/keys', bearer(user.token))).status).toBe(401);
    const again = await fetch(`${app.url}/api/v1/auth/logout`, { method: 'POST', headers: bearer(user.token) });
    expect(again.status).toBe(401);
  });

  it('sends anti-framing, nosniff and content-security headers on the portal, the docs and the API', async () => {
    for (const path of ['/', '/docs', '/api/v1/catalog', '/nowhere']) {
      const res = await app.get(path);
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).not.toMatch(/script-src[^;]*unsafe-inline/);
    }
  });
});

describe('expired sessions', () => {
  it('are purged by housekeeping, and an account keeps at most 20 live ones', async () => {
    let now = new Date('2026-03-02T00:00:00Z');
    const timed = await startTestApp({}, { clock: () => now });
    try {
      const user = await timed.signUp();
      const count = async () => (await timed.runtime.db.select().from(sessions).where(eq(sessions.accountId, user.accountId))).length;
      // 25 live sessions already (written directly: 25 scrypt log-ins would be slow), then one more log-in.
      const [{ memberId }] = (await timed.runtime.db
        .select({ memberId: sessions.memberId })
        .from(sessions)
        .where(eq(sessions.accountId, user.accountId))) as [{ memberId: number }];
      const expiresAt = new Date(now.getTime() + 3600_000);
      await timed.runtime.db.insert(sessions).values(
        Array.from({ length: 25 }, (_, i) => ({
          accountId: user.accountId,
          memberId,
          tokenHash: `old-${user.accountId}-${i}`,
          expiresAt,
        })),
      );
      const login = await timed.post('/api/v1/auth/login', { email: user.email, password: user.password });
      expect(await count()).toBe(20);
      expect((await timed.get('/api/v1/keys', bearer(login.body.token))).status).toBe(200);

      now = new Date(now.getTime() + 25 * 3600_000);
      expect((await timed.get('/api/v1/keys', bearer(user.token))).status).toBe(401);
      const removed = await timed.runtime.housekeeping.run();
      expect(removed.sessions).toBeGreaterThanOrEqual(20);
      expect(await count()).toBe(0);
    } finally {
      await timed.close();
    }
  });
});

describe('click statistics under made-up referrers', () => {
  it('keep a bounded number of rows per link and hour, and exact totals', async () => {
    const user = await app.signUp();
    const shortened = await app.post('/api/v1/url/shorten', { url: `https://example.com/popular/${Date.now()}` }, user.apiKey);
    const code = shortened.body.code as string;
    const visits = 300;
    for (let i = 0; i < visits; i += 30) {
      await Promise.all(
        Array.from({ length: 30 }, (_, j) =>
          fetch(`${app.url}/s/${code}`, {
            redirect: 'manual',
            headers: { referer: `https://spam-${i + j}-${Math.random().toString(36).slice(2)}.example/`, 'user-agent': `bot-${i + j}` },
          }).then((res) => res.arrayBuffer()),
        ),
      );
    }
    const stats = await app.get(`/api/v1/url/shorten/${code}/stats`, { 'x-api-key': user.apiKey });
    expect(stats.body.clicks.total).toBe(visits);
    const [link] = await app.runtime.db.select().from(shortLinks).where(eq(shortLinks.code, code));
    const rows = await app.runtime.db.select().from(linkClicks).where(eq(linkClicks.linkId, link!.id));
    // 60 distinct rows per hour, plus the pooled row(s); a visit at an hour's turn may add one more budget.
    expect(rows.length).toBeLessThanOrEqual(2 * 60 + 4);
    expect(rows.some((row) => row.referrerHost === '(other)')).toBe(true);
  });
});
