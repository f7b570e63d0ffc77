import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlListSources } from '../db/schema.js';
import { startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';
import type { ApiId } from '../src/platform/catalog.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { callOperation } from './helpers/typed-client.js';

const DETECT = '/api/v1/url/detect';
let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp({ DEFAULT_QUOTA: '50' });
  user = await app.signUp();
  await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, user.apiKey);
});
afterAll(async () => {
  // PostgreSQL outlives the run: leave no feeds behind for the next one.
  await app.runtime.db.delete(urlListSources).where(like(urlListSources.name, 'redirect-test-%'));
  await app.close();
});

async function remaining(apiKey: string, api: ApiId = 'harmful-url-detection'): Promise<number> {
  return (await app.remaining(apiKey, api))!;
}

describe('POST /api/v1/url/detect', () => {
  it('answers clean for a Naver search for 토토, with SPEC fields and the counter', async () => {
    const before = await remaining(user.apiKey);
    const res = await callOperation(app, 'harmful-url-detection', { url: 'https://search.naver.com/search.naver?query=토토' }, user.apiKey);
    if (!res.ok) throw new Error(`answered ${res.status}: ${res.body.error}`);
    // Typed from the route declaration: a field the declaration lacks would not compile here.
    expect(res.body.source).toBe('allowlist');
    expect(res.body).toEqual({
      success: true,
      is_malicious: false,
      category: 'clean',
      reason: '잘 알려진 공식 서비스(naver.com)의 주소입니다.',
      url: 'https://search.naver.com/search.naver?query=%ED%86%A0%ED%86%A0',
      source: 'allowlist',
      api: 'harmful-url-detection',
      remaining: before - 1,
    });
  });

  it.each([
    ['https://casino-king.xyz/event', 'gambling', /도박.*'casino'/],
    ['https://kakao-pay-verify.top/', 'phishing', /카카오의 공식 도메인이 아닌데/],
    ['http://cj-delivery.top/app.apk', 'malware', /APK/],
    ['https://yadong-19.net/', 'adult', /성인·음란/],
    ['https://card-cash.kr/카드깡', 'spam', /카드깡/],
  ])('classifies %s as %s with a Korean reason', async (url, category, reason) => {
    const res = await app.post(DETECT, { url }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, is_malicious: true, category, source: 'rules' });
    expect(res.body.reason).toMatch(reason);
  });

  it.each([
    [{}, '필수'],
    [{ url: '' }, 'URL을 입력하세요'],
    [{ url: 42 }, ''],
    [{ url: 'ftp://example.com/file' }, 'http:// 또는 https://'],
    [{ url: 'example.com' }, 'http:// 또는 https://'],
    [{ url: 'https://' }, 'http:// 또는 https://'],
    [{ url: `https://example.com/${'a'.repeat(2048)}` }, '2048자'],
  ])('answers 400 naming url for %j, free of charge', async (body, message) => {
    const before = await remaining(user.apiKey);
    const res = await app.post(DETECT, body, user.apiKey);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 400, error_code: 'INVALID_REQUEST', field: 'url' });
    expect(res.body.error).toContain(message);
    expect(await remaining(user.apiKey)).toBe(before);
  });

  it('answers 400 for malformed JSON', async () => {
    const res = await app.post(DETECT, '{"url": ', user.apiKey);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
  });

  it('answers 401 without a key or with a bad key', async () => {
    const none = await app.post(DETECT, { url: 'https://example.com/' });
    const bad = await app.post(DETECT, { url: 'https://example.com/' }, 'aik_not_a_real_key_000000000000000000');
    expect([none.status, bad.status]).toEqual([401, 401]);
    expect(none.body).toMatchObject({ success: false, code: 401 });
  });

  it('answers 403 without a harmful-url-detection subscription', async () => {
    const other = await app.signUp();
    const res = await app.post(DETECT, { url: 'https://example.com/' }, other.apiKey);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 403 });
  });
});

