import { and, eq } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { deliveryTrackingCache } from '../../../db/schema.js';
import type { TrackingResult } from './tracking-result.js';

export interface CachedTracking {
  result: TrackingResult;
  delivered: boolean;
  fetchedAt: Date;
}

/** Tracking results in the database, shared by every account and instance. */
export function createTrackingCache(db: Database) {
  return {
    async get(carrierId: string, trackId: string): Promise<CachedTracking | undefined> {
      const [row] = await db
        .select({
          result: deliveryTrackingCache.result,
          delivered: deliveryTrackingCache.delivered,
          fetchedAt: deliveryTrackingCache.fetchedAt,
        })
        .from(deliveryTrackingCache)
        .where(and(eq(deliveryTrackingCache.carrierId, carrierId), eq(deliveryTrackingCache.trackId, trackId)));
      return row ? { result: row.result as TrackingResult, delivered: row.delivered, fetchedAt: row.fetchedAt } : undefined;
    },

    /** One upsert: the newest answer replaces the stored one. */
    async put(carrierId: string, trackId: string, entry: CachedTracking): Promise<void> {
      const values = { result: entry.result, delivered: entry.delivered, fetchedAt: entry.fetchedAt };
      await db
        .insert(deliveryTrackingCache)
        .values({ carrierId, trackId, ...values })
        .onConflictDoUpdate({ target: [deliveryTrackingCache.carrierId, deliveryTrackingCache.trackId], set: values });
    },
  };
}

export type TrackingCache = ReturnType<typeof createTrackingCache>;
