import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { deliveryCarrierCorrections } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';

/** A correction unused for this long is forgotten (housekeeping). */
export const CORRECTION_TTL_MS = 180 * 24 * 3600_000;

/** The stored key of a number: its hash, so the table holds no waybill numbers. */
function numberHash(trackId: string): string {
  return createHash('sha256').update(`waybill:${trackId}`).digest('base64url');
}

/**
 * Carriers a workspace named for a number whose detected carrier was another (`/track <번호>
 * <택배사>`): the next `/track <번호>` there asks that carrier first. The scope is the chat
 * workspace (`slack:T…`, `discord:…`), or the account for API callers.
 */
export function createCarrierCorrections(deps: { db: Database; clock: Clock }) {
  const t = deliveryCarrierCorrections;
  return {
    async get(scope: string, trackId: string): Promise<string | undefined> {
      const [row] = await deps.db
        .select({ carrierId: t.carrierId })
        .from(t)
        .where(and(eq(t.scope, scope), eq(t.numberHash, numberHash(trackId))));
      return row?.carrierId;
    },
    async put(scope: string, trackId: string, carrierId: string): Promise<void> {
      const values = { carrierId, updatedAt: deps.clock() };
      await deps.db
        .insert(t)
        .values({ scope, numberHash: numberHash(trackId), ...values })
        .onConflictDoUpdate({ target: [t.scope, t.numberHash], set: values });
    },
    async prune(): Promise<number> {
      const before = new Date(deps.clock().getTime() - CORRECTION_TTL_MS);
      const rows = await deps.db.delete(t).where(lt(t.updatedAt, before)).returning({ scope: t.scope });
      return rows.length;
    },
  };
}

export type CarrierCorrections = ReturnType<typeof createCarrierCorrections>;
