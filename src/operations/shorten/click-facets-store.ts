import { createHmac, randomBytes } from 'node:crypto';
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { arrayLiteral, rawRows } from '../../../db/rows.js';
import { linkClickFacets, linkVisitors, linkVisitorSalts } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import { addDays, seoulDate } from '../../seoul-time.js';
import type { GeoLookup } from '../../providers/geoip.js';
import { agentFamilies, type AgentFamilies } from './user-agent.js';
import { boundedCache } from '../../bounded-cache.js';

export interface FacetClick {
  linkId: number;
  userAgent?: string | undefined;
  /** The visitor's address: looked up for the country and hashed for unique visitors, never stored. */
  ip?: string | undefined;
  /** Opened through the link's QR code (`?qr=1`). */
  qr: boolean;
  isBot: boolean;
}

/** Distinct values one facet of one link may get per day (per instance); further ones are pooled. */
export const MAX_FACET_VALUES = 50;
export const OTHER_VALUE = '(other)';
/** Unique visitors remembered per link and day; beyond it they are still clicks, no longer told apart. */
export const MAX_VISITORS_PER_LINK_DAY = 100_000;

const UPSERT_FACETS = `insert into link_click_facets (link_id, day, facet, value, is_bot, clicks)
  select * from unnest($1::int[], $2::date[], $3::text[], $4::text[], $5::bool[], $6::int[])
  on conflict (link_id, day, facet, value, is_bot) do update set clicks = link_click_facets.clicks + excluded.clicks`;

/** New visitor hashes, and in the same statement the day's `visitors` count raised by those that were new. */
const INSERT_VISITORS = `with fresh as (
    insert into link_visitors (link_id, day, visitor)
    select * from unnest($1::int[], $2::date[], $3::text[]) on conflict do nothing returning link_id, day)
  insert into link_click_facets (link_id, day, facet, value, is_bot, clicks)
  select link_id, day, 'visitors', '', false, count(*)::int from fresh group by link_id, day
  on conflict (link_id, day, facet, value, is_bot) do update set clicks = link_click_facets.clicks + excluded.clicks`;

/**
 * Issue 36's honest statistics beside the minute rollups (clicks.ts): per link and Seoul day,
 * how clicks came (QR code or direct), the device, OS and browser families of people (bowser),
 * their country (`GEOIP_DB`, when the operator gives one), and unique visitors.
 *
 * A visitor is an HMAC-SHA256 of address and User-Agent under a random salt of the day, shared
 * by the instances through the database; the address itself is never written. The salt and the
 * hashes are deleted once the day is over (yesterday's are kept for late flushes), so a hash can
 * never be tied to an address afterwards. Counts are buffered and written once a second.
 */
