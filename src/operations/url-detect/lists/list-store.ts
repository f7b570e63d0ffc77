import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../../db/client.js';
import { urlListChunks, urlListModels, urlListSources } from '../../../../db/schema.js';
import type { Logger } from '../../../logger.js';
import { FeedCompactor, type CompactFeed } from './detection-lists.js';
import { downloadFeed, type DownloadOptions } from './feed-download.js';
import { downloadOdcloudFeed } from './feed-odcloud.js';
import { parseFeedStream } from './feed-parse.js';
import { MAX_LINE_BYTES } from './feed-lines.js';
import { LexicalModel, type LexicalModelInfo } from '../model/lexical-model.js';
import { type FeedCategory, type FeedSpec } from './feeds.js';
import { hashesFromBytes, hashesToBytes } from './list-index.js';

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

const MODEL_NAME = 'lexical-host';
/** The chunks of the saved model's weights (feed names cannot start with '@'). */
const MODEL_CHUNKS = '@model/lexical-host';
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** A stored feed's name and category (what decides whether its training sample is read). */
export interface FeedHead {
  name: string;
  category: FeedCategory;
}

/** Downloaded feeds in the database: one state row a feed, its content as a generation of chunks (sorted hashes, training sample). */
export function createListStore(db: Database) {
  return {
    /**
     * The stored feeds in compact form (sorted hashes; the training sample too when `sample` is
     * true or says so of the feed, given every stored feed's name and category).
     * A feed whose chunks changed while they were read (a refresh switched generations) is
     * read again: never half of one generation and half of another.
     */
    async loadFeeds(
      options: { sample?: boolean | ((feed: FeedHead, feeds: readonly FeedHead[]) => boolean) } = {},
    ): Promise<CompactFeed[]> {
      const rows = await db
        .select({ name: urlListSources.name, category: urlListSources.category, generation: urlListSources.generation })
        .from(urlListSources)
        .orderBy(urlListSources.name);
      const stored = rows.filter((row) => row.generation !== 0).map((row) => ({ name: row.name, category: row.category as FeedCategory }));
      const wanted = options.sample ?? true;
      const feeds: CompactFeed[] = [];
      for (const head of stored) {
        const feed = await readFeed(db, head.name, head.category, typeof wanted === 'function' ? wanted(head, stored) : wanted);
        if (feed) feeds.push(feed);
      }
      return feeds;
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
          generations: sql<number>`coalesce(sum(${urlListSources.generation}), 0)::int`,
        })
        .from(urlListSources);
      return `${row?.latest ?? 'none'}/${row?.total ?? 0}/${row?.generations ?? 0}`;
    },

    /** When the stored feeds were last refreshed (successfully or not); undefined before the first time. */
    async lastRefresh(): Promise<Date | undefined> {
      const [row] = await db
        .select({ latest: sql<string | null>`max(coalesce(${urlListSources.lastAttemptAt}, ${urlListSources.fetchedAt}))::text` })
        .from(urlListSources);
      return row?.latest ? new Date(row.latest) : undefined;
    },

    /**
     * Downloads each feed, parses it in slices straight into sorted hashes, writes them as a new
     * generation and switches the feed to it in one statement, so readers see the old list or
     * the new one, never half of it. A failed or empty download keeps the previous entries and
     * records the error; one feed failing does not stop the others.
     */
    async update(
      feeds: readonly FeedSpec[],
      options: DownloadOptions & { logger?: Logger; now?: () => Date; serviceKey?: string | undefined } = {},
    ): Promise<FeedResult[]> {
      const results: FeedResult[] = [];
      for (const feed of feeds) {
        if (options.signal?.aborted) break;
        const started = Date.now();
        const now = options.now?.() ?? new Date();
        try {
          const parsed = await parseCompact(feed, await downloadBody(feed, options), options.maxBytes);
          if (parsed.entries === 0)
            throw new Error(
              parsed.skipped > 0
                ? `no entry could be read (${parsed.skipped} lines skipped, e.g. '${parsed.skippedSamples[0]}')`
                : parsed.tooLong > 0
                  ? `no entry could be read (${parsed.tooLong} lines longer than ${MAX_LINE_BYTES} bytes)`
                  : 'no entries in the feed',
            );
          await storeFeed(db, feed, parsed, now);
          options.logger?.info(
            { feed: feed.name, entries: parsed.entries, skipped: parsed.skipped, ms: Date.now() - started },
            'url list stored',
          );
          if (parsed.skipped > 0)
            options.logger?.warn(
              { feed: feed.name, skipped: parsed.skipped, samples: parsed.skippedSamples },
              'url list lines not understood were skipped',
            );
          results.push({ name: feed.name, ok: true, entries: parsed.entries, skipped: parsed.skipped });
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
      const stored = JSON.parse(row.weights) as { generation?: number; chunks?: number };
      if (!stored.generation) return undefined;
      const bytes = await readChunks(db, MODEL_CHUNKS, stored.generation, 'weights', stored.chunks ?? 0);
      // Replaced while it was read: the caller trains its own.
      if (!bytes) return undefined;
      const info = JSON.parse(row.info) as LexicalModelInfo;
      // Saved before the training time was kept in the info: the time it was saved.
      info.trainedAt ??= row.trainedAt.toISOString();
      return LexicalModel.fromBytes(await gunzipAsync(bytes), info);
    },

    /** The weights go in chunks like the feeds (tens of MB in one statement would hold PGlite, and the event loop, for a second). */
    async saveModel(version: string, model: LexicalModel): Promise<void> {
      const { generation, counts } = await writeChunks(db, MODEL_CHUNKS, { weights: await gzipAsync(model.toBytes(), { level: 1 }) });
      const values = {
        version,
        info: JSON.stringify(model.info),
        weights: JSON.stringify({ generation, chunks: counts.weights }),
        trainedAt: new Date(),
      };
      await db
        .insert(urlListModels)
        .values({ name: MODEL_NAME, ...values })
        .onConflictDoUpdate({ target: urlListModels.name, set: values });
      await dropOtherGenerations(db, MODEL_CHUNKS, generation);
    },

    /** Drops the feeds that are no longer configured. */
    async prune(keep: readonly string[]): Promise<void> {
      if (keep.length === 0) {
        await db.delete(urlListSources);
        await db.delete(urlListChunks).where(ne(urlListChunks.name, MODEL_CHUNKS));
        return;
      }
      const kept = sql.join(
        keep.map((name) => sql`${name}`),
        sql`, `,
      );
      await db.delete(urlListSources).where(sql`${urlListSources.name} not in (${kept})`);
      await db.delete(urlListChunks).where(sql`${urlListChunks.name} not in (${kept}, ${MODEL_CHUNKS})`);
    },
  };
}

