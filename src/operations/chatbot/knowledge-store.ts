import { rowsOf } from '../../../db/rows.js';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { knowledgeChunks, knowledgeEntries, knowledgeStats } from '../../../db/schema.js';
import { toTsvectorLiteral, tokenize } from './tokenize.js';

export interface KnowledgeEntry {
  id: number;
  content: string;
  createdAt: Date;
}

/** One entry to store: its text, its chunks, and (when an embedding model is set) one vector per chunk. */
export interface NewEntry {
  content: string;
  chunks: string[];
  embeddings?: number[][];
}

export class EntryLimitError extends Error {}


export function unitVector(vector: number[]): number[] {
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/**
 * The chatbot's knowledge in the database, always scoped to one account. Each write also
 * updates the account's totals row in the same transaction: the entry limit is checked by
 * that single upsert (so concurrent `index` calls cannot overshoot it), and BM25 reads N and
 * the average chunk length from it instead of counting 100,000 rows per question.
 */
export function createKnowledgeStore(db: Database, options: { maxEntries: number }) {
  return {
    maxEntries: options.maxEntries,

    /** Stores entries (one transaction); throws EntryLimitError when the account would pass the limit. */
    async add(accountId: number, entries: NewEntry[]): Promise<KnowledgeEntry[]> {
      if (entries.length === 0) return [];
      const prepared = entries.map((entry) => ({
        ...entry,
        pieces: entry.chunks.map((chunk) => {
          const tokens = tokenize(chunk);
          return { content: chunk, tokens: toTsvectorLiteral(tokens), tokenCount: tokens.length };
        }),
      }));
      const chunkCount = prepared.reduce((sum, entry) => sum + entry.pieces.length, 0);
      const tokenTotal = prepared.reduce((sum, entry) => sum + entry.pieces.reduce((s, piece) => s + piece.tokenCount, 0), 0);
      if (entries.length > options.maxEntries) throw new EntryLimitError();

      return db.transaction(async (tx) => {
        const counted = await tx
          .insert(knowledgeStats)
          .values({ accountId, entryCount: entries.length, chunkCount, tokenTotal })
          .onConflictDoUpdate({
            target: knowledgeStats.accountId,
            set: {
              entryCount: sql`${knowledgeStats.entryCount} + excluded.entry_count`,
              chunkCount: sql`${knowledgeStats.chunkCount} + excluded.chunk_count`,
              tokenTotal: sql`${knowledgeStats.tokenTotal} + excluded.token_total`,
            },
            setWhere: sql`${knowledgeStats.entryCount} + excluded.entry_count <= ${options.maxEntries}`,
          })
          .returning({ entryCount: knowledgeStats.entryCount });
        if (counted.length === 0) throw new EntryLimitError();

        const stored = await tx
          .insert(knowledgeEntries)
          .values(prepared.map((entry) => ({ accountId, content: entry.content })))
          .returning({ id: knowledgeEntries.id, content: knowledgeEntries.content, createdAt: knowledgeEntries.createdAt });
        const chunkRows = prepared.flatMap((entry, i) =>
          entry.pieces.map((piece, ordinal) => {
            const embedding = entry.embeddings?.[ordinal];
            return {
              entryId: stored[i]!.id,
              accountId,
              ordinal,
              content: piece.content,
              tokens: piece.tokens,
              tokenCount: piece.tokenCount,
              embedding: embedding ? unitVector(embedding) : null,
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

    /** The account's entries, newest first, and how many it has. */
    async list(accountId: number, offset: number, limit: number): Promise<{ entries: KnowledgeEntry[]; total: number }> {
      const entries = await db
        .select({ id: knowledgeEntries.id, content: knowledgeEntries.content, createdAt: knowledgeEntries.createdAt })
        .from(knowledgeEntries)
        .where(eq(knowledgeEntries.accountId, accountId))
        .orderBy(desc(knowledgeEntries.id))
        .offset(offset)
        .limit(limit);
      const [stats] = await db.select({ total: knowledgeStats.entryCount }).from(knowledgeStats).where(eq(knowledgeStats.accountId, accountId));
      return { entries, total: stats?.total ?? 0 };
    },

    /** Removes one of the account's entries; false when the account has no entry with that id. */
    async remove(accountId: number, id: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        // Chunks first: the entry's cascade would otherwise remove them before we count them.
        const gone = await tx
          .delete(knowledgeChunks)
          .where(and(eq(knowledgeChunks.entryId, id), eq(knowledgeChunks.accountId, accountId)))
          .returning({ tokenCount: knowledgeChunks.tokenCount });
        const [entry] = await tx
          .delete(knowledgeEntries)
          .where(and(eq(knowledgeEntries.id, id), eq(knowledgeEntries.accountId, accountId)))
          .returning({ id: knowledgeEntries.id });
        if (!entry) return false;
        const tokens = gone.reduce((sum, row) => sum + row.tokenCount, 0);
        await tx
          .update(knowledgeStats)
          .set({
            entryCount: sql`${knowledgeStats.entryCount} - 1`,
            chunkCount: sql`${knowledgeStats.chunkCount} - ${gone.length}`,
            tokenTotal: sql`${knowledgeStats.tokenTotal} - ${tokens}`,
          })
          .where(eq(knowledgeStats.accountId, accountId));
        return true;
      });
    },

    /** Removes all of the account's entries; returns how many there were. */
    async clear(accountId: number): Promise<number> {
      return db.transaction(async (tx) => {
        await tx.delete(knowledgeChunks).where(eq(knowledgeChunks.accountId, accountId));
        const [removed] = await tx.select({ n: count() }).from(knowledgeEntries).where(eq(knowledgeEntries.accountId, accountId));
        await tx.delete(knowledgeEntries).where(eq(knowledgeEntries.accountId, accountId));
        await tx.update(knowledgeStats).set({ entryCount: 0, chunkCount: 0, tokenTotal: 0 }).where(eq(knowledgeStats.accountId, accountId));
        return removed?.n ?? 0;
      });
    },
  };
}

export type KnowledgeStore = ReturnType<typeof createKnowledgeStore>;