export function createFacetRecorder(
  db: Database,
  logger: Logger,
  options: { clock: Clock; geo?: GeoLookup | undefined; flushIntervalMs?: number; maxKeys?: number },
) {
  const maxKeys = options.maxKeys ?? 50_000;
  const families = boundedCache<string, AgentFamilies>(5_000);
  /** Values already used per link, day and facet. */
  const usedValues = boundedCache<string, Set<string>>(20_000);
  const visitorsSeen = boundedCache<string, number>(20_000);
  const salts = new Map<string, string>();
  let pending = new Map<string, { linkId: number; day: string; facet: string; value: string; isBot: boolean; clicks: number }>();
  /** link|day → the raw `address|agent` of new visitors, hashed at the flush (kept in memory only until then). */
  let visitors = new Map<string, Set<string>>();
  let flushing: Promise<void> = Promise.resolve();
  let purgedDay = '';

  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 1000);
  timer.unref();

  function count(linkId: number, day: string, facet: string, rawValue: string, isBot: boolean): void {
    const budgetKey = `${linkId}|${day}|${facet}`;
    let used = usedValues.get(budgetKey);
    if (!used) usedValues.set(budgetKey, (used = new Set()));
    let value = rawValue;
    if (!used.has(value)) {
      if (used.size < MAX_FACET_VALUES) used.add(value);
      else value = OTHER_VALUE;
    }
    const key = `${budgetKey}|${value}|${isBot}`;
    const existing = pending.get(key);
    if (existing) existing.clicks++;
    else if (pending.size < maxKeys) pending.set(key, { linkId, day, facet, value, isBot, clicks: 1 });
  }

  async function saltOf(day: string): Promise<string> {
    const known = salts.get(day);
    if (known) return known;
    await db
      .insert(linkVisitorSalts)
      .values({ day, salt: randomBytes(32).toString('base64url') })
      .onConflictDoNothing();
    const [row] = await db.select().from(linkVisitorSalts).where(eq(linkVisitorSalts.day, day));
    if (!row) throw new Error('visitor salt missing');
    salts.set(day, row.salt);
    return row.salt;
  }

  async function writeVisitors(batch: Map<string, Set<string>>): Promise<void> {
    const linkIds: number[] = [];
    const days: string[] = [];
    const hashes: string[] = [];
    for (const [key, raws] of batch) {
      const [linkId, day] = key.split('|') as [string, string];
      const salt = await saltOf(day);
      for (const raw of raws) {
        linkIds.push(Number(linkId));
        days.push(day);
        hashes.push(createHmac('sha256', salt).update(raw).digest('base64url'));
      }
    }
    for (let i = 0; i < hashes.length; i += 1000) {
      await rawRows(db, INSERT_VISITORS, [
        arrayLiteral(linkIds.slice(i, i + 1000)),
        arrayLiteral(days.slice(i, i + 1000)),
        arrayLiteral(hashes.slice(i, i + 1000)),
      ]);
    }
  }

  /** Yesterday's hashes stay for late flushes; anything older goes, with its salt. */
  async function purge(today: string): Promise<void> {
    if (purgedDay === today) return;
    const keepFrom = addDays(today, -1);
    await db.delete(linkVisitors).where(lt(linkVisitors.day, keepFrom));
    await db.delete(linkVisitorSalts).where(lt(linkVisitorSalts.day, keepFrom));
    for (const day of salts.keys()) if (day < keepFrom) salts.delete(day);
    purgedDay = today;
  }

  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      const counts = [...pending.values()];
      const batch = visitors;
      pending = new Map();
      visitors = new Map();
      try {
        for (let i = 0; i < counts.length; i += 1000) {
          const part = counts.slice(i, i + 1000);
          await rawRows(db, UPSERT_FACETS, [
            arrayLiteral(part.map((row) => row.linkId)),
            arrayLiteral(part.map((row) => row.day)),
            arrayLiteral(part.map((row) => row.facet)),
            arrayLiteral(part.map((row) => row.value)),
            `{${part.map((row) => (row.isBot ? 't' : 'f')).join(',')}}`,
            arrayLiteral(part.map((row) => row.clicks)),
          ]);
        }
        if (batch.size > 0) await writeVisitors(batch);
        await purge(seoulDate(options.clock()));
      } catch (error) {
        // Statistics are best effort: a lost batch must not take the redirect down.
        logger.warn({ err: error }, 'click statistics not recorded');
      }
    });
    return flushing;
  }

  return {
    record(click: FacetClick): void {
      const day = seoulDate(options.clock());
      count(click.linkId, day, 'source', click.qr ? 'qr' : 'direct', click.isBot);
      if (click.isBot) return;
      const ua = click.userAgent ?? '';
      let family = families.get(ua);
      if (!family) families.set(ua, (family = agentFamilies(click.userAgent)));
      count(click.linkId, day, 'device', family.device, false);
      count(click.linkId, day, 'os', family.os, false);
      count(click.linkId, day, 'browser', family.browser, false);
      if (options.geo && click.ip) count(click.linkId, day, 'country', options.geo.country(click.ip) ?? 'unknown', false);
      if (click.ip) {
        const key = `${click.linkId}|${day}`;
        const seen = visitorsSeen.get(key) ?? 0;
        if (seen >= MAX_VISITORS_PER_LINK_DAY) return;
        let raws = visitors.get(key);
        if (!raws) {
          if (visitors.size >= maxKeys) return;
          visitors.set(key, (raws = new Set()));
        }
        const raw = `${click.ip}|${ua}`;
        if (!raws.has(raw)) {
          raws.add(raw);
          visitorsSeen.set(key, seen + 1);
        }
      }
    },
    flush,
    async stop(): Promise<void> {
      clearInterval(timer);
      await flush();
    },

    /** Per facet, the link's values by clicks (people only, except `source`), and daily visitors and QR scans. */
    async stats(linkId: number) {
      await flush();
      const rows = await db
        .select({
          day: linkClickFacets.day,
          facet: linkClickFacets.facet,
          value: linkClickFacets.value,
          isBot: linkClickFacets.isBot,
          clicks: linkClickFacets.clicks,
        })
        .from(linkClickFacets)
        .where(and(eq(linkClickFacets.linkId, linkId)))
        .orderBy(linkClickFacets.day, desc(linkClickFacets.clicks));
      return rows.map((row) => ({ ...row, day: String(row.day).slice(0, 10) }));
    },
  };
}

export type FacetRecorder = ReturnType<typeof createFacetRecorder>;

/** Referrer hosts of people's clicks, from the minute rollups, most first. */
export async function referrerHosts(db: Database, linkId: number): Promise<Array<{ host: string; clicks: number }>> {
  const rows = await rawRows<{ host: string; clicks: number }>(
    db,
    `select referrer_host as host, sum(clicks)::int as clicks from link_click_counts
     where link_id = $1 and not is_bot group by referrer_host order by 2 desc, 1 limit 50`,
    [linkId],
  );
  return rows.map((row) => ({ host: row.host, clicks: Number(row.clicks) }));
}
