import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { urlListEntries, urlListSources } from '../../../db/schema.js';
import type { Logger } from '../../logger.js';
import { entryExpression } from './expressions.js';
import { parseFeed, type FeedSpec } from './feeds.js';
import { expressionHash, HARM_CATEGORIES, ListIndex, type HarmCategory, type ListEntryRef } from './list-index.js';
import { TEAM_LISTS } from './lists/team-lists.js';

const INSERT_BATCH = 5000;

export interface FeedResult {
  name: string;
  ok: boolean;
  entries: number;
  error?: string;
}

/** The shipped team lists as index entries (source `team`). */
export function teamEntries(): ListEntryRef[] {
  return HARM_CATEGORIES.flatMap((category) =>
    TEAM_LISTS[category].flatMap((entry) => {
      const expression = entryExpression(entry);
      return expression ? [{ hash: expressionHash(expression), category, source: 'team' }] : [];
    }),
  );
}

/** Downloaded feeds in the database, and the fetch that refreshes them. */
export function createListStore(db: Database) {
  return {
    /** Team lists plus every stored feed, as one index. */
    async loadIndex(): Promise<ListIndex> {
      const sources = await db.select({ name: urlListSources.name, category: urlListSources.category }).from(urlListSources);
      const categoryOf = new Map(sources.map((s) => [s.name, s.category as HarmCategory]));
      const rows = await db.select({ source: urlListEntries.source, hash: urlListEntries.hash }).from(urlListEntries);
      const feedEntries = rows.flatMap((row) => {
        const category = categoryOf.get(row.source);
        return category ? [{ hash: row.hash, category, source: row.source }] : [];
      });
      return ListIndex.build([...teamEntries(), ...feedEntries]);
    },

    /** Changes whenever a feed is stored: running instances compare it to know when to reload. */
    async version(): Promise<string> {
      const [row] = await db
        .select({ latest: sql<string | null>`max(${urlListSources.fetchedAt})::text`, total: sql<number>`coalesce(sum(${urlListSources.entryCount}), 0)::int` })
        .from(urlListSources);
      return `${row?.latest ?? 'none'}/${row?.total ?? 0}`;
    },

    /**
     * Downloads each feed and replaces its entries in one transaction, so a failed or empty
     * download leaves the previous entries in place. One feed failing does not stop the others.
     */
    async update(feeds: readonly FeedSpec[], options: { fetch?: typeof fetch; logger?: Logger; timeoutMs?: number } = {}): Promise<FeedResult[]> {
      const doFetch = options.fetch ?? fetch;
      const results: FeedResult[] = [];
      for (const feed of feeds) {
        const started = Date.now();
        try {
          const response = await doFetch(feed.url, { signal: AbortSignal.timeout(options.timeoutMs ?? 120_000) });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          const expressions = parseFeed(Buffer.from(await response.arrayBuffer()), feed.format);
          if (expressions.size === 0) throw new Error('no entries in the feed');
          await storeFeed(db, feed, expressions);
          options.logger?.info({ feed: feed.name, entries: expressions.size, ms: Date.now() - started }, 'url list stored');
          results.push({ name: feed.name, ok: true, entries: expressions.size });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          options.logger?.warn({ feed: feed.name, error: message }, 'url list not updated');
          results.push({ name: feed.name, ok: false, entries: 0, error: message });
        }
      }
      return results;
    },
  };
}

async function storeFeed(db: Database, feed: FeedSpec, expressions: Set<string>): Promise<void> {
  const rows = [...expressions].map((expression) => ({ source: feed.name, expression, hash: expressionHash(expression) }));
  await db.transaction(async (tx) => {
    const source = { url: feed.url, category: feed.category, format: feed.format, entryCount: rows.length, fetchedAt: new Date() };
    await tx.insert(urlListSources).values({ name: feed.name, ...source }).onConflictDoUpdate({ target: urlListSources.name, set: source });
    await tx.delete(urlListEntries).where(eq(urlListEntries.source, feed.name));
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await tx.insert(urlListEntries).values(rows.slice(i, i + INSERT_BATCH)).onConflictDoNothing();
    }
  });
}

export type ListStore = ReturnType<typeof createListStore>;
