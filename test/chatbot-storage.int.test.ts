import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { accounts } from '../db/schema.js';
import { createAccountGate } from '../src/operations/chatbot/account-gate.js';
import { rowsOf } from '../db/rows.js';
import { createKnowledgeStore } from '../src/operations/chatbot/knowledge-store.js';
import { AppError } from '../src/errors.js';
import { generateDistractors } from './data/chatbot-eval.js';
import { testMemoryPglite } from './helpers/memory-pglite.js';

/** Storage cost of knowledge (issue #18 item 10) and per-account turns (item 2), on embedded PGlite. */
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openDatabase({ dataDir: 'memory://', memoryPglite: testMemoryPglite() });
});
afterAll(async () => database?.close());

async function knowledgeBytes(): Promise<number> {
  const [row] = rowsOf<{ bytes: number }>(
    await database.db.execute(
      sql`select sum(pg_total_relation_size(oid))::float8 as bytes from pg_class where relname in ('knowledge_entries', 'knowledge_chunks', 'knowledge_stats')`,
    ),
  );
  return Number(row?.bytes ?? 0);
}

describe('knowledge storage', () => {
  it('stores knowledge in at most 10 bytes per character (text, search index and totals together)', async () => {
    const [account] = await database.db.insert(accounts).values({ email: 'storage@example.com' }).returning();
    const store = createKnowledgeStore(database.db, { maxEntries: 10_000, maxChars: 10_000_000 });
    // Long entries (about 6,000 characters each) of short Korean and English notices.
    const texts = Array.from({ length: 20 }, (_, i) => generateDistractors(60, 100 + i).join('\n'));
    const chars = texts.reduce((sum, text) => sum + [...text].length, 0);
    const before = await knowledgeBytes();
    for (const content of texts) await store.add(account!.id, [{ content }]);
    const perChar = ((await knowledgeBytes()) - before) / chars;
    // Before: chunks repeated the entry's text and the GIN index kept an uncompressed pending list (19 bytes a character on this text, 26 on Wikipedia prose).
    console.log(`knowledge storage: ${perChar.toFixed(1)} bytes per character`);
    expect(perChar).toBeLessThan(10);
    await database.db.delete(accounts).where(eq(accounts.id, account!.id));
  });
});

describe('per-account turns', () => {
  it('runs two calls of an account at once, queues a few more, refuses the rest with 429, and leaves other accounts alone', async () => {
    const gate = createAccountGate({ concurrent: 2, queued: 1 });
    const releases: Array<() => void> = [];
    const hold = () => new Promise<void>((resolve) => releases.push(resolve));
    const first = gate.run(1, hold);
    const second = gate.run(1, hold);
    const queued = gate.run(1, async () => 'queued');
    expect(gate.running(1)).toBe(2);
    const refused = await gate.run(1, async () => 'too many').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 429, retryAfterSeconds: 1 });
    expect((refused as AppError).message).toContain('잠시 후 다시 시도하세요');
    expect(await gate.run(2, async () => 'other account')).toBe('other account');
    releases.shift()!();
    await first;
    expect(await queued).toBe('queued');
    releases.shift()!();
    await second;
    expect(gate.running(1)).toBe(0);
  });
});
