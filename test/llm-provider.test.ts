import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import { createLlmProvider, defaultTokenParam, type LlmProviderOptions } from '../src/providers/llm.js';
import { startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';

let llm: FakeOpenAI;
beforeAll(async () => {
  llm = await startFakeOpenAI();
});
afterAll(() => llm.close());
beforeEach(() => llm.reset());

const logger = createLogger('silent');
function provider(overrides: Partial<LlmProviderOptions> = {}) {
  return createLlmProvider({ baseUrl: llm.url, model: 'fake-model', timeoutMs: 2_000, retryBaseDelayMs: 1, logger, ...overrides });
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const hello = { messages: [{ role: 'user' as const, content: '안녕' }] };

describe('chat', () => {
  it('returns the text and the upstream usage, and sends model, messages and temperature', async () => {
    llm.chat({ content: '반가워요', usage: { prompt_tokens: 11, completion_tokens: 4, total_tokens: 15 } });
    const result = await provider().chat({ ...hello, temperature: 0.3, maxTokens: 50 });
    expect(result).toEqual({ text: '반가워요', usage: { promptTokens: 11, completionTokens: 4, totalTokens: 15 }, finishReason: 'stop' });
    const sent = llm.requestsTo('chat')[0]!;
    expect(sent.body).toMatchObject({ model: 'fake-model', temperature: 0.3, messages: [{ role: 'user', content: '안녕' }] });
  });

  it('sends a placeholder key when only OPENAI_BASE_URL is set, and the real key otherwise', async () => {
    await provider().chat(hello);
    expect(llm.requests[0]!.headers.authorization).toBe('Bearer not-needed');
    await provider({ apiKey: 'sk-test-123' }).chat(hello);
    expect(llm.requests[1]!.headers.authorization).toBe('Bearer sk-test-123');
  });

  it("strips a local reasoning model's <think> block", async () => {
    llm.chat({ content: '<think>음... 인사구나</think>\n안녕하세요' });
    expect((await provider().chat(hello)).text).toBe('안녕하세요');
  });

  it('sends image parts as image_url content', async () => {
    await provider().chat({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '읽어 줘' },
            { type: 'image', url: 'data:image/png;base64,AAAA' },
          ],
        },
      ],
    });
    expect(llm.requestsTo('chat')[0]!.body.messages[0].content).toEqual([
      { type: 'text', text: '읽어 줘' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'auto' } },
    ]);
  });
});

describe('token parameter', () => {
  it('defaults by base URL: OpenAI gets max_completion_tokens, other servers max_tokens', () => {
    expect(defaultTokenParam(undefined)).toBe('max_completion_tokens');
    expect(defaultTokenParam('https://api.openai.com/v1')).toBe('max_completion_tokens');
    expect(defaultTokenParam('http://localhost:11434/v1')).toBe('max_tokens');
    expect(defaultTokenParam('http://gpu-box:8000/v1')).toBe('max_tokens');
  });

  it('sends max_tokens to a local server by default', async () => {
    await provider().chat({ ...hello, maxTokens: 123 });
    const body = llm.requestsTo('chat')[0]!.body;
    expect(body.max_tokens).toBe(123);
    expect(body).not.toHaveProperty('max_completion_tokens');
  });

  it('sends max_completion_tokens when OPENAI_TOKEN_PARAM says so', async () => {
    await provider({ tokenParam: 'max_completion_tokens' }).chat({ ...hello, maxTokens: 77 });
    const body = llm.requestsTo('chat')[0]!.body;
    expect(body.max_completion_tokens).toBe(77);
    expect(body).not.toHaveProperty('max_tokens');
  });
});

