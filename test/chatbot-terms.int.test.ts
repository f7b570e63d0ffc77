import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { accounts } from '../db/schema.js';
import { createKnowledgeStore } from '../src/operations/chatbot/knowledge-store.js';
import { analyzeQuestion } from '../src/operations/chatbot/question.js';
import { informativeWords, retrieve } from '../src/operations/chatbot/retrieve.js';
import { MAX_QUERY_TERMS } from '../src/operations/chatbot/tokenize.js';
import { eq } from 'drizzle-orm';
import { testDatabaseEnv } from './helpers/app.js';

/** A long question is searched by its rarest terms in the account, not its first ones (PGlite; PostgreSQL with TEST_DB=postgres). */
let database: DatabaseHandle;
beforeAll(async () => {
  const env = testDatabaseEnv();
  database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? 'memory://' });
});
afterAll(async () => database?.close());

describe('query terms of a long question', () => {
  it('keeps the words the knowledge rarely holds, wherever they stand in the question', async () => {
    const [account] = await database.db
      .insert(accounts)
      .values({ email: `terms-${process.pid}-${Date.now()}@example.com` })
      .returning();
    const store = createKnowledgeStore(database.db, { maxEntries: 100, maxChars: 1_000_000 });
    // Forty everyday notice words that every entry but one mentions.
    const common = Array.from({ length: 40 }, (_, i) => String.fromCharCode(0xb098 + i * 28) + String.fromCharCode(0xb2e4 + i * 56));
    const notices = Array.from({ length: 5 }, (_, i) => `${common.join(' ')} 안내 ${i + 1}번입니다.`);
    const fact = '오로라 관측 투어는 매주 금요일 밤 10시에 출발합니다.';
    const [, , factEntry] = await store.add(account!.id, [
      { content: notices[0]! },
      { content: notices[1]! },
      { content: fact },
      ...notices.slice(2).map((content) => ({ content })),
    ]);
    const question = `${common.join(' ')} 그리고 오로라 관측 투어는 언제 출발하나요?`;
    const { words } = analyzeQuestion(question);
    expect(words.flat().length).toBeGreaterThan(MAX_QUERY_TERMS);

    const kept = await informativeWords(database.db, account!.id, words);
    expect(kept.flat().length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
    expect(kept.flat()).toEqual(expect.arrayContaining(['오로', '로라', '관측', '투어', '출발']));
    const { chunks } = await retrieve(database.db, account!.id, kept.flat(), { words: kept });
    expect(chunks[0]?.entryId).toBe(factEntry!.id);
    await database.db.delete(accounts).where(eq(accounts.id, account!.id)); // cascades to its knowledge
  });
});
