import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { accounts, knowledgeEntries, knowledgeStats } from '../db/schema.js';
import { rowsOf } from '../db/rows.js';
import { createKnowledgeStore } from '../src/operations/chatbot/knowledge-store.js';
import { STATEMENT_TIMEOUT_MS, withStatementTimeout } from '../src/operations/chatbot/retrieve.js';
import { startTestApp, testDatabaseEnv, type TestApp } from './helpers/app.js';
import { testMemoryPglite } from './helpers/memory-pglite.js';

/** Limits of the knowledge store (issue #18 items 2, 10, 14), on PGlite and on PostgreSQL. */
const PATH = '/api/v1/chatbot/rag';
let app: TestApp;
let database: DatabaseHandle;

beforeAll(async () => {
  app = await startTestApp({}, { chatbot: { maxEntries: 100, maxChars: 60 } });
  const env = testDatabaseEnv();
  database = await openDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: env.DATA_DIR ?? 'memory://',
    memoryPglite: testMemoryPglite(),
  });
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('knowledge storage per account', () => {
  it('refuses content past the account’s character limit with a 409 in Korean, free, and frees room on delete', async () => {
    const user = await app.signUp();
    const first = await app.post(PATH, { action: 'index', content: '가'.repeat(40) }, user.apiKey);
    expect(first.status).toBe(200);
    const before = await app.remaining(user.apiKey, 'chatbot-rag');
    const refused = await app.post(PATH, { action: 'index', content: '나'.repeat(21) }, user.apiKey);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, error_code: 'CONFLICT', limit: 60, limit_type: 'chars' });
    expect(refused.body.error).toBe('저장할 수 있는 지식은 계정당 모두 합쳐 60자까지입니다. 필요 없는 항목을 삭제한 뒤 다시 시도하세요.');
    expect(await app.remaining(user.apiKey, 'chatbot-rag')).toBe(before);
    expect((await app.post(PATH, { action: 'index', content: '나'.repeat(20) }, user.apiKey)).status).toBe(200);
    await app.post(PATH, { action: 'delete', id: first.body.id }, user.apiKey);
    expect((await app.post(PATH, { action: 'index', content: '다'.repeat(40) }, user.apiKey)).status).toBe(200);
  });
});

describe('knowledge counts under concurrency', () => {
  it('keeps the entry count equal to the rows when clear races index', async () => {
    const [account] = await database.db
      .insert(accounts)
      .values({ email: `race-${process.pid}-${Date.now()}@example.com` })
      .returning();
    const store = createKnowledgeStore(database.db, { maxEntries: 10_000, maxChars: 10_000_000 });
    try {
      for (let round = 0; round < 3; round++) {
        const work: Array<Promise<unknown>> = [];
        for (let i = 0; i < 24; i++) {
          work.push(store.add(account!.id, [{ content: `경합 시험 항목 ${round}-${i}: 환불은 7일 이내에 신청합니다.` }]));
          if (i % 8 === 4) work.push(store.clear(account!.id));
        }
        // Every call finishes before the next round (and before the account goes in `finally`),
        // so a failure is reported as itself, not as the cleanup racing work still running.
        const failed = (await Promise.allSettled(work)).find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
      }
      const [rows] = await database.db.select({ n: count() }).from(knowledgeEntries).where(eq(knowledgeEntries.accountId, account!.id));
      const [stats] = await database.db.select().from(knowledgeStats).where(eq(knowledgeStats.accountId, account!.id));
      expect(stats?.entryCount).toBe(rows?.n);
      const [chars] = rowsOf<{ n: number }>(
        await database.db.execute(
          sql`select coalesce(sum(char_length(content)), 0)::int as n from knowledge_entries where account_id = ${account!.id}`,
        ),
      );
      expect(stats?.charTotal).toBe(chars?.n);
    } finally {
      await database.db.delete(accounts).where(eq(accounts.id, account!.id));
    }
  });
});

describe('knowledge search work', () => {
  it('runs the search under a statement timeout', async () => {
    const setting = await withStatementTimeout(database.db, async (tx) =>
      rowsOf<{ statement_timeout: string }>(await tx.execute(sql`show statement_timeout`)),
    );
    expect(setting[0]?.statement_timeout).toBe(`${STATEMENT_TIMEOUT_MS / 1000}s`);
    // only for that transaction
    const after = rowsOf<{ statement_timeout: string }>(await database.db.execute(sql`show statement_timeout`));
    expect(after[0]?.statement_timeout).not.toBe(`${STATEMENT_TIMEOUT_MS / 1000}s`);
  });
});
