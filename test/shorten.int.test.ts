import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

let app: TestApp;
let user: TestUser;
beforeAll(async () => {
  app = await startTestApp({ PUBLIC_BASE_URL: 'https://hub.example.kr' });
  user = await app.signUp();
});
afterAll(() => app.close());

const shorten = (body: unknown, key = user.apiKey) => app.post('/api/v1/url/shorten', body, key);
const codeOf = (shortUrl: string) => shortUrl.split('/').pop()!;

describe('POST /api/v1/url/shorten', () => {
  it('answers SPEC §8 shape with a five-character code under SHORT_URL_BASE', async () => {
    const res = await shorten({ url: 'https://www.example.com/page?q=1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, api: 'url-shortener', remaining: expect.any(Number) });
    expect(res.body.short_url).toMatch(/^https:\/\/hub\.example\.kr\/s\/[0-9A-Za-z]{5}$/);
    expect(res.headers.get('ratelimit')).toBe(`"monthly";r=${res.body.remaining};t=${res.headers.get('ratelimit')!.split('t=')[1]}`);
    expect(res.headers.get('ratelimit-policy')).toMatch(/^"monthly";q=1000;w=\d+$/);
  });

  it('gives the same account the same code for the same normalized URL, and counts each call', async () => {
    const first = await shorten({ url: 'https://EXAMPLE.com:443/a/./b/../c' });
    const second = await shorten({ url: 'https://example.com/a/c' });
    expect(second.body.short_url).toBe(first.body.short_url);
    expect(second.body.remaining).toBe(first.body.remaining - 1);
  });

  it('gives another account its own code for the same URL', async () => {
    const other = await app.signUp();
    const mine = await shorten({ url: 'https://example.com/shared' });
    const theirs = await shorten({ url: 'https://example.com/shared' }, other.apiKey);
    expect(theirs.body.short_url).not.toBe(mine.body.short_url);
  });

  it('refuses bad URLs with 400 naming url, free of charge', async () => {
    const before = (await shorten({ url: 'https://example.com/before' })).body.remaining;
    const cases: unknown[] = [
      {},
      { url: '' },
      { url: '   ' },
      { url: 'example.com' },
      { url: 'ftp://example.com/file' },
      { url: 'javascript:alert(1)' },
      { url: 'https://user:pass@example.com/' },
      { url: `https://example.com/${'a'.repeat(2048)}` },
      { url: 'https://hub.example.kr/s/abcde' },
      { url: 'http://' },
      { url: ['https://example.com'] },
      { url: 'https://example.com', check_harmful: 'yes' },
    ];
    for (const body of cases) {
      const res = await shorten(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 400, error_code: 'INVALID_REQUEST' });
      expect(res.body.field ?? 'check_harmful').toMatch(/url|check_harmful/);
      expect(res.body.error).toMatch(/[가-힣]/);
    }
    const after = (await shorten({ url: 'https://example.com/after' })).body.remaining;
    expect(after).toBe(before - 1);
  });

  it('accepts http and international domain names', async () => {
    const res = await shorten({ url: 'http://한국.kr/경로?검색=토토' });
    expect(res.status).toBe(200);
    const target = await app.get(`/s/${codeOf(res.body.short_url)}`);
    expect(target.headers.get('location')).toBe('http://xn--3e0b707e.kr/%EA%B2%BD%EB%A1%9C?%EA%B2%80%EC%83%89=%ED%86%A0%ED%86%A0');
  });
});

describe('check_harmful', () => {
  it('is 403 without a harmful-url-detection subscription, and the call is not charged', async () => {
    const fresh = await app.signUp();
    const res = await shorten({ url: 'https://example.com/x', check_harmful: true }, fresh.apiKey);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 403, error_code: 'SUBSCRIPTION_REQUIRED' });
    const usage = await app.get('/api/v1/usage', { 'x-api-key': fresh.apiKey });
    expect(usage.body.usage.find((row: any) => row.api === 'url-shortener').remaining).toBe(1000);
  });

  it('adds safety_check with the detection counter when the URL is safe', async () => {
    const subscriber = await app.signUp();
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, subscriber.apiKey);
    const res = await shorten({ url: 'https://example.com/safe', check_harmful: true }, subscriber.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.safety_check).toEqual({ is_malicious: false, category: 'safe', reason: expect.any(String), remaining: 999 });
    expect(res.body.remaining).toBe(999);
  });

  it('refuses a harmful URL with 422 in SPEC shape and creates no link', async () => {
    const subscriber = await app.signUp();
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, subscriber.apiKey);
    const res = await shorten({ url: 'http://192.168.0.1/admin', check_harmful: true }, subscriber.apiKey);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      success: false,
      code: 422,
      error_code: 'HARMFUL_URL',
      is_malicious: true,
      category: expect.any(String),
      reason: expect.any(String),
      remaining: 999,
    });
    const usage = await app.get('/api/v1/usage', { 'x-api-key': subscriber.apiKey });
    expect(usage.body.usage.find((row: any) => row.api === 'url-shortener').remaining).toBe(1000);
  });
});

describe('GET {short_url_base}/<code>', () => {
  it('redirects 302 with no-store and noindex, and records clicks for the owner', async () => {
    const link = await shorten({ url: 'https://example.com/landing' });
    const code = codeOf(link.body.short_url);
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
    const res = await app.get(`/s/${code}`, { 'user-agent': iphone, referer: 'https://news.naver.com/article/1' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/landing');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex');
    await app.get(`/s/${code}`, { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
    await app.get(`/s/${code}`, { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0' });

    const stats = await app.get(`/api/v1/url/shorten/${code}/stats`, { 'x-api-key': user.apiKey });
    expect(stats.status).toBe(200);
    expect(stats.body.clicks).toMatchObject({ total: 3, human: 2, bot: 1 });
    expect(stats.body.clicks.daily).toHaveLength(1);
    expect(stats.body.clicks.daily[0]).toMatchObject({ total: 3, human: 2, bot: 1, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });

    const other = await app.signUp();
    expect((await app.get(`/api/v1/url/shorten/${code}/stats`, { 'x-api-key': other.apiKey })).status).toBe(404);
    expect((await app.get(`/api/v1/url/shorten/${code}/stats`)).status).toBe(401);
  });

  it('answers an unknown code 404: JSON for clients, a Korean page for browsers', async () => {
    const json = await app.get('/s/ZZZZ9');
    expect(json.status).toBe(404);
    expect(json.body).toMatchObject({ success: false, code: 404, error_code: 'NOT_FOUND' });
    const html = await app.get('/s/ZZZZ9', { accept: 'text/html,application/xhtml+xml' });
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toContain('text/html');
    expect(html.body).toContain('링크를 찾을 수 없습니다');
    expect((await app.get('/s/toolong1')).status).toBe(404);
  });
});
