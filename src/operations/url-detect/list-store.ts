import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { urlListModels, urlListSources } from '../../../db/schema.js';
import type { Logger } from '../../logger.js';
import type { LoadedFeed } from './detection-lists.js';
import { downloadFeed, type DownloadOptions } from './feed-download.js';
import { LexicalModel, type LexicalModelInfo } from './lexical-model.js';
import { parseFeedAsync, type FeedCategory, type FeedSpec, type ParsedFeed } from './feeds.js';

export interface FeedResult {
  name: string;
  ok: boolean;
  entries: number;
  skipped?: number;
  error?: string;
}

/** A feed's state as `GET /api/v1/url/lists` shows it. */
export interface FeedState {
  name: string;
  category: FeedCategory;
  format: string;
  entries: number;
  skipped: number;
  fetchedAt: Date | null;
  lastAttemptAt: Date | null;
  lastError: string | null;
}

const EXCEPTIONS_MARK = '@@';
const MODEL_NAME = 'lexical-host';
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Downloaded feeds in the database: one row a feed, its entries as one gzip blob. */
export function createListStore(db: Database) {
  return {
    /** The stored feeds with their entries, one at a time (two million entries never sit in memory twice). */
    async *loadFeeds(): AsyncGenerator<LoadedFeed> {
      const names = await db
        .select({ name: urlListSources.name, category: urlListSources.category })
        .from(urlListSources)
        .orderBy(urlListSources.name);
      for (const { name, category } of names) {
        const [row] = await db.select({ entries: urlListSources.entries }).from(urlListSources).where(eq(urlListSources.name, name));
        if (row?.entries) yield { name, category: category as FeedCategory, ...(await unpack(row.entries)) };
      }
    },

    async states(): Promise<FeedState[]> {
      const rows = await db
        .select({
          name: urlListSources.name,
          category: urlListSources.category,
          format: urlListSources.format,
          entries: urlListSources.entryCount,
          skipped: urlListSources.skippedCount,
          fetchedAt: urlListSources.fetchedAt,
          lastAttemptAt: urlListSources.lastAttemptAt,
          lastError: urlListSources.lastError,
        })
        .from(urlListSources)
        .orderBy(urlListSources.name);
      return rows.map((row) => ({ ...row, category: row.category as FeedCategory }));
    },

    /** Changes whenever a feed's entries are stored: running instances compare it to know when to reload. */
    async version(): Promise<string> {
      const [row] = await db
        .select({
          latest: sql<string | null>`max(${urlListSources.fetchedAt})::text`,
          total: sql<number>`coalesce(sum(${urlListSources.entryCount}), 0)::int`,
        })
        .from(urlListSources);
      return `${row?.latest ?? 'none'}/${row?.total ?? 0}`;
    },

    /** When the stored feeds were last refreshed (successfully or not); undefined before the first time. */
    async lastRefresh(): Promise<Date | undefined> {
      const [row] = await db
        .select({ latest: sql<string | null>`max(coalesce(${urlListSources.lastAttemptAt}, ${urlListSources.fetchedAt}))::text` })
        .from(urlListSources);
      return row?.latest ? new Date(row.latest) : undefined;
    },

    /**
     * Downloads each feed and replaces its entries in one statement, so readers see the old
     * list or the new one, never half of it. A failed or empty download keeps the previous
     * entries and records the error; one feed failing does not stop the others.
     */
    async update(feeds: readonly FeedSpec[], options: DownloadOptions & { logger?: Logger; now?: () => Date } = {}): Promise<FeedResult[]> {
      const results: FeedResult[] = [];
      for (const feed of feeds) {
        if (options.signal?.aborted) break;
        const started = Date.now();
        const now = options.now?.() ?? new Date();
        try {
          const parsed = await parseFeedAsync(await downloadFeed(feed.url, options), feed.format);
          if (parsed.entries.size === 0)
            throw new Error(
              parsed.skipped > 0
                ? `no entry could be read (${parsed.skipped} lines skipped, e.g. '${parsed.skippedSamples[0]}')`
                : 'no entries in the feed',
            );
          await storeFeed(db, feed, parsed, now);
          options.logger?.info(
            { feed: feed.name, entries: parsed.entries.size, skipped: parsed.skipped, ms: Date.now() - started },
            'url list stored',
          );
          if (parsed.skipped > 0)
            options.logger?.warn(
              { feed: feed.name, skipped: parsed.skipped, samples: parsed.skippedSamples },
              'url list lines not understood were skipped',
            );
          results.push({ name: feed.name, ok: true, entries: parsed.entries.size, skipped: parsed.skipped });
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          await recordFailure(db, feed, message, now);
          options.logger?.warn({ feed: feed.name, error: message }, 'url list not updated; its previous entries stay');
          results.push({ name: feed.name, ok: false, entries: 0, error: message });
        }
      }
      return results;
    },

    /** The model trained on feed state `version`, if one was saved. */
    async loadModel(version: string): Promise<LexicalModel | undefined> {
      const [row] = await db.select().from(urlListModels).where(eq(urlListModels.name, MODEL_NAME));
      if (!row || row.version !== version) return undefined;
      return LexicalModel.fromBytes(await gunzipAsync(row.weights), JSON.parse(row.info) as LexicalModelInfo);
    },

    async saveModel(version: string, model: LexicalModel): Promise<void> {
      const values = {
        version,
        info: JSON.stringify(model.info),
        weights: await gzipAsync(model.toBytes(), { level: 1 }),
        trainedAt: new Date(),
      };
      await db
        .insert(urlListModels)
        .values({ name: MODEL_NAME, ...values })
        .onConflictDoUpdate({ target: urlListModels.name, set: values });
    },

    /** Drops the feeds that are no longer configured. */
    async prune(keep: readonly string[]): Promise<void> {
      if (keep.length === 0) await db.delete(urlListSources);
      else
        await db.delete(urlListSources).where(
          sql`${urlListSources.name} not in (${sql.join(
            keep.map((name) => sql`${name}`),
            sql`, `,
          )})`,
        );
    },
  };
}

