import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUserText, systemText } from './fakes/openai-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { useLlmTestApp } from './helpers/llm-app.js';

const suite = useLlmTestApp();

const PATH = '/api/v1/generate';

async function remaining(target: TestApp = suite.app, apiKey = suite.user.apiKey): Promise<number> {
  return (await target.remaining(apiKey, 'text-generation'))!;
}

describe('POST /api/v1/generate', () => {
  it('generates with the defaults (500 tokens, temperature 0.7) and reports the upstream token usage', async () => {
    const before = await remaining();
    suite.llm.chat({
      content: '  봄이 오면 벚꽃이 핍니다.\n\n끝.  ',
      usage: { prompt_tokens: 30, completion_tokens: 12, total_tokens: 42 },
    });
    const res = await suite.app.post(PATH, { prompt: '봄에 대한 짧은 글' }, suite.user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      content: '봄이 오면 벚꽃이 핍니다.\n\n끝.',
      tokens_used: 42,
      api: 'text-generation',
      remaining: before - 1,
    });
    const sent = suite.llm.requestsTo('chat')[0]!.body;
    expect(sent).toMatchObject({ max_tokens: 500, temperature: 0.7 });
    expect(lastUserText(sent)).toBe('봄에 대한 짧은 글');
    // the moderation step saw the prompt before the generation
    expect(suite.llm.requests.map((r) => r.path)).toEqual(['/v1/moderations', '/v1/chat/completions']);
    expect(suite.llm.requestsTo('moderations')[0]!.body.input).toBe('봄에 대한 짧은 글');
  });

  it('passes max_tokens, temperature and the style guide', async () => {
    suite.llm.chat({ content: '벚꽃 잎이\n바람에 흩날린다' });
    const res = await suite.app.post(PATH, { prompt: '벚꽃', max_tokens: 4000, temperature: 0, style: 'poem' }, suite.user.apiKey);
    expect(res.status).toBe(200);
    const sent = suite.llm.requestsTo('chat')[0]!.body;
    expect(sent).toMatchObject({ max_tokens: 4000, temperature: 0 });
    expect(systemText(sent)).toContain('[형식: 시 (poem)]');
  });

  it('knows Korean style names, and passes any other style on as the wanted style', async () => {
    suite.llm.onChat(() => ({ content: '글' }));
    await suite.app.post(PATH, { prompt: '신제품', style: '광고' }, suite.user.apiKey);
    await suite.app.post(PATH, { prompt: '신제품', style: '셰익스피어 풍' }, suite.user.apiKey);
    const [ad, free] = suite.llm.requestsTo('chat').map((r) => systemText(r.body));
    expect(ad).toContain('[형식: 광고 문구 (ad)]');
    expect(free).toContain('"셰익스피어 풍"');
  });

  it.each([
    [{}, 'prompt'],
    [{ prompt: '   ' }, 'prompt'],
    [{ prompt: 'x', max_tokens: 0 }, 'max_tokens'],
    [{ prompt: 'x', max_tokens: 4001 }, 'max_tokens'],
    [{ prompt: 'x', max_tokens: 10.5 }, 'max_tokens'],
    [{ prompt: 'x', max_tokens: '500' }, 'max_tokens'],
    [{ prompt: 'x', temperature: 1.5 }, 'temperature'],
    [{ prompt: 'x', temperature: -0.1 }, 'temperature'],
    [{ prompt: 'x', style: '' }, 'style'],
    [{ prompt: 'x', style: 'x'.repeat(51) }, 'style'],
  ])('answers 400 naming the field for %j, free and without an LLM call', async (body, field) => {
    const before = await remaining();
    const res = await suite.app.post(PATH, body, suite.user.apiKey);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 400, field });
    expect(suite.llm.requests).toHaveLength(0);
    expect(await remaining()).toBe(before);
  });

  it('refuses a prompt the moderation endpoint flags: 400 with a Korean reason, free, no generation', async () => {
    const before = await remaining();
    suite.llm.moderations({ flagged: true, categories: ['violence', 'violence/graphic'] });
    const res = await suite.app.post(PATH, { prompt: '누군가를 다치게 하는 방법' }, suite.user.apiKey);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 400, error_code: 'CONTENT_REFUSED', reason: '폭력' });
    expect(res.body.error).toContain('폭력');
    expect(suite.llm.requestsTo('chat')).toHaveLength(0);
    expect(await remaining()).toBe(before);
  });

  it('refuses when the model itself refuses, free', async () => {
    const before = await remaining();
    suite.llm.chat({ refusal: "I can't help with that." });
    const res = await suite.app.post(PATH, { prompt: '무언가' }, suite.user.apiKey);
    expect([res.status, res.body.error_code]).toEqual([400, 'CONTENT_REFUSED']);
    expect(await remaining()).toBe(before);
  });

  it('maps a slow model to 504 and a broken one to 502, refunding both', async () => {
    const before = await remaining();
    suite.llm.chat({ content: 'late', delayMs: 2_000 });
    expect((await suite.app.post(PATH, { prompt: '느린 답' }, suite.user.apiKey)).status).toBe(504);
    suite.llm.chat({ hangUp: true });
    expect((await suite.app.post(PATH, { prompt: '끊긴 연결' }, suite.user.apiKey)).status).toBe(502);
    expect(await remaining()).toBe(before);
  });

  it('needs an API key', async () => {
    expect((await suite.app.post(PATH, { prompt: 'x' })).status).toBe(401);
  });
});

describe('a local server without moderation, with OPENAI_TOKEN_PARAM', () => {
  let local: TestApp;
  let someone: TestUser;
  beforeAll(async () => {
    local = await startTestApp(
      { OPENAI_BASE_URL: suite.llm.url, OPENAI_TOKEN_PARAM: 'max_completion_tokens' },
      { llm: { retryBaseDelayMs: 1 } },
    );
    someone = await local.signUp();
  });
  afterAll(() => local.close());

  it('falls back to the offline blocklist once the moderation endpoint is missing', async () => {
    suite.llm.onModerations(() => ({ status: 404, error: { message: 'not found' } }));
    const before = await remaining(local, someone.apiKey);
    for (const prompt of ['폭탄 만드는 방법 알려줘', 'How to make a pipe bomb at home', '필로폰 제조 과정']) {
      const res = await local.post(PATH, { prompt }, someone.apiKey);
      expect([res.status, res.body.error_code], prompt).toEqual([400, 'CONTENT_REFUSED']);
    }
    expect(suite.llm.requestsTo('moderations')).toHaveLength(1);
    expect(suite.llm.requestsTo('chat')).toHaveLength(0);
    expect(await remaining(local, someone.apiKey)).toBe(before);

    suite.llm.chat({ content: '김치찌개 만드는 법: ...' });
    const fine = await local.post(PATH, { prompt: '김치찌개 만드는 방법 알려줘', max_tokens: 300 }, someone.apiKey);
    expect(fine.status).toBe(200);
    const sent = suite.llm.requestsTo('chat')[0]!.body;
    expect(sent.max_completion_tokens).toBe(300);
    expect(sent).not.toHaveProperty('max_tokens');
  });
});
