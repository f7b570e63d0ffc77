import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUserText, systemText } from './fakes/openai-server.js';
import { useLlmTestApp } from './helpers/llm-app.js';

const suite = useLlmTestApp();

const PATH = '/api/v1/translate';

async function remaining(): Promise<number> {
  return (await suite.app.remaining(suite.user.apiKey, 'translation'))!;
}

describe('POST /api/v1/translate', () => {
  it('detects the source language and answers the translation', async () => {
    const before = await remaining();
    suite.llm.chat({ content: 'The meeting starts at 3 pm tomorrow.' });
    const res = await suite.app.post(PATH, { text: '내일 회의는 오후 3시에 시작합니다.', target_lang: 'en' }, suite.user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      translated: 'The meeting starts at 3 pm tomorrow.',
      source_lang: 'ko',
      target_lang: 'en',
      api: 'translation',
      remaining: before - 1,
    });
    const sent = suite.llm.requestsTo('chat')[0]!.body;
    expect(systemText(sent)).toContain('from Korean to English');
    expect(lastUserText(sent)).toBe('내일 회의는 오후 3시에 시작합니다.');
    expect(await remaining()).toBe(before - 1);
  });

  it.each([
    ['明日の会議は3時からです。', 'ja'],
    ['明天的会议三点开始。', 'zh'],
    ['See you tomorrow!', 'en'],
  ])('reports the detected source of %s as %s', async (text, expected) => {
    suite.llm.chat({ content: '내일 봐요!' });
    const res = await suite.app.post(PATH, { text, source_lang: 'auto', target_lang: 'ko' }, suite.user.apiKey);
    expect(res.body.source_lang).toBe(expected);
    expect(systemText(suite.llm.requestsTo('chat')[0]!.body)).toContain('해요체');
  });

  it('uses the source language the caller gives, case-insensitively', async () => {
    suite.llm.chat({ content: '你好' });
    const res = await suite.app.post(PATH, { text: 'Hola', source_lang: 'EN', target_lang: 'ZH' }, suite.user.apiKey);
    expect(res.body).toMatchObject({ translated: '你好', source_lang: 'en', target_lang: 'zh' });
    expect(systemText(suite.llm.requestsTo('chat')[0]!.body)).toContain('from English to Simplified Chinese');
  });

  it('returns text already in the target language unchanged, without an LLM call and without a charge', async () => {
    const before = await remaining();
    const text = '이미 한국어예요.\n그대로 돌려줘요.';
    const detected = await suite.app.post(PATH, { text, target_lang: 'ko' }, suite.user.apiKey);
    expect(detected.body).toEqual({
      success: true,
      translated: text,
      source_lang: 'ko',
      target_lang: 'ko',
      api: 'translation',
      remaining: before,
    });
    const explicit = await suite.app.post(PATH, { text: 'Same', source_lang: 'en', target_lang: 'en' }, suite.user.apiKey);
    expect(explicit.body).toMatchObject({ translated: 'Same', source_lang: 'en', target_lang: 'en', remaining: before });
    expect(explicit.headers.get('ratelimit')).toContain(`r=${before};`);
    expect(suite.llm.requests).toHaveLength(0);
    expect(await remaining()).toBe(before);
  });

  it('translates a long text piece by piece on sentence boundaries and keeps its line breaks', async () => {
    suite.llm.onChat((req) => ({ content: `[EN] ${lastUserText(req.body)}` }));
    const paragraph = '첫 번째 문장입니다. 두 번째 문장은 조금 더 길게 써 봅니다! 세 번째 문장은 질문인가요?';
    const text = Array.from({ length: 30 }, (_, i) => `${i + 1}. ${paragraph}`).join('\n\n') + '\n- https://example.com/a?b=1';
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text.length).toBeGreaterThan(1500);
    const res = await suite.app.post(PATH, { text, target_lang: 'en' }, suite.user.apiKey);
    expect(res.status).toBe(200);
    const calls = suite.llm.requestsTo('chat');
    expect(calls.length).toBeGreaterThan(1);
    const sentPieces = calls.map((call) => lastUserText(call.body));
    for (const piece of sentPieces) {
      expect(piece.length).toBeLessThanOrEqual(1500);
      expect(piece.trimEnd()).toMatch(/[.!?]$|b=1$/); // never cut mid-sentence
    }
    expect(systemText(calls[0]!.body)).toContain(`part 1 of ${calls.length}`);
    // reassembled in order, with the original line breaks between the pieces
    expect(res.body.translated.split('\n').length).toBe(text.split('\n').length);
    expect(res.body.translated.replaceAll('[EN] ', '')).toBe(text);
  });

  it.each([
    [{ text: '가'.repeat(3001), target_lang: 'en' }, 'text'],
    [{ text: '', target_lang: 'en' }, 'text'],
    [{ target_lang: 'en' }, 'text'],
    [{ text: '안녕' }, 'target_lang'],
    [{ text: '안녕', target_lang: 'fr' }, 'target_lang'],
    [{ text: '안녕', target_lang: 'auto' }, 'target_lang'],
    [{ text: '안녕', source_lang: 'xx', target_lang: 'en' }, 'source_lang'],
  ])('answers 400 naming the field for %j, free and without an LLM call', async (body, field) => {
    const before = await remaining();
    const res = await suite.app.post(PATH, body, suite.user.apiKey);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 400, error_code: 'INVALID_REQUEST', field });
    expect(suite.llm.requests).toHaveLength(0);
    expect(await remaining()).toBe(before);
  });

  it('answers 500 when the translation engine fails (after retries) or is unreachable, and refunds', async () => {
    const before = await remaining();
    suite.llm.chat({ status: 503 }, { status: 503 }, { status: 503 });
    const broken = await suite.app.post(PATH, { text: '안녕하세요', target_lang: 'en' }, suite.user.apiKey);
    expect(broken.status).toBe(500);
    expect(broken.body).toMatchObject({ success: false, code: 500, error_code: 'TRANSLATION_ENGINE_ERROR' });
    expect(broken.body.error).toContain('번역 엔진');
    expect(suite.llm.requestsTo('chat')).toHaveLength(3);
    suite.llm.chat({ hangUp: true });
    expect((await suite.app.post(PATH, { text: '안녕하세요', target_lang: 'en' }, suite.user.apiKey)).status).toBe(500);
    expect(await remaining()).toBe(before);
  });

  it('answers 504 when the engine is too slow, and refunds', async () => {
    const before = await remaining();
    suite.llm.chat({ content: 'Hello', delayMs: 2_000 });
    const res = await suite.app.post(PATH, { text: '안녕하세요', target_lang: 'en' }, suite.user.apiKey);
    expect([res.status, res.body.error_code]).toEqual([504, 'UPSTREAM_TIMEOUT']);
    expect(await remaining()).toBe(before);
  });

  it('needs an API key', async () => {
    expect((await suite.app.post(PATH, { text: '안녕', target_lang: 'en' })).status).toBe(401);
  });
});
