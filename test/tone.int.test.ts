import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { TONE_GUIDES } from '../src/operations/tone/tone-guides.js';
import { TONES } from '../src/operations/tone/tone.schema.js';
import { lastUserText, systemText } from './fakes/openai-server.js';
import { startTestApp } from './helpers/app.js';
import { useLlmTestApp } from './helpers/llm-app.js';

const suite = useLlmTestApp();

const PATH = '/api/v1/tone/transform';

async function remaining(apiKey = suite.user.apiKey): Promise<number> {
  return (await suite.app.remaining(apiKey, 'tone-transformation'))!;
}

describe('POST /api/v1/tone/transform', () => {
  it('restyles the text in the formal tone by default, with the guide and examples sent to the model', async () => {
    const before = await remaining();
    suite.llm.chat({ content: '내일 회의는 몇 시입니까?' });
    const res = await suite.app.post(PATH, { text: '내일 회의 몇 시야?' }, suite.user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      transformed_text: '내일 회의는 몇 시입니까?',
      target_tone: 'formal',
      api: 'tone-transformation',
      remaining: before - 1,
    });
    const sent = suite.llm.requestsTo('chat')[0]!.body;
    expect(systemText(sent)).toContain('하십시오체');
    expect(systemText(sent)).toContain('URL');
    expect(lastUserText(sent)).toBe('내일 회의 몇 시야?');
    // the guide's example pairs come as conversation turns before the text
    expect(sent.messages.filter((m: { role: string }) => m.role === 'assistant').map((m: { content: string }) => m.content)).toEqual(
      TONE_GUIDES.formal.examples.map(([, converted]) => converted),
    );
    expect(await remaining()).toBe(before - 1);
  });

  it('sends each of the ten tones its own style guide', async () => {
    suite.llm.onChat(() => ({ content: '변환했어요' }));
    for (const tone of TONES) {
      const res = await suite.app.post(PATH, { text: '오늘 회의는 취소되었습니다.', target_tone: tone }, suite.user.apiKey);
      expect(res.status, tone).toBe(200);
      expect(res.body.target_tone).toBe(tone);
    }
    const prompts = suite.llm.requestsTo('chat').map((r) => systemText(r.body));
    expect(prompts).toHaveLength(10);
    TONES.forEach((tone, i) => {
      expect(prompts[i]).toContain(`${TONE_GUIDES[tone].name} (${tone})`);
      expect(prompts[i]).toContain(TONE_GUIDES[tone].speechLevel);
      expect(prompts[i]).toContain(TONE_GUIDES[tone].emoji);
    });
    expect(new Set(prompts).size).toBe(10);
  });

  it('keeps the line breaks of the answer', async () => {
    suite.llm.chat({ content: '\n첫 줄입니다.\n\n- 둘째 줄입니다: https://example.com/a?b=1\n' });
    const res = await suite.app.post(
      PATH,
      { text: '첫 줄.\n\n- 둘째 줄: https://example.com/a?b=1', target_tone: 'formal' },
      suite.user.apiKey,
    );
    expect(res.body.transformed_text).toBe('첫 줄입니다.\n\n- 둘째 줄입니다: https://example.com/a?b=1');
  });

  it('asks again when the model explains instead of converting, and answers the second try', async () => {
    suite.llm.chat({ content: '변환된 문장:\n안녕하세요.' }, { content: '안녕하세요.' });
    const res = await suite.app.post(PATH, { text: '안녕', target_tone: 'casual' }, suite.user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.transformed_text).toBe('안녕하세요.');
    expect(suite.llm.requestsTo('chat')).toHaveLength(2);
  });

  it('fails with 502 after two bad answers (quoted, empty) and refunds the call', async () => {
    const before = await remaining();
    suite.llm.chat({ content: '"안녕하세요."' }, { content: '   ' });
    const res = await suite.app.post(PATH, { text: '안녕', target_tone: 'casual' }, suite.user.apiKey);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ success: false, code: 502, error_code: 'UPSTREAM_ERROR' });
    expect(suite.llm.requestsTo('chat')).toHaveLength(2);
    expect(await remaining()).toBe(before);
  });

  it('refuses an answer that lost a URL of the text', async () => {
    suite.llm.chat({ content: '링크를 확인하십시오.' }, { content: '링크 https://ex.com/x 를 확인하십시오.' });
    const res = await suite.app.post(PATH, { text: '링크 https://ex.com/x 확인해', target_tone: 'formal' }, suite.user.apiKey);
    expect(res.body.transformed_text).toBe('링크 https://ex.com/x 를 확인하십시오.');
  });

  it.each([
    [{}, 'text'],
    [{ text: '' }, 'text'],
    [{ text: '   \n ' }, 'text'],
    [{ text: 42 }, 'text'],
    [{ text: '가'.repeat(3001) }, 'text'],
    [{ text: '안녕', target_tone: 'pirate' }, 'target_tone'],
  ])('answers 400 naming the field for %j, without charging or calling the model', async (body, field) => {
    const before = await remaining();
    const res = await suite.app.post(PATH, body, suite.user.apiKey);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 400, error_code: 'INVALID_REQUEST', field });
    expect(res.body.error).toContain(field);
    expect(suite.llm.requests).toHaveLength(0);
    expect(await remaining()).toBe(before);
  });

  it('accepts exactly 3,000 characters (emoji counted as one)', async () => {
    suite.llm.chat({ content: '좋습니다.' });
    const res = await suite.app.post(PATH, { text: '😀'.repeat(10) + '가'.repeat(2990) }, suite.user.apiKey);
    expect(res.status).toBe(200);
  });

  it('maps a slow model to 504 and an unreachable one to 502, refunding both', async () => {
    const before = await remaining();
    suite.llm.chat({ content: '늦음', delayMs: 2_000 });
    const slow = await suite.app.post(PATH, { text: '안녕' }, suite.user.apiKey);
    expect([slow.status, slow.body.error_code]).toEqual([504, 'UPSTREAM_TIMEOUT']);
    suite.llm.chat({ status: 500 }, { status: 500 }, { status: 500 });
    const broken = await suite.app.post(PATH, { text: '안녕' }, suite.user.apiKey);
    expect([broken.status, broken.body.error_code]).toEqual([502, 'UPSTREAM_ERROR']);
    expect(await remaining()).toBe(before);
  });

  it('needs an API key', async () => {
    const res = await suite.app.post(PATH, { text: '안녕' });
    expect(res.status).toBe(401);
    expect(suite.llm.requests).toHaveLength(0);
  });
});