describe("the shortener's check_harmful uses the engine", () => {
  it('refuses a harmful URL with 422 and SPEC fields, and creates no link', async () => {
    const res = await app.post('/api/v1/url/shorten', { url: 'https://toto-verify.info/join', check_harmful: true }, user.apiKey);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      success: false,
      code: 422,
      is_malicious: true,
      category: 'gambling',
      remaining: await remaining(user.apiKey),
    });
    expect(res.body.reason).toContain("'toto'");
  });

  it('shortens a safe URL with safety_check carrying the detection counter', async () => {
    const res = await app.post('/api/v1/url/shorten', { url: 'https://www.korean-recipes.com/kimchi', check_harmful: true }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.safety_check).toEqual({
      is_malicious: false,
      category: 'safe',
      reason: '알려진 유해 신호가 발견되지 않았습니다.',
      remaining: await remaining(user.apiKey),
    });
  });
});

describe('redirect-time re-check of list hits', () => {
  it('shows a Korean warning page instead of redirecting once the target is on a list', async () => {
    const domain = `calm-lake-${Math.random().toString(36).slice(2, 8)}.com`;
    const short = await app.post('/api/v1/url/shorten', { url: `https://${domain}/promo` }, user.apiKey);
    const path = new URL(short.body.short_url).pathname;
    expect((await app.get(path)).status).toBe(302);

    // What `lists:update` does, with a one-entry feed served from memory.
    const { store, reload } = app.runtime.urlDetection;
    const results = await store.update(
      [{ name: `redirect-test-${domain}`, category: 'phishing', format: 'domains', url: 'http://feed.invalid/' }],
      {
        fetch: async () => new Response(`${domain}\n`),
      },
    );
    expect(results[0]?.ok).toBe(true);
    await reload();

    const page = await app.get(path, { accept: 'text/html' });
    expect(page.status).toBe(403);
    expect(page.headers.get('location')).toBeNull();
    expect(page.body).toContain('위험한 링크입니다 (피싱·사칭)');
    expect(page.body).toContain(`<code>https://${domain}/promo</code>`);
    const json = await app.get(path, { accept: 'application/json' });
    expect(json.body).toMatchObject({ success: false, code: 403, is_malicious: true, category: 'phishing' });
  });
});

describe('LLM second opinion for the uncertain middle', () => {
  let llm: FakeOpenAI;
  let aiApp: TestApp;
  let aiUser: TestUser;

  beforeAll(async () => {
    llm = await startFakeOpenAI();
    aiApp = await startTestApp({ OPENAI_BASE_URL: llm.url }, { llm: { retryBaseDelayMs: 1, maxRetries: 0 } });
    aiUser = await aiApp.signUp();
    await aiApp.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, aiUser.apiKey);
  });
  afterAll(async () => {
    await aiApp.close();
    await llm.close();
  });

  it('asks the LLM about an uncertain URL (text only) and takes its category', async () => {
    llm.reset();
    llm.chat({ json: { category: 'gambling', reason: '라스베이거스를 내세운 도박 사이트 주소 형태입니다.' } });
    const res = await aiApp.post(DETECT, { url: 'https://vegas-kr.online/' }, aiUser.apiKey);
    expect(res.body).toMatchObject({ is_malicious: true, category: 'gambling', source: 'llm' });
    expect(res.body.reason).toContain('라스베이거스');
    const sent = JSON.stringify(llm.requestsTo('chat')[0]?.body.messages);
    expect(sent).toContain('https://vegas-kr.online/');
    expect(sent).toContain('never visit');
  });

  it('lets the LLM clear an uncertain URL', async () => {
    llm.reset();
    llm.chat({ json: { category: 'clean', reason: '평범한 개인 사이트로 보입니다.' } });
    const res = await aiApp.post(DETECT, { url: 'https://av19.kr/' }, aiUser.apiKey);
    expect(res.body).toMatchObject({ is_malicious: false, category: 'clean', source: 'llm' });
  });

  it('never asks about list hits or clear verdicts', async () => {
    llm.reset();
    await aiApp.post(DETECT, { url: 'https://www.pornhub.com/' }, aiUser.apiKey);
    await aiApp.post(DETECT, { url: 'https://casino-king.xyz/' }, aiUser.apiKey);
    await aiApp.post(DETECT, { url: 'https://www.korean-recipes.com/' }, aiUser.apiKey);
    expect(llm.requestsTo('chat')).toHaveLength(0);
  });

  it("keeps the rules' verdict when the LLM fails", async () => {
    llm.reset();
    llm.chat({ status: 500 });
    const res = await aiApp.post(DETECT, { url: 'https://x8k2q9z7wv3.top/' }, aiUser.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_malicious: false, category: 'clean', source: 'rules' });
  });
});
