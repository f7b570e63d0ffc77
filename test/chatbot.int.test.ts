import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_KNOWLEDGE_ANSWER } from '../src/operations/chatbot/answer.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

const PATH = '/api/v1/chatbot/rag';
const REFUND = '환불은 상품을 받은 날부터 7일 이내에 신청할 수 있습니다. 단순 변심 반품의 왕복 배송비는 고객이 부담합니다.';
const HOURS = '고객센터는 평일 오전 9시부터 오후 6시까지 운영합니다. 주말과 공휴일은 쉽니다.';
const DEPLOY = 'Production deploys are allowed Monday to Thursday between 10:00 and 16:00 KST.';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({}, { chatbot: { maxEntries: 5 } });
});
afterAll(async () => app?.close());

async function remaining(user: TestUser): Promise<number> {
  return (await app.remaining(user.apiKey, 'chatbot-rag'))!;
}

async function index(user: TestUser, content: string): Promise<number> {
  const res = await app.post(PATH, { action: 'index', content }, user.apiKey);
  expect(res.status).toBe(200);
  return res.body.id;
}

describe('POST /api/v1/chatbot/rag without an LLM', () => {
  it('indexes, lists newest first with paging, answers extractively with sources, and charges one call each', async () => {
    const user = await app.signUp();
    const before = await remaining(user);
    const indexed = await app.post(PATH, { action: 'index', content: REFUND }, user.apiKey);
    expect(indexed.status).toBe(200);
    expect(indexed.body).toEqual({
      success: true,
      api: 'chatbot-rag',
      message: '지식이 저장되었습니다.',
      id: expect.any(Number),
      remaining: before - 1,
    });
    const hoursId = await index(user, HOURS);
    const deployId = await index(user, DEPLOY);

    const list = await app.post(PATH, { action: 'list' }, user.apiKey);
    expect(list.status).toBe(200);
    expect(list.body.knowledge_list.map((e: { id: number }) => e.id)).toEqual([deployId, hoursId, indexed.body.id]);
    expect(list.body.knowledge_list[2]).toEqual({
      id: indexed.body.id,
      content: REFUND,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      source: null,
      url: null,
      scope: null,
    });
    expect(list.body).toMatchObject({ total: 3, offset: 0, limit: 20 });
    const page = await app.post(PATH, { action: 'list', offset: 1, limit: 1 }, user.apiKey);
    expect(page.body.knowledge_list).toEqual([expect.objectContaining({ id: hoursId, content: HOURS })]);

    const chat = await app.post(PATH, { action: 'chat', message: '환불은 며칠 안에 신청해야 하나요?' }, user.apiKey);
    expect(chat.status).toBe(200);
    expect(chat.body.answer).toContain('7일 이내');
    expect(chat.body.answer).not.toContain('고객센터');
    // The source says where the quoted chunk lies in the entry, so a bot can quote it.
    expect(chat.body.sources[0]).toEqual({
      id: indexed.body.id,
      score: expect.any(Number),
      start: 0,
      end: REFUND.length,
      source: null,
      url: null,
    });
    expect(chat.body.passage).toBe(REFUND);
    const english = await app.post(PATH, { action: 'chat', message: 'Which days can we deploy to production?' }, user.apiKey);
    expect(english.body.answer).toBe(DEPLOY);
    expect(english.body.sources[0].id).toBe(deployId);
    expect(await remaining(user)).toBe(before - 7);
  });

  it('says in Korean that no stored knowledge covers an unrelated question', async () => {
    const user = await app.signUp();
    const empty = await app.post(PATH, { action: 'chat', message: '환불 기한이 어떻게 되나요?' }, user.apiKey);
    expect(empty.body).toMatchObject({ success: true, answer: NO_KNOWLEDGE_ANSWER, sources: [] });
    await index(user, REFUND);
    await index(user, HOURS);
    for (const message of ['사무실에 반려동물을 데려와도 되나요?', 'What is the dress code?']) {
      const res = await app.post(PATH, { action: 'chat', message }, user.apiKey);
      expect(res.status).toBe(200);
      expect(res.body.answer).toBe(NO_KNOWLEDGE_ANSWER);
    }
  });

  it('splits a long text into chunks and answers from the part that holds the fact', async () => {
    const user = await app.signUp();
    const filler = Array.from({ length: 12 }, (_, i) => `${i + 1}장에서는 판매자 센터의 일반 기능을 설명합니다.`).join(' ');
    const manual = `${filler}\n\n정산금은 매주 수요일에 판매자가 등록한 계좌로 입금됩니다.\n\n${filler}`;
    expect(manual.length).toBeGreaterThan(700);
    await index(user, manual);
    const res = await app.post(PATH, { action: 'chat', message: '정산금은 무슨 요일에 입금되나요?' }, user.apiKey);
    expect(res.body.answer).toContain('수요일');
    expect(res.body.answer.length).toBeLessThan(200);
  });

  it('deletes only the caller’s own entry (404 otherwise, free) and clears everything', async () => {
    const owner = await app.signUp();
    const other = await app.signUp();
    const id = await index(owner, REFUND);
    await index(owner, HOURS);

    const before = await remaining(other);
    const foreign = await app.post(PATH, { action: 'delete', id }, other.apiKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, code: 404, error_code: 'NOT_FOUND' });
    expect(await remaining(other)).toBe(before);
    const otherList = await app.post(PATH, { action: 'list' }, other.apiKey);
    expect(otherList.body.knowledge_list).toEqual([]);
    const otherChat = await app.post(PATH, { action: 'chat', message: '환불은 며칠 안에 신청하나요?' }, other.apiKey);
    expect(otherChat.body.answer).toBe(NO_KNOWLEDGE_ANSWER);

    const deleted = await app.post(PATH, { action: 'delete', id }, owner.apiKey);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ success: true, id, message: expect.stringContaining(String(id)) });
    expect((await app.post(PATH, { action: 'delete', id }, owner.apiKey)).status).toBe(404);
    const afterDelete = await app.post(PATH, { action: 'chat', message: '환불은 며칠 안에 신청하나요?' }, owner.apiKey);
    expect(afterDelete.body.answer).toBe(NO_KNOWLEDGE_ANSWER);
    expect((await app.post(PATH, { action: 'list' }, owner.apiKey)).body.total).toBe(1);

    const cleared = await app.post(PATH, { action: 'clear' }, owner.apiKey);
    expect(cleared.body).toMatchObject({ success: true, deleted: 1 });
    expect((await app.post(PATH, { action: 'list' }, owner.apiKey)).body).toMatchObject({ knowledge_list: [], total: 0 });
    const hours = await app.post(PATH, { action: 'chat', message: '고객센터 운영 시간' }, owner.apiKey);
    expect(hours.body.answer).toBe(NO_KNOWLEDGE_ANSWER);
  });

  it('refuses a sixth entry with 409 when the limit is five, and frees room after a delete', async () => {
    const user = await app.signUp();
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await index(user, `항목 ${i}: 테스트 지식입니다.`));
    const before = await remaining(user);
    const refused = await app.post(PATH, { action: 'index', content: '여섯 번째 항목' }, user.apiKey);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, error_code: 'CONFLICT', limit: 5 });
    expect(refused.body.error).toContain('5개');
    expect(await remaining(user)).toBe(before);
    await app.post(PATH, { action: 'delete', id: ids[0] }, user.apiKey);
    expect((await app.post(PATH, { action: 'index', content: '여섯 번째 항목' }, user.apiKey)).status).toBe(200);
  });

  it.each([
    ['no action', {}, 'action'],
    ['an unknown action', { action: 'search' }, 'action'],
    ['chat without message', { action: 'chat' }, 'message'],
    ['a blank message', { action: 'chat', message: '   ' }, 'message'],
    ['a message over 2,000 characters', { action: 'chat', message: '가'.repeat(2001) }, 'message'],
    ['index without content', { action: 'index' }, 'content'],
    ['content that is not text', { action: 'index', content: 42 }, 'content'],
    ['content over 20,000 characters', { action: 'index', content: '가'.repeat(20_001) }, 'content'],
    ['delete without id', { action: 'delete' }, 'id'],
    ['a non-numeric id', { action: 'delete', id: 'abc' }, 'id'],
    ['a fractional id', { action: 'delete', id: 1.5 }, 'id'],
    ['a list limit over 100', { action: 'list', limit: 101 }, 'limit'],
    ['a negative offset', { action: 'list', offset: -1 }, 'offset'],
  ])('answers 400 naming the field for %s, free', async (_label, body, field) => {
    const user = await app.signUp();
    const before = await remaining(user);
    const res = await app.post(PATH, body, user.apiKey);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, code: 400, error_code: 'INVALID_REQUEST', field });
    expect(await remaining(user)).toBe(before);
  });

  it('accepts 20,000 characters of content and a digit-string id', async () => {
    const user = await app.signUp();
    const long = `${'긴 문서의 내용입니다. '.repeat(1500)}`.slice(0, 20_000);
    const id = await index(user, long);
    const res = await app.post(PATH, { action: 'delete', id: String(id) }, user.apiKey);
    expect(res.status).toBe(200);
  });

  it('answers 401 without a valid key', async () => {
    expect((await app.post(PATH, { action: 'list' })).status).toBe(401);
    expect((await app.post(PATH, { action: 'list' }, 'aik_wrong')).status).toBe(401);
  });
});