async function storeFeed(db: Database, feed: FeedSpec, parsed: ParsedFeed, now: Date): Promise<void> {
  const source = {
    url: feed.url,
    category: feed.category,
    format: feed.format,
    entryCount: parsed.entries.size,
    skippedCount: parsed.skipped,
    fetchedAt: now,
    lastAttemptAt: now,
    lastError: parsed.skipped > 0 ? `${parsed.skipped} lines not understood were skipped (e.g. '${parsed.skippedSamples[0]}')` : null,
    entries: await pack(parsed),
  };
  await db
    .insert(urlListSources)
    .values({ name: feed.name, ...source })
    .onConflictDoUpdate({ target: urlListSources.name, set: source });
}

async function recordFailure(db: Database, feed: FeedSpec, message: string, now: Date): Promise<void> {
  const error = message.slice(0, 500);
  await db
    .insert(urlListSources)
    .values({
      name: feed.name,
      url: feed.url,
      category: feed.category,
      format: feed.format,
      entryCount: 0,
      lastAttemptAt: now,
      lastError: error,
    })
    .onConflictDoUpdate({ target: urlListSources.name, set: { lastAttemptAt: now, lastError: error } });
}

// zlib's thread pool: compressing tens of MB never holds up requests.
function pack(parsed: ParsedFeed): Promise<Buffer> {
  return gzipAsync([...parsed.entries, EXCEPTIONS_MARK, ...parsed.exceptions].join('\n'), { level: 6 });
}

async function unpack(blob: Buffer): Promise<{ entries: string[]; exceptions: string[] }> {
  const lines = (await gunzipAsync(blob)).toString('utf8').split('\n');
  const mark = lines.lastIndexOf(EXCEPTIONS_MARK);
  return mark === -1 ? { entries: lines, exceptions: [] } : { entries: lines.slice(0, mark), exceptions: lines.slice(mark + 1) };
}

export type ListStore = ReturnType<typeof createListStore>;

/** Arbitrary constant shared by every instance: one feed refresh at a time on one PostgreSQL. */
const REFRESH_LOCK_ID = 1_902_026;

export interface RefreshLock {
  /** Runs `work` holding the lock; undefined without running it when another holder has it. */
  run<T>(work: () => Promise<T>): Promise<T | undefined>;
}

/**
 * On PostgreSQL a transaction-scoped advisory lock, held by one pooled connection while the
 * feeds download and are stored through others; it is released when the work ends or the
 * process dies. PGlite belongs to one process (the data directory is locked), so the
 * in-process single flight in url-detection.ts is enough there.
 */
export function createRefreshLock(db: Database, kind: 'pglite' | 'postgres'): RefreshLock {
  if (kind === 'pglite') return { run: (work) => work() };
  return {
    async run<T>(work: () => Promise<T>): Promise<T | undefined> {
      return db.transaction(async (tx) => {
        const result = await tx.execute(sql`select pg_try_advisory_xact_lock(${REFRESH_LOCK_ID}) as locked`);
        const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { locked: boolean }[];
        return rows[0]?.locked ? work() : undefined;
      });
    },
  };
}