/** A feed's body: one download, or an odcloud data set's pages as CSV (the service key added to the requests only). */
async function downloadBody(feed: FeedSpec, options: DownloadOptions & { serviceKey?: string | undefined }): Promise<Buffer> {
  if (feed.format !== 'odcloud') return downloadFeed(feed.url, options);
  if (!options.serviceKey) throw new Error('DATA_GO_KR_SERVICE_KEY is not set');
  return downloadOdcloudFeed(feed.url, options.serviceKey, options);
}

interface CompactParse {
  compact: CompactFeed;
  entries: number;
  skipped: number;
  skippedSamples: string[];
  tooLong: number;
  ignored: number;
  ignoredSamples: string[];
}

/** Parses a downloaded body straight into sorted hashes and a training sample. */
async function parseCompact(feed: FeedSpec, body: Buffer, maxBytes: number | undefined): Promise<CompactParse> {
  const compactor = new FeedCompactor(feed.name, feed.category);
  const result = { entries: 0, skipped: 0, skippedSamples: [] as string[], tooLong: 0, ignored: 0, ignoredSamples: [] as string[] };
  let entries = 0;
  await parseFeedStream(
    body,
    feed.format,
    {
      entry: (expression) => {
        entries++;
        compactor.add(expression);
      },
      exception: (expression) => compactor.add(expression, true),
      skipped: (line) => {
        result.skipped++;
        if (result.skippedSamples.length < 3) result.skippedSamples.push(line.slice(0, 120));
      },
      tooLong: () => result.tooLong++,
      ignored: (expression) => {
        result.ignored++;
        if (result.ignoredSamples.length < 3 && !result.ignoredSamples.includes(expression)) result.ignoredSamples.push(expression);
      },
    },
    maxBytes,
  );
  const compact = compactor.finish();
  return { ...result, compact, entries: entries === 0 ? 0 : compact.entries };
}

/** Base64 text per chunk: a multiple of 4 characters, so each chunk decodes on its own. */
const CHUNK_CHARS = 1 << 20;

function chunksOf(bytes: Buffer): string[] {
  const text = bytes.toString('base64');
  const out: string[] = [];
  for (let at = 0; at < text.length; at += CHUNK_CHARS) out.push(text.slice(at, at + CHUNK_CHARS));
  return out;
}

type ChunkKind = 'hashes' | 'exceptions' | 'sample' | 'families' | 'shortlinks' | 'weights';

