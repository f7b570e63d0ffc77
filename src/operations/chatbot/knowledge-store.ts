import { and, count, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { knowledgeChunks, knowledgeEntries, knowledgeStats } from '../../../db/schema.js';
import { chunkSpans, type Span } from './chunk.js';
import { toTsvectorLiteral, tokenize } from './tokenize.js';

export interface KnowledgeEntry {
  id: number;
  content: string;
  createdAt: Date;
  source: string | null;
  sourceUrl: string | null;
  scope: string | null;
}

/** Entries that may answer where these scopes are: the common ones (no scope) and those of the scopes. */
export function inScopes(column: typeof knowledgeEntries.scope | typeof knowledgeChunks.scope, scopes: readonly string[]): SQL {
  return scopes.length === 0 ? isNull(column) : or(isNull(column), inArray(column, [...scopes]))!;
}

/** One entry to store: its text, its chunks (spans of the text; chunked here when absent) and, with an embedding model, one vector per chunk. */
export interface NewEntry {
  content: string;
  chunks?: Span[];
  embeddings?: number[][];
  source?: string;
  sourceUrl?: string;
  /** Null or absent: common to the whole account. */
  scope?: string;
}

export interface KnowledgeLimits {
  /** Entries per account. */
  maxEntries: number;
  /** Characters of all entries of an account together. */
  maxChars: number;
}

/** The account would pass one of its limits: which one, and the limit. */
export class KnowledgeLimitError extends Error {
  constructor(
    readonly limit: 'entries' | 'chars',
    readonly max: number,
  ) {
    super(`knowledge ${limit} limit ${max}`);
  }
}

export function unitVector(vector: number[]): number[] {
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/** Characters as the limit counts them (code points, as PostgreSQL's char_length). */
function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * The chatbot's knowledge in the database, always scoped to one account. Every write first
 * takes the account's totals row (upsert or `FOR UPDATE`), so the writers of one account run
 * one after another: the limits are checked by that single upsert (concurrent `index` calls
 * cannot overshoot them), and `clear` racing `index` cannot leave the counts off the rows.
 * BM25 reads N and the average chunk length from the same row instead of counting rows.
 */
const ENTRY_COLUMNS = {
  id: knowledgeEntries.id,
  content: knowledgeEntries.content,
  createdAt: knowledgeEntries.createdAt,
  source: knowledgeEntries.source,
  sourceUrl: knowledgeEntries.sourceUrl,
  scope: knowledgeEntries.scope,
};

export function createKnowledgeStore(db: Database, limits: KnowledgeLimits) {
  /**
   * Locks the account's totals row for the transaction, making it first when there is none: a
   * `clear` that found no row to lock went on without waiting, and deadlocked on PostgreSQL with
   * the `index` calls whose upsert created the row meanwhile.
   */
  const lockTotals = async (tx: Pick<Database, 'execute'>, accountId: number) => {
    await tx.execute(sql`insert into knowledge_stats (account_id) values (${accountId}) on conflict (account_id) do nothing`);
    await tx.execute(sql`select 1 from knowledge_stats where account_id = ${accountId} for update`);
  };

  return {
    limits,

    /** Stores entries (one transaction); throws KnowledgeLimitError when the account would pass a limit. */
    async add(accountId: number, entries: NewEntry[]): Promise<KnowledgeEntry[]> {
      if (entries.length === 0) return [];
      const prepared = entries.map((entry) => ({
        ...entry,
        chars: charCount(entry.content),
        pieces: (entry.chunks ?? chunkSpans(entry.content)).map((span) => {
          const tokens = tokenize(entry.content.slice(span.start, span.end));
          return { ...span, tokens: toTsvectorLiteral(tokens), tokenCount: tokens.length };
        }),
      }));
      const chunkCount = prepared.reduce((sum, entry) => sum + entry.pieces.length, 0);
      const tokenTotal = prepared.reduce((sum, entry) => sum + entry.pieces.reduce((s, piece) => s + piece.tokenCount, 0), 0);
      const charTotal = prepared.reduce((sum, entry) => sum + entry.chars, 0);
      if (entries.length > limits.maxEntries) throw new KnowledgeLimitError('entries', limits.maxEntries);
      if (charTotal > limits.maxChars) throw new KnowledgeLimitError('chars', limits.maxChars);

      return db.transaction(async (tx) => {
        const counted = await tx
          .insert(knowledgeStats)
          .values({ accountId, entryCount: entries.length, chunkCount, tokenTotal, charTotal })
          .onConflictDoUpdate({
            target: knowledgeStats.accountId,
            set: {
              entryCount: sql`${knowledgeStats.entryCount} + excluded.entry_count`,
              chunkCount: sql`${knowledgeStats.chunkCount} + excluded.chunk_count`,
              tokenTotal: sql`${knowledgeStats.tokenTotal} + excluded.token_total`,
              charTotal: sql`${knowledgeStats.charTotal} + excluded.char_total`,
            },
            setWhere: sql`${knowledgeStats.entryCount} + excluded.entry_count <= ${limits.maxEntries} and ${knowledgeStats.charTotal} + excluded.char_total <= ${limits.maxChars}`,
          })
          .returning({ entryCount: knowledgeStats.entryCount });
        if (counted.length === 0) {
          const [stats] = await tx.select().from(knowledgeStats).where(eq(knowledgeStats.accountId, accountId));
          const full = (stats?.entryCount ?? 0) + entries.length > limits.maxEntries;
          throw full ? new KnowledgeLimitError('entries', limits.maxEntries) : new KnowledgeLimitError('chars', limits.maxChars);
        }

        const stored = await tx
          .insert(knowledgeEntries)
          .values(
            prepared.map((entry) => ({
              accountId,
              content: entry.content,
              source: entry.source ?? null,
              sourceUrl: entry.sourceUrl ?? null,
              scope: entry.scope ?? null,
            })),
          )
          .returning(ENTRY_COLUMNS);
        const chunkRows = prepared.flatMap((entry, i) =>
          entry.pieces.map((piece, ordinal) => {
            const embedding = entry.embeddings?.[ordinal];
            return {
              entryId: stored[i]!.id,
              accountId,
              ordinal,
              start: piece.start,
              end: piece.end,
              tokens: piece.tokens,
              tokenCount: piece.tokenCount,
              embedding: embedding ? unitVector(embedding) : null,
              scope: entry.scope ?? null,
            };
          }),
        );
        // Bounded batches: one statement's parameters stay far below PostgreSQL's 65,535.
        for (let start = 0; start < chunkRows.length; start += 1000) {
          await tx.insert(knowledgeChunks).values(chunkRows.slice(start, start + 1000));
        }
        return stored;
      });
    },

    /** The account's entries, newest first, and how many it has; with `scopes`, only those that may answer there. */
    async list(
      accountId: number,
      offset: number,
      limit: number,
      scopes?: readonly string[],
    ): Promise<{ entries: KnowledgeEntry[]; total: number }> {
      const where = scopes
        ? and(eq(knowledgeEntries.accountId, accountId), inScopes(knowledgeEntries.scope, scopes))
        : eq(knowledgeEntries.accountId, accountId);
      const entries = await db
        .select(ENTRY_COLUMNS)
        .from(knowledgeEntries)
        .where(where)
        .orderBy(desc(knowledgeEntries.id))
        .offset(offset)
        .limit(limit);
      if (scopes) {
        const [counted] = await db.select({ n: count() }).from(knowledgeEntries).where(where);
        return { entries, total: counted?.n ?? 0 };
      }
      const [stats] = await db
        .select({ total: knowledgeStats.entryCount })
        .from(knowledgeStats)
        .where(eq(knowledgeStats.accountId, accountId));
      return { entries, total: stats?.total ?? 0 };
    },

    /** The texts of some of the account's entries, by id. */
    async contents(accountId: number, ids: number[]): Promise<Map<number, string>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: knowledgeEntries.id, content: knowledgeEntries.content })
        .from(knowledgeEntries)
        .where(and(eq(knowledgeEntries.accountId, accountId), inArray(knowledgeEntries.id, ids)));
      return new Map(rows.map((row) => [row.id, row.content]));
    },

    /** Source names and links of some of the account's entries, by id. */
    async sources(accountId: number, ids: number[]): Promise<Map<number, { source: string | null; url: string | null }>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .select({ id: knowledgeEntries.id, source: knowledgeEntries.source, url: knowledgeEntries.sourceUrl })
        .from(knowledgeEntries)
        .where(and(eq(knowledgeEntries.accountId, accountId), inArray(knowledgeEntries.id, ids)));
      return new Map(rows.map((row) => [row.id, { source: row.source, url: row.url }]));
    },

    /** Removes one of the account's entries; false when the account has no entry with that id. */
    async remove(accountId: number, id: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        await lockTotals(tx, accountId);
        // Chunks first: the entry's cascade would otherwise remove them before we count them.
        const gone = await tx
          .delete(knowledgeChunks)
          .where(and(eq(knowledgeChunks.entryId, id), eq(knowledgeChunks.accountId, accountId)))
          .returning({ tokenCount: knowledgeChunks.tokenCount });
        const [entry] = await tx
          .delete(knowledgeEntries)
          .where(and(eq(knowledgeEntries.id, id), eq(knowledgeEntries.accountId, accountId)))
          .returning({ content: knowledgeEntries.content });
        if (!entry) return false;
        const tokens = gone.reduce((sum, row) => sum + row.tokenCount, 0);
        await tx
          .update(knowledgeStats)
          .set({
            entryCount: sql`${knowledgeStats.entryCount} - 1`,
            chunkCount: sql`${knowledgeStats.chunkCount} - ${gone.length}`,
            tokenTotal: sql`${knowledgeStats.tokenTotal} - ${tokens}`,
            charTotal: sql`${knowledgeStats.charTotal} - ${charCount(entry.content)}`,
          })
          .where(eq(knowledgeStats.accountId, accountId));
        return true;
      });
    },

    /**
     * Removes all of the account's entries; returns how many there were. The totals row is
     * locked first: an `index` in flight commits before, and its rows are then seen and removed.
     */
    async clear(accountId: number): Promise<number> {
      return db.transaction(async (tx) => {
        await lockTotals(tx, accountId);
        const [removed] = await tx.select({ n: count() }).from(knowledgeEntries).where(eq(knowledgeEntries.accountId, accountId));
        await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.accountId, accountId));
        await tx.delete(knowledgeEntries).where(eq(knowledgeEntries.accountId, accountId));
        await tx
          .update(knowledgeStats)
          .set({ entryCount: 0, chunkCount: 0, tokenTotal: 0, charTotal: 0 })
          .where(eq(knowledgeStats.accountId, accountId));
        return removed?.n ?? 0;
      });
    },
  };
}

export type KnowledgeStore = ReturnType<typeof createKnowledgeStore>;