describe('failures', () => {
  it('is not configured without key and base URL: 503 naming both variables, nothing sent', async () => {
    const bare = provider({ baseUrl: undefined, apiKey: undefined });
    expect(bare.configured).toBe(false);
    const error = await failure(bare.chat(hello));
    expect(error.status).toBe(503);
    expect(error.code).toBe('NOT_CONFIGURED');
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).toContain('OPENAI_BASE_URL');
    await expect(bare.embed(['x'])).rejects.toMatchObject({ status: 503 });
    expect(llm.requests).toHaveLength(0);
  });

  it('retries a 5xx and a 429 with backoff, then succeeds', async () => {
    llm.chat({ status: 503 }, { status: 429, headers: { 'retry-after-ms': '5' } }, { content: '세 번째에 성공' });
    expect((await provider().chat(hello)).text).toBe('세 번째에 성공');
    expect(llm.requestsTo('chat')).toHaveLength(3);
  });

  it('gives up after two retries: 502 by default, or the code the call names', async () => {
    llm.chat({ status: 500 }, { status: 500 }, { status: 500 });
    const error = await failure(provider().chat(hello));
    expect([error.status, error.code]).toEqual([502, 'UPSTREAM_ERROR']);
    expect(llm.requestsTo('chat')).toHaveLength(3);

    llm.chat({ status: 502 }, { status: 502 }, { status: 502 });
    const translated = await failure(provider().chat(hello, { failure: { code: 'TRANSLATION_ENGINE_ERROR', message: '번역 엔진 오류' } }));
    expect([translated.status, translated.code]).toEqual([500, 'TRANSLATION_ENGINE_ERROR']);
    expect(translated.message).toContain('번역 엔진 오류');
  });

  it('does not retry a client error (400) and maps it to 502', async () => {
    llm.chat({ status: 400, error: { message: 'bad param', type: 'invalid_request_error' } }, { content: 'never' });
    expect((await failure(provider().chat(hello))).status).toBe(502);
    expect(llm.requestsTo('chat')).toHaveLength(1);
  });

  it('maps a slow answer to 504 without retrying it', async () => {
    llm.chat({ content: 'late', delayMs: 1_000 });
    const error = await failure(provider({ timeoutMs: 100 }).chat(hello));
    expect([error.status, error.code]).toEqual([504, 'UPSTREAM_TIMEOUT']);
    expect(llm.requestsTo('chat')).toHaveLength(1);
  });

  it('maps a dropped connection and a closed port to the upstream code', async () => {
    llm.chat({ hangUp: true });
    expect((await failure(provider().chat(hello))).status).toBe(502);
    const closed = await failure(provider({ baseUrl: 'http://127.0.0.1:9/v1' }).chat(hello));
    expect([closed.status, closed.code]).toEqual([502, 'UPSTREAM_ERROR']);
  });

  it('maps a model refusal, a content filter and a 400 content_policy_violation to 400', async () => {
    llm.chat(
      { refusal: 'I cannot help with that.' },
      { content: '', finishReason: 'content_filter' },
      { status: 400, error: { code: 'content_policy_violation', type: 'invalid_request_error' } },
    );
    for (let i = 0; i < 3; i++) {
      const error = await failure(provider().chat(hello));
      expect([error.status, error.code]).toEqual([400, 'CONTENT_REFUSED']);
    }
  });

  it('names the key on an authentication failure', async () => {
    llm.chat({ status: 401, error: { message: 'Incorrect API key', type: 'invalid_request_error' } });
    const error = await failure(provider({ apiKey: 'sk-wrong' }).chat(hello));
    expect(error.status).toBe(502);
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).not.toContain('sk-wrong');
  });
});

describe('structured output', () => {
  const schema = z.object({ label: z.enum(['clean', 'spam']), score: z.number() });

  it('sends a strict json_schema response format and parses the answer', async () => {
    llm.chat({ json: { label: 'spam', score: 0.9 }, usage: { total_tokens: 30 } });
    const { data, usage } = await provider().structured({ ...hello, schema, schemaName: 'verdict' });
    expect(data).toEqual({ label: 'spam', score: 0.9 });
    expect(usage.totalTokens).toBe(30);
    const format = llm.requestsTo('chat')[0]!.body.response_format;
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { name: 'verdict', strict: true } });
    expect(format.json_schema.schema.properties.label.enum).toEqual(['clean', 'spam']);
  });

  it('adds the schema to the one system message, first (local chat templates want it there)', async () => {
    llm.chat({ json: { label: 'clean', score: 0 } }, { json: { label: 'clean', score: 0 } });
    await provider().structured({ messages: [{ role: 'system', content: '판정기' }, ...hello.messages], schema, schemaName: 'v' });
    await provider().structured({ ...hello, schema, schemaName: 'v' });
    const [withSystem, without] = llm.requestsTo('chat').map((r) => r.body.messages);
    expect(withSystem.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(withSystem[0].content).toMatch(/^판정기\n\nAnswer with one JSON object only/);
    expect(without.map((m: { role: string }) => m.role)).toEqual(['system', 'user']);
    expect(without[0].content).toContain('"label"');
  });

  it('sends optional fields non-strict', async () => {
    llm.chat({ json: { a: 'x' } });
    await provider().structured({ ...hello, schema: z.object({ a: z.string(), b: z.string().optional() }), schemaName: 'loose' });
    expect(llm.requestsTo('chat')[0]!.body.response_format.json_schema.strict).toBe(false);
  });

  it('falls back to parsing prose or fenced JSON from a server that ignores the format', async () => {
    llm.chat({ content: '물론입니다! 결과는 다음과 같아요:\n```json\n{"label": "clean", "score": 0.1}\n```' });
    expect((await provider().structured({ ...hello, schema, schemaName: 'verdict' })).data).toEqual({ label: 'clean', score: 0.1 });
  });

  it('asks once more when the answer does not fit, then fails with 502', async () => {
    llm.chat({ content: '모르겠어요' }, { json: { label: 'clean', score: 0 } });
    expect((await provider().structured({ ...hello, schema, schemaName: 'verdict' })).data.label).toBe('clean');
    llm.chat({ content: 'nope' }, { json: { label: 'other' } });
    expect((await failure(provider().structured({ ...hello, schema, schemaName: 'verdict' }))).status).toBe(502);
    expect(llm.requestsTo('chat')).toHaveLength(4);
  });
});