describe('without an LLM configured', () => {
  it('answers 503 naming OPENAI_API_KEY and OPENAI_BASE_URL, and refunds', async () => {
    const bare = await startTestApp();
    try {
      const someone = await bare.signUp();
      const res = await bare.post(PATH, { text: '안녕' }, someone.apiKey);
      expect(res.status).toBe(503);
      expect(res.body.error_code).toBe('NOT_CONFIGURED');
      expect(res.body.error).toContain('OPENAI_API_KEY');
      expect(res.body.error).toContain('OPENAI_BASE_URL');
      const usage = await bare.get('/api/v1/usage', { 'x-api-key': someone.apiKey });
      const row = usage.body.usage.find((r: { api: string }) => r.api === 'tone-transformation');
      expect(row.remaining).toBe(1000);
      // The catalogue keeps SPEC's status and says what does not work here, and why.
      const catalog = await bare.get('/api/v1/catalog');
      const tone = catalog.body.apis.find((api: { id: string }) => api.id === 'tone-transformation');
      expect(tone).toMatchObject({ status: 'normal', available: false, engine: 'llm' });
      // In a customer's words: the variables to set are operator detail (start-up log, operator view).
      expect(tone.unavailable_reason).toBe('AI 모델이 연결되어 있지 않습니다');
      expect(tone.unavailable_reason_en).toBe('no AI model is connected');
      const shortener = catalog.body.apis.find((api: { id: string }) => api.id === 'url-shortener');
      expect(shortener).toMatchObject({ status: 'normal', available: true });
      expect(shortener.unavailable_reason).toBeUndefined();
    } finally {
      await bare.close();
    }
  });

  it('is shown as available in the catalogue once an LLM is configured', async () => {
    const catalog = await suite.app.get('/api/v1/catalog');
    const byId = Object.fromEntries(catalog.body.apis.map((api: { id: string }) => [api.id, api]));
    expect(byId['tone-transformation']).toMatchObject({ available: true, engine: 'llm' });
    expect(byId['chatbot-rag']).toMatchObject({ available: true, engine: 'retrieval+llm' });
    expect(byId['ocr-idcard']).toMatchObject({ available: true, engine: 'tesseract' });
  });
});

describe('logs of LLM calls', () => {
  it('hold the kind of call and its timing at debug level, never the text or the answer', async () => {
    const lines: string[] = [];
    const logged = await startTestApp(
      { OPENAI_BASE_URL: suite.llm.url, LLM_TIMEOUT_MS: '500' },
      { logger: createLogger('debug', { write: (line: string) => void lines.push(line) }), llm: { retryBaseDelayMs: 1 } },
    );
    try {
      const someone = await logged.signUp();
      suite.llm.chat({ content: '비밀 답변 문장입니다.' }, { content: '"따옴표 답변"' }, { status: 500 }, { status: 500 }, { status: 500 });
      expect((await logged.post(PATH, { text: '아주 비밀스러운 원문' }, someone.apiKey)).status).toBe(200);
      expect((await logged.post(PATH, { text: '두 번째 비밀 원문' }, someone.apiKey)).status).toBe(502);
      const all = lines.join('\n');
      expect(all).toContain('"llm":"chat"');
      expect(all).toContain('"upstreamStatus":500');
      expect(all).toContain('"reason":"quoted"');
      for (const secret of ['비밀스러운', '비밀 원문', '비밀 답변', '따옴표 답변', '하십시오체']) expect(all).not.toContain(secret);
    } finally {
      await logged.close();
    }
  });
});
