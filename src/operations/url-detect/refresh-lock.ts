import { sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';

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