/** Writes a new generation of `name`'s blobs chunk by chunk (short statements, the event loop free in between). */
async function writeChunks(
  db: Database,
  name: string,
  blobs: Partial<Record<ChunkKind, Buffer>>,
): Promise<{ generation: number; counts: Partial<Record<ChunkKind, number>> }> {
  const [latest] = await db
    .select({ generation: sql<number>`coalesce(max(${urlListChunks.generation}), 0)::int` })
    .from(urlListChunks)
    .where(eq(urlListChunks.name, name));
  const [current] = await db.select({ generation: urlListSources.generation }).from(urlListSources).where(eq(urlListSources.name, name));
  const generation = Math.max(latest?.generation ?? 0, current?.generation ?? 0) + 1;
  const counts: Partial<Record<ChunkKind, number>> = {};
  for (const [kind, blob] of Object.entries(blobs) as [ChunkKind, Buffer][]) {
    const chunks = chunksOf(blob);
    counts[kind] = chunks.length;
    for (const [seq, data] of chunks.entries()) {
      await db.insert(urlListChunks).values({ name, generation, kind, seq, data });
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { generation, counts };
}

async function dropOtherGenerations(db: Database, name: string, generation: number): Promise<void> {
  await db.delete(urlListChunks).where(and(eq(urlListChunks.name, name), ne(urlListChunks.generation, generation)));
}

/** A blob of one generation; undefined when its chunks are not all there (a newer generation replaced it). */
async function readChunks(db: Database, name: string, generation: number, kind: ChunkKind, expected: number): Promise<Buffer | undefined> {
  const rows = await db
    .select({ data: urlListChunks.data })
    .from(urlListChunks)
    .where(and(eq(urlListChunks.name, name), eq(urlListChunks.generation, generation), eq(urlListChunks.kind, kind)))
    .orderBy(asc(urlListChunks.seq));
  if (rows.length !== expected) return undefined;
  return Buffer.concat(rows.map((chunk) => Buffer.from(chunk.data, 'base64')));
}

/**
 * Writes the feed's new generation, then switches the feed row to it in one statement (readers
 * see the old content or the new) and drops older generations.
 */
async function storeFeed(db: Database, feed: FeedSpec, parsed: CompactParse, now: Date): Promise<void> {
  const { generation, counts } = await writeChunks(db, feed.name, {
    hashes: hashesToBytes(parsed.compact.hashes),
    exceptions: hashesToBytes(parsed.compact.exceptions),
    sample: await gzipAsync(parsed.compact.sample.join('\n'), { level: 6 }),
    families: await gzipAsync(parsed.compact.families ?? '', { level: 6 }),
    shortlinks: await gzipAsync(parsed.compact.shortLinks ?? '', { level: 6 }),
  });
  const source = {
    url: feed.url,
    category: feed.category,
    format: feed.format,
    entryCount: parsed.entries,
    skippedCount: parsed.skipped,
    fetchedAt: now,
    lastAttemptAt: now,
    lastError: feedNotes(parsed),
    generation,
    chunks: JSON.stringify(counts),
  };
  await db
    .insert(urlListSources)
    .values({ name: feed.name, ...source })
    .onConflictDoUpdate({ target: urlListSources.name, set: source });
  await dropOtherGenerations(db, feed.name, generation);
}

/** One feed's generation, or undefined when it is no longer there (then the caller's next read sees the new one). */
async function readFeed(
  db: Database,
  name: string,
  category: FeedCategory,
  withSample: boolean,
  attempt = 1,
): Promise<CompactFeed | undefined> {
  const [row] = await db
    .select({ generation: urlListSources.generation, chunks: urlListSources.chunks, entries: urlListSources.entryCount })
    .from(urlListSources)
    .where(eq(urlListSources.name, name));
  if (!row) return undefined;
  const expected = JSON.parse(row.chunks) as Partial<Record<ChunkKind, number>>;
  const read = (kind: ChunkKind) => readChunks(db, name, row.generation, kind, expected[kind] ?? 0);
  const hashes = await read('hashes');
  const exceptions = await read('exceptions');
  const sample = withSample ? await read('sample') : Buffer.alloc(0);
  // Needed on every load; a generation stored before families has none (zero chunks).
  const families = await read('families');
  // Likewise the short-code links (learned shorteners): none in a generation stored before them.
  const shortLinks = await read('shortlinks');
  if (!hashes || !exceptions || !sample || !families || !shortLinks) {
    // Switched to a newer generation while it was read: read that one.
    if (attempt >= 5) throw new Error(`url list '${name}' kept changing while it was read`);
    return readFeed(db, name, category, withSample, attempt + 1);
  }
  const hosts = withSample && sample.length > 0 ? (await gunzipAsync(sample)).toString('utf8').split('\n').filter(Boolean) : [];
  const relatives = families.length > 0 ? (await gunzipAsync(families)).toString('utf8') : '';
  return {
    name,
    category,
    entries: row.entries,
    hashes: hashesFromBytes(hashes),
    exceptions: hashesFromBytes(exceptions),
    sample: hosts,
    families: relatives,
    shortLinks: shortLinks.length > 0 ? (await gunzipAsync(shortLinks)).toString('utf8') : '',
  };
}

/** What the lists status says of a stored feed's lines that were left out; null when none were. */
function feedNotes(parsed: CompactParse): string | null {
  const notes: string[] = [];
  if (parsed.skipped > 0) notes.push(`${parsed.skipped} lines not understood were skipped (e.g. '${parsed.skippedSamples[0]}')`);
  if (parsed.tooLong > 0) notes.push(`${parsed.tooLong} lines longer than ${MAX_LINE_BYTES} bytes were skipped`);
  if (parsed.ignored > 0)
    notes.push(`${parsed.ignored} bare URL-shortener roots were ignored, not entries (e.g. ${parsed.ignoredSamples.join(', ')})`);
  return notes.length > 0 ? notes.join('; ') : null;
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
