import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_KNOWLEDGE_ANSWER } from '../src/operations/chatbot/answer.js';
import { lastUserText, startFakeOpenAI, systemText, type FakeOpenAI } from './fakes/openai-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

const PATH = '/api/v1/chatbot/rag';
const REFUND = '환불은 상품을 받은 날부터 7일 이내에 신청할 수 있습니다. 단순 변심 반품의 왕복 배송비는 고객이 부담합니다.';
const HOURS = '고객센터는 평일 오전 9시부터 오후 6시까지 운영합니다. 주말과 공휴일은 쉽니다.';
const DEPLOY = 'Production deploys are allowed Monday to Thursday between 10:00 and 16:00 KST.';

/** Embeddings by topic, so similarity is known: refund texts (Korean or English) point one way, the rest elsewhere. */
function topicVector(text: string): number[] {
  if (/환불|refund|money back/i.test(text)) return [1, 0, 0];
  if (/고객센터|support hours/i.test(text)) return [0, 1, 0];
  return [0, 0, 1];
}

let llm: FakeOpenAI;
let app: TestApp;
let user: TestUser;
let refundId: number;

beforeAll(async () => {
  llm = await startFakeOpenAI();
  app = await startTestApp(
    { OPENAI_BASE_URL: llm.url, OPENAI_EMBEDDING_MODEL: 'text-embedding-3-small', LLM_TIMEOUT_MS: '1000' },
    { llm: { retryBaseDelayMs: 1 } },
  );
  user = await app.signUp();
  llm.onEmbeddings((req) => ({ embeddings: (req.body.input as string[]).map(topicVector) }));
  refundId = (await app.post(PATH, { action: 'index', content: REFUND }, user.apiKey)).body.id;
  await app.post(PATH, { action: 'index', content: HOURS }, user.apiKey);
  await app.post(PATH, { action: 'index', content: DEPLOY }, user.apiKey);
});
afterAll(async () => {
  await app?.close();
  await llm?.close();
});
beforeEach(() => {
  llm.reset();
  llm.onEmbeddings((req) => ({ embeddings: (req.body.input as string[]).map(topicVector) }));
});

async function remaining(): Promise<number> {
  return (await app.remaining(user.apiKey, 'chatbot-rag'))!;
}

