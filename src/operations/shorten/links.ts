import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { linkClicks, shortLinks } from '../../../db/schema.js';
import { rawRows } from '../../../db/rows.js';
import { randomBase62, sha256 } from '../../platform/secrets.js';

export interface ShortLink {
  id: number;
  accountId: number;
  code: string;
  url: string;
  createdAt: Date;
}

export interface LinkStoreOptions {
  /** Draws a new code; a CSPRNG over [0-9A-Za-z] unless a test injects collisions. */
  generateCode?: () => string;
  /** Attempts before giving up; 62^5 ≈ 9·10^8 codes make a second attempt already rare. */
  maxAttempts?: number;
}

export class CodeSpaceExhaustedError extends Error {}

const INSERT_LINK = `insert into short_links (account_id, code, url, url_hash) values ($1::int, $2::text, $3::text, $4::text)
  on conflict do nothing returning id, account_id as "accountId", code, url, created_at as "createdAt"`;

/** Short links in the database. Codes are never deleted, so never reused. */
export function createLinkStore(db: Database, options: LinkStoreOptions = {}) {
  const generateCode = options.generateCode ?? (() => randomBase62(5));
  const maxAttempts = options.maxAttempts ?? 8;

  async function findByAccountUrl(accountId: number, urlHash: string): Promise<ShortLink | undefined> {
    const [row] = await db
      .select()
      .from(shortLinks)
      .where(and(eq(shortLinks.accountId, accountId), eq(shortLinks.urlHash, urlHash)));
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
        // On the driver, prepared: one insert per shorten, and drizzle's query building cost as much as the insert.
        const [inserted] = await rawRows<ShortLink>(db, INSERT_LINK, [accountId, generateCode(), url, urlHash]);
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
