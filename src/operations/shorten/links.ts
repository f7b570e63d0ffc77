import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { linkClicks, shortLinks } from '../../../db/schema.js';
import { arrayLiteral, rawRows } from '../../../db/rows.js';
import { AppError } from '../../errors.js';
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

const NO_LIMITS = { expiresAt: null, maxClicks: null };

/** An insert refused because the asking call's hold was given back meanwhile. */
const HOLD_GONE = Symbol('hold gone');

/** 503: the call could not be recorded (its hold was given back: this instance was taken for dead), so nothing was made. */
function callNotRecorded(): AppError {
  return new AppError('UNAVAILABLE', '호출을 기록하지 못했습니다. 잠시 후 다시 시도하세요.', {}, 1);
}

/**
 * The links asked for in one moment, inserted by one statement (one commit instead of one
 * each): a row that hits the (account, url) or the code index is skipped, and its caller looks
 * up the existing link or draws another code.
 *
 * The same statement counts each new link's call off its quota hold (quota-hold-store.ts), so a
 * link and its charge commit together: a process killed between the two can leave neither a
 * link nobody paid for nor a charge without its link. A link whose hold is gone (the instance
 * was taken for dead and its holds given back) is not made: its call is answered 503, unpaid.
 * Holds are locked in the order takes and give-backs lock them, so none of them deadlock.
 */
const INSERT_LINKS = `with asked as (
    select * from unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::timestamptz[], $7::int[])
      as t(account_id, code, url, url_hash, hold_id, expires_at, max_clicks)
  ),
  held as (
    select h.id from quota_holds h
    join (select hold_id, count(*) as n from asked where hold_id is not null group by hold_id) wanted on wanted.hold_id = h.id
    where h.units >= wanted.n
    order by h.account_id, h.api, h.renews_at
    for update of h
  ),
  inserted as (
    insert into short_links (account_id, code, url, url_hash, expires_at, max_clicks)
    select account_id, code, url, url_hash, expires_at, max_clicks from asked
    where hold_id is null or hold_id in (select id from held)
    on conflict do nothing
    returning id, account_id, code, url, created_at, expires_at, max_clicks
  ),
  counted as (
    select asked.hold_id, count(*)::int as n from inserted join asked using (code) where asked.hold_id is not null group by asked.hold_id
  ),
  settled as (
    update quota_holds h set units = h.units - counted.n from counted where h.id = counted.hold_id returning h.id
  )
  select id, account_id as "accountId", code, url, created_at as "createdAt", expires_at as "expiresAt", max_clicks as "maxClicks",
    false as "holdGone" from inserted
  union all
  select null, null, code, null, null, null, null, true from asked where hold_id is not null and hold_id not in (select id from held)`;

interface NewLink {
  accountId: number;
  code: string;
  url: string;
  urlHash: string;
  /** The quota hold of the call asking for it: the link's insert counts the call off (see INSERT_LINKS). */
  holdId: string | null;
  /** Issue 36's limits: a link with either is never the account's shared link for its URL. */
  expiresAt: string | null;
  maxClicks: number | null;
}

/** An expiry or a click limit (issue 36). */
export interface LinkLimits {
  expiresAt?: Date | undefined;
  maxClicks?: number | undefined;
}

/** Short links in the database. Codes are never deleted, so never reused. */
export function createLinkStore(db: Database, options: LinkStoreOptions = {}) {
  const generateCode = options.generateCode ?? (() => randomBase62(5));
  const maxAttempts = options.maxAttempts ?? 8;

  /** One insert for a batch; each link gets its row, or undefined when it was skipped. */
  async function insertMany(links: NewLink[]): Promise<Array<ShortLink | typeof HOLD_GONE | undefined>> {
    // Codes stand for rows in the answer: a code drawn twice in one batch is drawn again.
    const codes = new Set<string>();
    for (const link of links) {
      while (codes.has(link.code)) link.code = generateCode();
      codes.add(link.code);
    }
    // On the driver, prepared: drizzle's query building cost as much as the insert.
    const rows = await rawRows<ShortLink & { holdGone: boolean }>(db, INSERT_LINKS, [
      arrayLiteral(links.map((link) => link.accountId)),
      arrayLiteral(links.map((link) => link.code)),
      arrayLiteral(links.map((link) => link.url)),
      arrayLiteral(links.map((link) => link.urlHash)),
      arrayLiteral(links.map((link) => link.holdId)),
      arrayLiteral(links.map((link) => link.expiresAt)),
      arrayLiteral(links.map((link) => link.maxClicks)),
    ]);
    const byCode = new Map(rows.map((row) => [row.code, row]));
    return links.map(({ code }) => {
      const row = byCode.get(code);
      if (!row) return undefined;
      if (row.holdGone) return HOLD_GONE;
      // Raw rows: postgres.js gives this statement's times as text, PGlite as dates.
      const { holdGone: _, createdAt, expiresAt, ...made } = row;
      return { ...made, createdAt: new Date(createdAt), expiresAt: expiresAt == null ? null : new Date(expiresAt) };
    });
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
     * With `holdId` (the asking call's quota hold) a new link's insert also records the call:
     * `created` links are paid for; an existing one's call is settled as usual.
     */
    async getOrCreate(accountId: number, url: string, holdId?: string): Promise<{ link: ShortLink; created: boolean }> {
      const urlHash = sha256(url);
      for (let attempt = 0; attempt < maxAttempts; attempt++) {
        const inserted = await inserts.add({ accountId, code: generateCode(), url, urlHash, holdId: holdId || null, ...NO_LIMITS });
        if (inserted === HOLD_GONE) throw callNotRecorded();
        if (inserted) return { link: inserted, created: true };
        const existing = await findByAccountUrl(accountId, urlHash);
        if (existing) return { link: existing, created: false };
        // Otherwise the code was taken: draw another.
      }
      throw new CodeSpaceExhaustedError(`no free short code after ${maxAttempts} attempts`);
    },

    /**
     * A new link with an expiry or a click limit: never deduplicated, so never shared with an
     * everyday link; with `holdId` its insert records the call, as `getOrCreate`'s does.
     */
    async createLimited(accountId: number, url: string, limits: LinkLimits, holdId?: string): Promise<ShortLink> {
      const urlHash = sha256(url);
      const expiresAt = limits.expiresAt?.toISOString() ?? null;
      const maxClicks = limits.maxClicks ?? null;
      for (let attempt = 0; attempt < maxAttempts; attempt++) {
        const inserted = await inserts.add({ accountId, code: generateCode(), url, urlHash, holdId: holdId || null, expiresAt, maxClicks });
        if (inserted === HOLD_GONE) throw callNotRecorded();
        if (inserted) return inserted;
        // Only the code can collide: draw another.
      }
      throw new CodeSpaceExhaustedError(`no free short code after ${maxAttempts} attempts`);
    },

    /** The account's shared (everyday) link for a normalized URL, if there is one (bulk answers it without a charge). */
    findShared: (accountId: number, url: string) => findByAccountUrl(accountId, sha256(url)),

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
