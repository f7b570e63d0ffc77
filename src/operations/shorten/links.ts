import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { linkClicks, shortLinks } from '../../../db/schema.js';
import { arrayLiteral, rawRows } from '../../../db/rows.js';
import { Batcher } from '../../platform/batcher.js';
import { randomBase62, sha256 } from '../../platform/secrets.js';

export interface ShortLink {
  id: number;
  accountId: number;
  code: string;
  url: string;
  createdAt: Date;
  /** Issue 36/40: absent on a row fresh from the everyday insert (null there). */
  expiresAt?: Date | null;
  maxClicks?: number | null;
  harmCategory?: string | null;
  harmReason?: string | null;
  harmFoundAt?: Date | null;
  scannedAt?: Date | null;
  clicksUsed?: number;
}

export interface LinkStoreOptions {
  /** Draws a new code; a CSPRNG over [0-9A-Za-z] unless a test injects collisions. */
  generateCode?: () => string;
  /** Attempts before giving up; 62^5 ≈ 9·10^8 codes make a second attempt already rare. */
  maxAttempts?: number;
}

export class CodeSpaceExhaustedError extends Error {}

/**
 * The links asked for in one moment, inserted by one statement (one commit instead of one
 * each): a row that hits the (account, url) or the code index is skipped, and its caller looks
 * up the existing link or draws another code.
 */
const INSERT_LINKS = `insert into short_links (account_id, code, url, url_hash)
  select * from unnest($1::int[], $2::text[], $3::text[], $4::text[])
  on conflict do nothing returning id, account_id as "accountId", code, url, created_at as "createdAt"`;

interface NewLink {
  accountId: number;
  code: string;
  url: string;
  urlHash: string;
}

/** Short links in the database. Codes are never deleted, so never reused. */
export function createLinkStore(db: Database, options: LinkStoreOptions = {}) {
  const generateCode = options.generateCode ?? (() => randomBase62(5));
  const maxAttempts = options.maxAttempts ?? 8;

  /** One insert for a batch; each link gets its row, or undefined when it was skipped. */
  async function insertMany(links: NewLink[]): Promise<Array<ShortLink | undefined>> {
    // Codes stand for rows in the answer: a code drawn twice in one batch is drawn again.
    const codes = new Set<string>();
    for (const link of links) {
      while (codes.has(link.code)) link.code = generateCode();
      codes.add(link.code);
    }
    // On the driver, prepared: drizzle's query building cost as much as the insert.
    const rows = await rawRows<ShortLink>(db, INSERT_LINKS, [
      arrayLiteral(links.map((link) => link.accountId)),
      arrayLiteral(links.map((link) => link.code)),
      arrayLiteral(links.map((link) => link.url)),
      arrayLiteral(links.map((link) => link.urlHash)),
    ]);
    const byCode = new Map(rows.map((row) => [row.code, row]));
    return links.map((link) => byCode.get(link.code));
  }
  const inserts = new Batcher(insertMany, 2);

  async function findByAccountUrl(accountId: number, urlHash: string): Promise<ShortLink | undefined> {
    const [row] = await db
      .select()
      .from(shortLinks)
      // Links with an expiry or a click limit are never the shared one (the unique index is partial too).
      .where(
        and(
          eq(shortLinks.accountId, accountId),
          eq(shortLinks.urlHash, urlHash),
          isNull(shortLinks.expiresAt),
          isNull(shortLinks.maxClicks),
        ),
      );
    return row;
  }

  return {
    /**
     * The account's code for a normalized URL, creating it if needed. Race-safe without
     * check-then-insert: the insert either wins, or hits the (account, url) unique index and
     * the existing row is read, or hits the code index and is retried with a new code.
     */
    async getOrCreate(accountId: number, url: string): Promise<{ link: ShortLink; created: boolean }> {
      const urlHash = sha256(url);
      for (let attempt = 0; attempt < maxAttempts; attempt++) {
        const inserted = await inserts.add({ accountId, code: generateCode(), url, urlHash });
        if (inserted) return { link: inserted, created: true };
        const existing = await findByAccountUrl(accountId, urlHash);
        if (existing) return { link: existing, created: false };
        // Otherwise the code was taken: draw another.
      }
      throw new CodeSpaceExhaustedError(`no free short code after ${maxAttempts} attempts`);
    },

    async findByCode(code: string): Promise<ShortLink | undefined> {
      const [row] = await db.select().from(shortLinks).where(eq(shortLinks.code, code));
      return row;
    },

    /** Click totals and a per-day series (dates in Asia/Seoul), newest day last. */
    async clickStats(linkId: number) {
      const day = sql<string>`to_char(${linkClicks.minute} AT TIME ZONE 'Asia/Seoul', 'YYYY-MM-DD')`;
      const rows = await db
        .select({
          date: day,
          total: sql<number>`sum(${linkClicks.clicks})::int`,
          bot: sql<number>`coalesce(sum(${linkClicks.clicks}) filter (where ${linkClicks.isBot}), 0)::int`,
        })
        .from(linkClicks)
        .where(eq(linkClicks.linkId, linkId))
        .groupBy(day)
        .orderBy(day);
      const daily = rows.map((row) => ({ date: row.date, total: row.total, human: row.total - row.bot, bot: row.bot }));
      const total = daily.reduce((sum, row) => sum + row.total, 0);
      const bot = daily.reduce((sum, row) => sum + row.bot, 0);
      return { total, human: total - bot, bot, daily };
    },
  };
}

export type LinkStore = ReturnType<typeof createLinkStore>;
