import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBase62 } from '../src/platform/secrets.js';
import { startTestApp, type TestApp } from './helpers/app.js';

describe('quota under concurrency', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ DEFAULT_QUOTA: '50' });
  });
  afterAll(() => app.close());

  it('lets exactly 50 of 200 concurrent calls through a quota of 50', async () => {
    const user = await app.signUp();
    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, i) => app.post('/api/v1/url/shorten', { url: `https://example.com/${i}` }, user.apiKey)),
    );
    const ok = responses.filter((res) => res.status === 200);
    const limited = responses.filter((res) => res.status === 429);
    expect(ok).toHaveLength(50);
    expect(limited).toHaveLength(150);
    expect(new Set(ok.map((res) => res.body.remaining))).toEqual(new Set(Array.from({ length: 50 }, (_, i) => i)));

    const refused = limited[0]!;
    expect(refused.body).toMatchObject({ success: false, code: 429, error_code: 'QUOTA_EXCEEDED', remaining: 0 });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(31 * 86400);
    expect(refused.headers.get('ratelimit')).toBe(`"monthly";r=0;t=${retryAfter}`);

    const usage = await app.get('/api/v1/usage', { 'x-api-key': user.apiKey });
    expect(usage.body.usage.find((row: any) => row.api === 'url-shortener').remaining).toBe(0);
  });
});

describe('monthly renewal', () => {
  let app: TestApp;
  let now = new Date('2026-01-31T14:59:00Z'); // 23:59 on 31 January in Seoul
  beforeAll(async () => {
    app = await startTestApp({ DEFAULT_QUOTA: '2' }, { clock: () => now });
  });
  afterAll(() => app.close());

  it('renews an exhausted counter at midnight on the first, Asia/Seoul', async () => {
    const user = await app.signUp();
    const call = () => app.post('/api/v1/url/shorten', { url: 'https://example.com/renew' }, user.apiKey);
    expect((await call()).body.remaining).toBe(1);
    const last = await call();
    expect(last.body.remaining).toBe(0);
    // The reset is read from the service's clock, not the wall clock: one minute to midnight.
    expect(last.headers.get('ratelimit')).toBe('"monthly";r=0;t=60');
    const limited = await call();
    expect(limited.status).toBe(429);
    // The reset time as Koreans write it, in Korea's time; the policy window is January's 31 days.
    expect(limited.body.error).toBe('이번 달 URL 단축 호출 한도를 모두 썼습니다. 2026년 2월 1일(일) 00:00(한국 시간)에 다시 채워집니다.');
    expect(limited.headers.get('ratelimit')).toBe('"monthly";r=0;t=60');

    now = new Date('2026-01-31T15:00:00Z'); // 00:00 on 1 February in Seoul
    const renewed = await call();
    expect(renewed.status).toBe(200);
    expect(renewed.body.remaining).toBe(1);
    expect(renewed.headers.get('ratelimit-policy')).toBe(`"monthly";q=2;w=${28 * 86400}`); // February 2026
    const usage = await app.get('/api/v1/usage', { 'x-api-key': user.apiKey });
    expect(usage.body.usage.find((row: any) => row.api === 'url-shortener')).toEqual({
      api: 'url-shortener',
      subscribed: true,
      remaining: 1,
      renews_at: '2026-02-28T15:00:00.000Z',
      monthly_quota: 2,
    });
    // The calls per Seoul day of the renewed period (issue 35): the one answered since the 1st.
    expect(usage.body.daily).toEqual([{ day: '2026-02-01', api: 'url-shortener', calls: 1 }]);
  });
});

describe('short code collisions', () => {
  let app: TestApp;
  // Fresh codes per run: the PostgreSQL test database may keep links of earlier runs.
  const [taken, free] = [randomBase62(5), randomBase62(5)];
  const draws = [taken, taken, free];
  beforeAll(async () => {
    app = await startTestApp({}, { links: { generateCode: () => draws.shift() ?? 'ZZZZZ' } });
  });
  afterAll(() => app.close());

  it('retries with a new code when the drawn one is taken, never reusing a code', async () => {
    const user = await app.signUp();
    const first = await app.post('/api/v1/url/shorten', { url: 'https://example.com/one' }, user.apiKey);
    expect(first.body.short_url).toBe(`${app.runtime.config.SHORT_URL_BASE}/${taken}`);
    expect((await app.get(`/s/${free}`)).status).toBe(404); // remembered as a miss
    const second = await app.post('/api/v1/url/shorten', { url: 'https://example.com/two' }, user.apiKey);
    expect(second.body.short_url).toBe(`${app.runtime.config.SHORT_URL_BASE}/${free}`);
    expect(draws).toEqual([]); // the taken code was drawn twice, then the free one
    // The remembered miss for the free code is replaced by the new link at once.
    const redirect = await app.get(`/s/${free}`);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://example.com/two');
    expect((await app.get(`/s/${taken}`)).headers.get('location')).toBe('https://example.com/one');
  });

  it('inserts calls of one moment together: the same URL gets one code, a code drawn twice goes to one link only', async () => {
    const user = await app.signUp();
    const [twice, other] = [randomBase62(5), randomBase62(5)];
    draws.push(twice, twice, other, ...Array.from({ length: 8 }, () => randomBase62(5)));
    const urls = ['https://example.com/x', 'https://example.com/y', 'https://example.com/x', 'https://example.com/x'];
    const answers = await Promise.all(urls.map((url) => app.post('/api/v1/url/shorten', { url }, user.apiKey)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const codes = answers.map((answer) => answer.body.short_url.split('/').pop());
    expect(new Set([codes[0], codes[2], codes[3]]).size).toBe(1);
    expect(codes[1]).not.toBe(codes[0]);
    for (const [i, url] of urls.entries()) expect((await app.get(`/s/${codes[i]}`)).headers.get('location')).toBe(url);
  });
});
