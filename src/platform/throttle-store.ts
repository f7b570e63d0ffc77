import { lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { throttleWindows } from '../../db/schema.js';

export interface ThrottleWindow {
  hits: number;
  windowEndsAt: Date;
}

/**
 * Fixed-window counters in the database, so every instance on one PostgreSQL shares them.
 * `hit` is one statement (`INSERT … ON CONFLICT DO UPDATE … RETURNING`): a window that has
 * ended starts again at 1. Time comes from the injected clock, so tests need no sleeps.
 */
export function createThrottleStore(db: Database, clock: () => Date) {
  return {
    async hit(key: string, windowMs: number): Promise<ThrottleWindow> {
      const now = clock();
      const ends = new Date(now.getTime() + windowMs);
      const expired = sql`${throttleWindows.windowEndsAt} <= ${now.toISOString()}::timestamptz`;
      const [row] = await db
        .insert(throttleWindows)
        .values({ key, hits: 1, windowEndsAt: ends })
        .onConflictDoUpdate({
          target: throttleWindows.key,
          set: {
            hits: sql`case when ${expired} then 1 else ${throttleWindows.hits} + 1 end`,
            windowEndsAt: sql`case when ${expired} then ${ends.toISOString()}::timestamptz else ${throttleWindows.windowEndsAt} end`,
          },
        })
        .returning({ hits: throttleWindows.hits, windowEndsAt: throttleWindows.windowEndsAt });
      return row!;
    },

    /** The live window of a key, without counting. */
    async peek(key: string): Promise<ThrottleWindow | undefined> {
      const [row] = await db
        .select({ hits: throttleWindows.hits, windowEndsAt: throttleWindows.windowEndsAt })
        .from(throttleWindows)
        .where(sql`${throttleWindows.key} = ${key} and ${throttleWindows.windowEndsAt} > ${clock().toISOString()}::timestamptz`);
      return row;
    },

    async clear(key: string): Promise<void> {
      await db.delete(throttleWindows).where(sql`${throttleWindows.key} = ${key}`);
    },

    /** Housekeeping: windows that have ended. */
    async purge(): Promise<number> {
      const gone = await db
        .delete(throttleWindows)
        .where(lte(throttleWindows.windowEndsAt, clock()))
        .returning({ key: throttleWindows.key });
      return gone.length;
    },
  };
}

export type ThrottleStore = ReturnType<typeof createThrottleStore>;