describe('POST /api/v1/chatbot/rag with an LLM and embeddings', () => {
  it('embeds the chunks of a new entry with the configured model', async () => {
    const res = await app.post(PATH, { action: 'index', content: '선물 포장은 상품 하나당 2,000원입니다.' }, user.apiKey);
    expect(res.status).toBe(200);
    const [request] = llm.requestsTo('embeddings');
    expect(request?.body).toMatchObject({ model: 'text-embedding-3-small', input: ['선물 포장은 상품 하나당 2,000원입니다.'] });
    await app.post(PATH, { action: 'delete', id: res.body.id }, user.apiKey);
  });

  it('answers with the model, grounded in the retrieved chunks only, in the question’s language', async () => {
    llm.chat({ content: '상품을 받은 날부터 7일 이내에 신청하시면 됩니다.' });
    const res = await app.post(PATH, { action: 'chat', message: '환불은 며칠 안에 신청해야 하나요?' }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, api: 'chatbot-rag', answer: '상품을 받은 날부터 7일 이내에 신청하시면 됩니다.' });
    expect(res.body.sources[0].id).toBe(refundId);
    const sent = llm.requestsTo('chat')[0]!.body;
    expect(systemText(sent)).toContain(REFUND);
    expect(systemText(sent)).not.toContain(HOURS);
    expect(systemText(sent)).toContain('Answer in Korean');
    expect(systemText(sent)).toMatch(/ONLY the knowledge excerpts/);
    expect(systemText(sent)).toMatch(/If the excerpts do not contain the answer, say so plainly/);
    expect(lastUserText(sent)).toBe('환불은 며칠 안에 신청해야 하나요?');
    expect(llm.requestsTo('embeddings')[0]!.body.input).toEqual(['환불은 며칠 안에 신청해야 하나요?']);

    llm.chat({ content: 'From Monday to Thursday, 10:00 to 16:00 KST.' });
    const english = await app.post(PATH, { action: 'chat', message: 'When are production deploys allowed?' }, user.apiKey);
    expect(english.body.answer).toBe('From Monday to Thursday, 10:00 to 16:00 KST.');
    expect(systemText(llm.requestsTo('chat')[1]!.body)).toContain(DEPLOY);
    expect(systemText(llm.requestsTo('chat')[1]!.body)).toContain('Answer in English');
  });

  it('with scopes, the model sees only the passages that may answer there (issue 39)', async () => {
    const scoped = await app.signUp();
    const entries = [
      { content: '환불 신청은 구매 후 30일 이내에 앱에서 합니다. 사내 파트너 전용 규정입니다.', scope: 'slack:CPARTNER' },
      { content: '환불 신청은 구매 후 7일 이내에 고객센터로 합니다.' },
    ];
    const stored = await app.post(PATH, { action: 'index', entries }, scoped.apiKey);
    expect(stored.status).toBe(200);
    llm.reset();
    llm.onEmbeddings((req) => ({ embeddings: (req.body.input as string[]).map(topicVector) }));
    llm.chat({ content: '구매 후 7일 이내에 고객센터로 신청하세요.' });
    const common = await app.post(PATH, { action: 'chat', message: '환불 신청은 며칠 안에 하나요?' }, scoped.apiKey);
    expect(common.body.sources.map((source: { id: number }) => source.id)).toEqual([stored.body.ids[1]]);
    const sent = systemText(llm.requestsTo('chat')[0]!.body);
    expect(sent).toContain('7일 이내에 고객센터로');
    expect(sent).not.toContain('30일');
    llm.chat({ content: '파트너는 30일 이내, 앱에서 신청합니다.' });
    await app.post(PATH, { action: 'chat', message: '환불 신청은 며칠 안에 하나요?', scope: 'slack:CPARTNER' }, scoped.apiKey);
    expect(systemText(llm.requestsTo('chat')[1]!.body)).toContain('30일');
  });

  it('lets a close vector similarity make a chunk relevant that shares too few words to pass alone', async () => {
    llm.chat({ content: '받은 날부터 7일 이내에 환불을 신청할 수 있어요.' });
    const message = '환불 관련해서 질문이 있어요. 제가 산 물건을 돌려보내고 싶은데 가능한가요?';
    const res = await app.post(PATH, { action: 'chat', message }, user.apiKey);
    expect(res.body.answer).toBe('받은 날부터 7일 이내에 환불을 신청할 수 있어요.');
    expect(res.body.sources.map((source: { id: number }) => source.id)).toEqual([refundId]);
    expect(systemText(llm.requestsTo('chat')[0]!.body)).toContain(REFUND);

    // The same question with vectors that do not agree: one shared word is not enough.
    llm.reset();
    llm.onEmbeddings((req) => ({ embeddings: (req.body.input as string[]).map(() => [0, 0, 1]) }));
    const unsure = await app.post(PATH, { action: 'chat', message }, user.apiKey);
    expect(unsure.body.answer).toBe(NO_KNOWLEDGE_ANSWER);
    expect(llm.requestsTo('chat')).toHaveLength(0);
  });

  it('does not call the model when nothing relevant is stored', async () => {
    const res = await app.post(PATH, { action: 'chat', message: '사무실에 반려동물을 데려와도 되나요?' }, user.apiKey);
    expect(res.body).toMatchObject({ success: true, answer: NO_KNOWLEDGE_ANSWER, sources: [] });
    expect(llm.requestsTo('chat')).toHaveLength(0);
  });

  it('answers 502 and refunds when the model fails, and stores nothing when embedding fails', async () => {
    const before = await remaining();
    llm.chat({ status: 500 }, { status: 500 }, { status: 500 });
    const failed = await app.post(PATH, { action: 'chat', message: '환불은 며칠 안에 신청해야 하나요?' }, user.apiKey);
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ success: false, error_code: 'UPSTREAM_ERROR' });

    llm.embeddings({ status: 500 }, { status: 500 }, { status: 500 });
    const total = (await app.post(PATH, { action: 'list' }, user.apiKey)).body.total;
    const index = await app.post(PATH, { action: 'index', content: '임베딩이 실패하는 항목' }, user.apiKey);
    expect(index.status).toBe(502);
    expect((await app.post(PATH, { action: 'list' }, user.apiKey)).body.total).toBe(total);
    expect(await remaining()).toBe(before - 2); // only the two lists were paid for
  });
});
