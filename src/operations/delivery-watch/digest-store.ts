import { and, eq, inArray, isNotNull, lte, or, lt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { deliveryChannelDigests, deliveryWatches } from '../../../db/schema.js';
import type { ChannelTarget } from './channels.js';
import type { WatchRow } from './watch-store.js';
import { seoulDate, seoulIso } from '../../seoul-time.js';

/** `HH:MM`, 00:00–23:59 (Asia/Seoul). */
export const DIGEST_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

/**
 * What `digest_sent_on` starts as for a digest set at `now`: today when today's time has already
 * passed (the first digest comes tomorrow, not at once), else none.
 */
export function firstDigestMark(now: Date, digestAt: string | null): string | null {
  if (!digestAt) return null;
  return seoulIso(now).slice(11, 16) >= digestAt ? seoulDate(now) : null;
}

/**
 * Daily digests (issue 38): which channels prefer one message a day (`/track digest on`), and
 * the claim of the watches whose digest is due today. The claim is one UPDATE … RETURNING, so
 * two instances never send the same digest.
 */
export function createDigestStore(db: Database) {
  const w = deliveryWatches;
  const c = deliveryChannelDigests;
  return {
    async channelDigest(accountId: number, channel: ChannelTarget): Promise<string | undefined> {
      const [row] = await db
        .select({ digestAt: c.digestAt })
        .from(c)
        .where(and(eq(c.accountId, accountId), eq(c.platform, channel.platform), eq(c.channelId, channel.channelId)));
      return row?.digestAt;
    },

    /** Sets (or with null, clears) a channel's digest time, for its active watches too; returns how many watches it covers. */
    async setChannelDigest(accountId: number, channel: ChannelTarget, digestAt: string | null, now: Date): Promise<number> {
      const where = and(eq(c.accountId, accountId), eq(c.platform, channel.platform), eq(c.channelId, channel.channelId));
      if (digestAt === null) await db.delete(c).where(where);
      else {
        await db
          .insert(c)
          .values({ accountId, platform: channel.platform, channelId: channel.channelId, digestAt, updatedAt: now })
          .onConflictDoUpdate({ target: [c.accountId, c.platform, c.channelId], set: { digestAt, updatedAt: now } });
      }
      const rows = await db
        .update(w)
        .set({ digestAt, digestSentOn: firstDigestMark(now, digestAt) })
        .where(and(eq(w.accountId, accountId), eq(w.targetKind, channel.platform), eq(w.target, channel.channelId), eq(w.status, 'active')))
        .returning({ id: w.id });
      return rows.length;
    },

    /** Active digest watches whose time has come today and that were not listed today, marked listed. */
    claimDue(today: string, time: string, accountIds?: number[], limit = 500): Promise<WatchRow[]> {
      const ids = db
        .select({ id: w.id })
        .from(w)
        .where(
          and(
            eq(w.status, 'active'),
            isNotNull(w.digestAt),
            lte(w.digestAt, time),
            or(isNull(w.digestSentOn), lt(w.digestSentOn, today)),
            accountIds ? inArray(w.accountId, accountIds) : undefined,
          ),
        )
        .limit(limit)
        .for('update', { skipLocked: true });
      return db.update(w).set({ digestSentOn: today }).where(inArray(w.id, ids)).returning();
    },

    /** A digest that could not be sent is due again (the next cycle retries it). */
    async release(ids: number[], today: string): Promise<void> {
      if (ids.length === 0) return;
      await db
        .update(w)
        .set({ digestSentOn: sql`null` })
        .where(and(inArray(w.id, ids), eq(w.digestSentOn, today)));
    },
  };
}

export type DigestStore = ReturnType<typeof createDigestStore>;