describe('stream, embeddings, moderation', () => {
  it('streams the text in pieces and returns the usage', async () => {
    llm.chat({ content: '', chunks: ['하나 ', '둘 ', '셋'], usage: { prompt_tokens: 5, completion_tokens: 3 } });
    const stream = provider().stream(hello);
    const pieces: string[] = [];
    let next = await stream.next();
    while (!next.done) {
      pieces.push(next.value);
      next = await stream.next();
    }
    expect(pieces).toEqual(['하나 ', '둘 ', '셋']);
    expect(next.value).toEqual({ promptTokens: 5, completionTokens: 3, totalTokens: 8 });
    expect(llm.requestsTo('chat')[0]!.body.stream).toBe(true);
  });

  it('embeds texts in order with the embedding model', async () => {
    llm.embeddings({
      embeddings: [
        [1, 0],
        [0, 1],
      ],
    });
    expect(await provider({ embeddingModel: 'embed-small' }).embed(['가', '나'])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(llm.requestsTo('embeddings')[0]!.body).toMatchObject({ model: 'embed-small', input: ['가', '나'] });
    expect(await provider().embed([])).toEqual([]);
  });

  it('reports the moderation verdict with flagged categories', async () => {
    llm.moderations({ flagged: true, categories: ['violence', 'hate'] }, { flagged: false });
    const p = provider();
    expect(await p.moderate('나쁜 말')).toEqual({ flagged: true, categories: ['violence', 'hate'] });
    expect(await p.moderate('좋은 말')).toEqual({ flagged: false, categories: [] });
  });

  it('remembers a server without a moderation endpoint and stops asking', async () => {
    llm.moderations({ status: 404 });
    const p = provider();
    expect(await p.moderate('a')).toBeUndefined();
    expect(await p.moderate('b')).toBeUndefined();
    expect(llm.requestsTo('moderations')).toHaveLength(1);
  });
});

describe('the timeout bounds the whole call (#18 item 6)', () => {
  it('gives up on a server that sends headers and then trickles its body: 504 at the deadline', async () => {
    // The whole body takes about 30 s to trickle in: a 504 (not the answer) is the deadline's
    // doing, with no wall-clock bound to miss on a busy machine (issue 33 item 9).
    llm.chat({ content: '아주 천천히 오는 답입니다', trickleMs: 200 });
    const error = await failure(provider({ timeoutMs: 300 }).chat(hello));
    expect([error.status, error.code]).toEqual([504, 'UPSTREAM_TIMEOUT']);
  });

  it('stops reading an endless answer at the body cap: 502, and the server stops sending (#33 item 2)', async () => {
    llm.chat({ endless: true });
    const error = await failure(provider({ bodyLimitBytes: 256 * 1024 }).chat(hello));
    expect([error.status, error.code]).toEqual([502, 'UPSTREAM_ERROR']);
    expect(error.message).toContain('응답이 너무 큼');
    // Socket buffers on both sides may hold a few MB beyond the cap; an unbounded read takes until the deadline.
    expect(llm.endlessBytes).toBeLessThan(16 * 1024 * 1024);
  });

  it('caps a streamed answer the same way', async () => {
    llm.chat({ endless: true });
    const stream = provider({ bodyLimitBytes: 256 * 1024 }).stream(hello);
    const error = await failure(
      (async () => {
        for await (const piece of stream) void piece;
      })(),
    );
    expect([error.status, error.code]).toEqual([502, 'UPSTREAM_ERROR']);
  });

  it('answers a truncated JSON body with 502, not 500', async () => {
    llm.chat({ content: '잘린 답', truncateAt: 40 });
    const error = await failure(provider().chat(hello));
    expect([error.status, error.code]).toEqual([502, 'UPSTREAM_ERROR']);
  });
});
