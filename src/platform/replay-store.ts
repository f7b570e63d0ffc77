import { lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { botRequestSignatures } from '../../db/schema.js';

/** Slack's and Discord's tolerance for a request's timestamp: a signature is remembered as long. */
export const SIGNATURE_MEMORY_MS = 5 * 60 * 1000;

/**
 * Remembers the signatures of verified Slack/Discord requests for five minutes, in the
 * database so every instance on one PostgreSQL shares them: the same signed request delivered
 * twice runs once. Only verified requests are remembered, so nobody can fill the table.
 */
export function createReplayGuard(db: Database, clock: () => Date = () => new Date()) {
  return {
    /** True the first time a signature is seen (within five minutes), false for a replay. */
    async firstSeen(signature: string): Promise<boolean> {
      const now = clock();
      const expiresAt = new Date(now.getTime() + SIGNATURE_MEMORY_MS);
      // A row whose five minutes are over is taken over, not counted as a replay.
      const rows = await db
        .insert(botRequestSignatures)
        .values({ signature, expiresAt })
        .onConflictDoUpdate({
          target: botRequestSignatures.signature,
          set: { expiresAt },
          setWhere: sql`${botRequestSignatures.expiresAt} <= ${now.toISOString()}::timestamptz`,
        })
        .returning({ signature: botRequestSignatures.signature });
      return rows.length > 0;
    },

    /** Housekeeping: signatures older than five minutes. */
    async purge(): Promise<number> {
      const gone = await db
        .delete(botRequestSignatures)
        .where(lte(botRequestSignatures.expiresAt, clock()))
        .returning({ signature: botRequestSignatures.signature });
      return gone.length;
    },
  };
}

export type ReplayGuard = ReturnType<typeof createReplayGuard>;
