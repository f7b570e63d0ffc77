import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { rawRows } from '../../../db/rows.js';
import { shortLinks } from '../../../db/schema.js';
import type { ShortLink } from './links.js';

/** Where a link was made from a chat: the channel told when its target turns harmful. */
export interface LinkOrigin {
  platform: 'slack' | 'discord';
  workspaceId: string | undefined;
  channelId: string;
}

export type { LinkLimits } from './links.js';

/** A link claimed by the rescan. */
export interface RescanLink {
  id: number;
  accountId: number;
  code: string;
  url: string;
  originPlatform: string | null;
  originWorkspace: string | null;
  originChannel: string | null;
}

/** One human click taken from a limited link; no row when the link is used up. */
const CONSUME_CLICK = `update short_links set clicks_used = clicks_used + 1
  where id = $1 and max_clicks is not null and clicks_used < max_clicks returning clicks_used`;

/**
 * Live links whose last check is older than the cutoff (or stamped ahead of now by an instance
 * whose clock runs ahead), oldest first, stamped as checked now in the same statement: two
 * instances running the rescan at once take different links.
 */
const CLAIM_FOR_RESCAN = `update short_links set scanned_at = $2::timestamptz where id in (
    select id from short_links
    where harm_category is null and (scanned_at is null or scanned_at < $1::timestamptz or scanned_at > $2::timestamptz)
      and (expires_at is null or expires_at > $2::timestamptz)
      and (max_clicks is null or clicks_used < max_clicks)
    order by scanned_at asc nulls first, id limit $3 for update skip locked)
  returning id, account_id as "accountId", code, url, origin_platform as "originPlatform",
    origin_workspace as "originWorkspace", origin_channel as "originChannel"`;

/**
 * Issue 36 and issue 40 item 6: what the shortener stores beyond SPEC's link, in its own
 * statements (every insert, limited links' too, is links.ts's, which records the call with it):
 * the atomic click counter of `max_clicks`, the chat a link came from, and the rescan's claims
 * and findings.
 */
export function createShortLinkStore(db: Database) {
  return {
    /** Everything the preview page shows of a link. */
    async findPreview(code: string) {
      const [row] = await db.select().from(shortLinks).where(eq(shortLinks.code, code));
      return row;
    },

    /**
     * Takes one click of a limited link in one statement (`clicks_used < max_clicks`): exact
     * however many instances and clicks race. False when the link is used up.
     */
    async consumeClick(linkId: number): Promise<boolean> {
      const rows = await rawRows<{ clicks_used: number }>(db, CONSUME_CLICK, [linkId]);
      return rows.length > 0;
    },

    /** True when a limited link has no click left (bots are answered by this, without taking one). */
    async usedUp(linkId: number): Promise<boolean> {
      const [row] = await db
        .select({ used: sql<boolean>`${shortLinks.clicksUsed} >= ${shortLinks.maxClicks}` })
        .from(shortLinks)
        .where(eq(shortLinks.id, linkId));
      return row?.used === true;
    },

    /** Records the chat a link was made from (the first chat wins; the account must own the link). */
    async setOrigin(accountId: number, codes: string[], origin: LinkOrigin): Promise<void> {
      if (codes.length === 0) return;
      await db
        .update(shortLinks)
        .set({ originPlatform: origin.platform, originWorkspace: origin.workspaceId ?? null, originChannel: origin.channelId })
        .where(and(eq(shortLinks.accountId, accountId), inArray(shortLinks.code, codes), isNull(shortLinks.originChannel)));
    },

    claimForRescan(cutoff: Date, now: Date, limit: number): Promise<RescanLink[]> {
      return rawRows<RescanLink>(db, CLAIM_FOR_RESCAN, [cutoff.toISOString(), now.toISOString(), limit]);
    },

    /** Claims one link now (a click jump), unless it was checked since `since` or is already harmful. */
    async claimOne(linkId: number, since: Date, now: Date): Promise<RescanLink | undefined> {
      const [row] = await db
        .update(shortLinks)
        .set({ scannedAt: now })
        .where(
          and(
            eq(shortLinks.id, linkId),
            isNull(shortLinks.harmCategory),
            sql`(${shortLinks.scannedAt} is null or ${shortLinks.scannedAt} < ${since.toISOString()}::timestamptz)`,
          ),
        )
        .returning({
          id: shortLinks.id,
          accountId: shortLinks.accountId,
          code: shortLinks.code,
          url: shortLinks.url,
          originPlatform: shortLinks.originPlatform,
          originWorkspace: shortLinks.originWorkspace,
          originChannel: shortLinks.originChannel,
        });
      return row;
    },

    /** Puts a link behind the warning page for good (the owner sees why in its stats). */
    async markHarmful(linkId: number, verdict: { category: string; reason: string }, now: Date): Promise<boolean> {
      const rows = await db
        .update(shortLinks)
        .set({ harmCategory: verdict.category, harmReason: verdict.reason, harmFoundAt: now })
        .where(and(eq(shortLinks.id, linkId), isNull(shortLinks.harmCategory)))
        .returning({ id: shortLinks.id });
      return rows.length > 0;
    },
  };
}

export type ShortLinkStore = ReturnType<typeof createShortLinkStore>;
