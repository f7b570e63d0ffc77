import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * Two instances on one PostgreSQL (two runtimes, each with its own connection pool, listener
 * and instance lock, as two processes would have). PGlite admits one process: skipped there.
 */
describe.skipIf(process.env.TEST_DB !== 'postgres')('two instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ DEFAULT_QUOTA: '50' });
    b = await startTestApp({ DEFAULT_QUOTA: '50' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('lets exactly 50 of 200 concurrent calls through a quota of 50, whichever instance answers', async () => {
    const user = await a.signUp();
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 ? a : b).post('/api/v1/url/shorten', { url: `https://example.com/both/${i}` }, user.apiKey),
      ),
    );
    const ok = responses.filter((res) => res.status === 200);
    expect(ok).toHaveLength(50);
    expect(responses.filter((res) => res.status === 429)).toHaveLength(150);
    expect(new Set(ok.map((res) => res.body.remaining))).toEqual(new Set(Array.from({ length: 50 }, (_, i) => i)));
    expect(await b.remaining(user.apiKey, 'url-shortener')).toBe(0);
  });

  it('stops a revoked key at once where it was revoked and, once told, on the other instance', async () => {
    const user = await a.signUp();
    const detect = (app: TestApp) => app.post('/api/v1/url/detect', { url: 'https://example.com/' }, user.apiKey);
    await a.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, user.apiKey);
    // Both instances have the key in their caches now.
    expect((await detect(a)).status).toBe(200);
    expect((await detect(b)).status).toBe(200);

    const keys = await a.get('/api/v1/keys', { authorization: `Bearer ${user.token}` });
    const revoked = await fetch(`${a.url}/api/v1/keys/${keys.body.keys[0].id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(revoked.status).toBe(200);
    expect((await detect(a)).status).toBe(401);

    // The cached key lives 5 minutes: refused well before that, the other instance was told
    // (NOTIFY), not waiting for its cache to age. No wall-clock bound (issue 33 item 9): on a
    // busy machine "within a second" measured the machine, not the notification.
    let status = 200;
    for (let attempt = 0; status !== 401 && attempt < 1500; attempt++) {
      status = (await detect(b)).status;
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(status).toBe(401);
  });
});
