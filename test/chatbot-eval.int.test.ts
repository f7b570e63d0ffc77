import { operationContext } from './helpers/operation-context.js';
import { createDocumentReader } from '../src/providers/documents/read-document.js';
import { createPageFetcher } from '../src/operations/chatbot/page-fetch.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { eq } from 'drizzle-orm';
import { accounts } from '../db/schema.js';
import { createLogger } from '../src/logger.js';
import { NO_KNOWLEDGE_ANSWER } from '../src/operations/chatbot/answer.js';
import { createChatbotOperation } from '../src/operations/chatbot/chatbot.js';
import { createKnowledgeStore } from '../src/operations/chatbot/knowledge-store.js';
import type { OperationContext } from '../src/platform/execute.js';
import { createLlmProvider } from '../src/providers/llm.js';
import { ANSWERABLE, EVAL_ENTRIES, generateDistractors, UNANSWERABLE } from './data/chatbot-eval.js';
import { testDatabaseEnv } from './helpers/app.js';
import { testMemoryPglite } from './helpers/memory-pglite.js';

/**
 * Retrieval quality without an LLM, on the evaluation set among 1,200 distractor entries:
 * the extractive answer must hold the expected fact for ≥ 90% of the answerable questions,
 * and the bot must abstain for ≥ 80% of the unanswerable ones. Runs on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL: the figures must be the same on both.
 */
const DISTRACTORS = 1200;
const logger = createLogger('silent');
let database: DatabaseHandle;
let ctx: OperationContext;
let operation: ReturnType<typeof createChatbotOperation>;

beforeAll(async () => {
  const env = testDatabaseEnv();
  database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR ?? 'memory://',
    memoryPglite: testMemoryPglite(),
  });
  const email = `chatbot-eval-${process.pid}-${Date.now()}@example.com`;
  const [account] = await database.db.insert(accounts).values({ email }).returning();
  ctx = operationContext(account!, logger);
  const store = createKnowledgeStore(database.db, { maxEntries: 10_000, maxChars: 10_000_000 });
  const llm = createLlmProvider({ model: 'none', timeoutMs: 1000, logger });
  const documents = createDocumentReader({
    ocr: () => {
      throw new Error('no OCR in this test');
    },
  });
  operation = createChatbotOperation({ db: database.db, store, llm, useEmbeddings: false, documents, fetchPage: createPageFetcher() });
  // Knowledge and distractors interleaved, so ids carry no hint.
  const distractors = generateDistractors(DISTRACTORS);
  const all = distractors.flatMap((text, i) => (i % 35 === 0 && EVAL_ENTRIES[i / 35] ? [EVAL_ENTRIES[i / 35]!, text] : [text]));
  for (const text of EVAL_ENTRIES.slice(Math.ceil(DISTRACTORS / 35))) all.push(text);
  expect(all).toHaveLength(DISTRACTORS + EVAL_ENTRIES.length);
  for (let start = 0; start < all.length; start += 200) {
    await store.add(
      ctx.account.id,
      all.slice(start, start + 200).map((content) => ({ content })),
    );
  }
}, 120_000);
afterAll(async () => {
  if (ctx) await database.db.delete(accounts).where(eq(accounts.id, ctx.account.id)); // cascades to its knowledge
  await database?.close();
});

async function ask(message: string): Promise<string> {
  const output = await operation.run(ctx, { action: 'chat', message, scopes: [] });
  return 'answer' in output ? output.answer : '';
}

describe('chatbot evaluation (extractive, no LLM)', () => {
  it('has the size the issue asks for', () => {
    expect(EVAL_ENTRIES.length).toBeGreaterThanOrEqual(30);
    expect(ANSWERABLE.length).toBeGreaterThanOrEqual(40);
    expect(UNANSWERABLE.length).toBeGreaterThanOrEqual(10);
    expect(ANSWERABLE.some((q) => !/\p{Script=Hangul}/u.test(q.question))).toBe(true);
  });

  it('answers ≥ 90% of answerable questions with the expected fact and abstains on ≥ 80% of the others', async () => {
    const misses: string[] = [];
    for (const { question, expected } of ANSWERABLE) {
      const answer = await ask(question);
      if (!expected.every((fact) => answer.includes(fact))) misses.push(`${question} → ${answer}`);
    }
    const wrongAnswers: string[] = [];
    for (const question of UNANSWERABLE) {
      const answer = await ask(question);
      if (answer !== NO_KNOWLEDGE_ANSWER) wrongAnswers.push(`${question} → ${answer}`);
    }
    const hitRate = 1 - misses.length / ANSWERABLE.length;
    const abstention = 1 - wrongAnswers.length / UNANSWERABLE.length;
    console.log(
      `chatbot eval: ${EVAL_ENTRIES.length} entries + ${DISTRACTORS} distractors; ` +
        `answerable hit rate ${(hitRate * 100).toFixed(1)}% (${ANSWERABLE.length - misses.length}/${ANSWERABLE.length}), ` +
        `unanswerable abstention ${(abstention * 100).toFixed(1)}% (${UNANSWERABLE.length - wrongAnswers.length}/${UNANSWERABLE.length})` +
        [...misses.map((m) => `\n  miss: ${m}`), ...wrongAnswers.map((m) => `\n  answered: ${m}`)].join(''),
    );
    expect(hitRate).toBeGreaterThanOrEqual(0.9);
    expect(abstention).toBeGreaterThanOrEqual(0.8);
  }, 120_000);
});
