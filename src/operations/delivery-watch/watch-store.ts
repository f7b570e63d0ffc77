import { and, asc, count, eq, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { deliveryWatches } from '../../../db/schema.js';

export type WatchRow = typeof deliveryWatches.$inferSelect;
export type NewWatch = typeof deliveryWatches.$inferInsert;
export type WatchStatus = 'active' | 'delivered' | 'expired' | 'failed';
export type WatchPatch = Partial<Omit<WatchRow, 'id' | 'accountId' | 'createdAt'>>;

export interface ClaimOptions {
  now: Date;
  /** How long the claim holds the rows (their `next_poll_at` is pushed this far). */
  leaseMs: number;
  limit: number;
  claimId: string;
  /** Restrict to these accounts (tests and benches sharing a database with others). */
  accountIds?: number[];
}

/** The watches table: the service's reads and writes, and the poller's claim and write-back. */
export function createWatchStore(db: Database) {
  const t = deliveryWatches;
  return {
    /**
     * Inserts an active watch, or nothing when the same account already has one for this parcel
     * and target (the partial unique index decides, so concurrent creations make one watch).
     */
    async insert(values: NewWatch): Promise<WatchRow | undefined> {
      const [row] = await db
        .insert(t)
        .values(values)
        .onConflictDoNothing({ target: [t.accountId, t.carrierId, t.trackId, t.targetKind, t.target], where: sql`status = 'active'` })
        .returning();
      return row;
    },

    async findActive(
      accountId: number,
      carrierId: string,
      trackId: string,
      targetKind: string,
      target: string,
    ): Promise<WatchRow | undefined> {
      const [row] = await db
        .select()
        .from(t)
        .where(
          and(
            eq(t.accountId, accountId),
            eq(t.carrierId, carrierId),
            eq(t.trackId, trackId),
            eq(t.targetKind, targetKind),
            eq(t.target, target),
            eq(t.status, 'active'),
          ),
        );
      return row;
    },

    async countActive(accountId: number): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(t)
        .where(and(eq(t.accountId, accountId), eq(t.status, 'active')));
      return Number(row?.n ?? 0);
    },

    list(accountId: number): Promise<WatchRow[]> {
      return db.select().from(t).where(eq(t.accountId, accountId)).orderBy(asc(t.id));
    },

    /** Stopped watches whose requester has not been told yet, marked told in the same statement. */
    takeStopped(accountId: number, targetKind: string, requestedBy: string): Promise<WatchRow[]> {
      return db
        .update(t)
        .set({ requesterPending: false })
        .where(and(eq(t.accountId, accountId), eq(t.targetKind, targetKind), eq(t.requestedBy, requestedBy), eq(t.requesterPending, true)))
        .returning();
    },

    /** Deletes the account's watches matching `where`; returns the ids removed. */
    async remove(accountId: number, where: { id?: number; trackId?: string; targetKind?: string; target?: string }): Promise<number[]> {
      const conditions = [eq(t.accountId, accountId)];
      if (where.id !== undefined) conditions.push(eq(t.id, where.id));
      if (where.trackId !== undefined) conditions.push(eq(t.trackId, where.trackId));
      if (where.targetKind !== undefined) conditions.push(eq(t.targetKind, where.targetKind));
      if (where.target !== undefined) conditions.push(eq(t.target, where.target));
      const rows = await db
        .delete(t)
        .where(and(...conditions))
        .returning({ id: t.id });
      return rows.map((row) => row.id);
    },

    /**
     * Claims due active watches in one statement: `FOR UPDATE SKIP LOCKED` lets several
     * instances claim at once without waiting on or sharing rows, and the claimed rows get
     * a lease (`next_poll_at` pushed ahead) and this claim's id, so nobody else takes them
     * until the lease ends (a crashed instance's rows come back after it).
     */
    async claim(options: ClaimOptions): Promise<WatchRow[]> {
      const due = and(
        eq(t.status, 'active'),
        lte(t.nextPollAt, options.now),
        options.accountIds ? inArray(t.accountId, options.accountIds) : undefined,
      );
      const ids = db
        .select({ id: t.id })
        .from(t)
        .where(due)
        .orderBy(asc(t.nextPollAt))
        .limit(options.limit)
        .for('update', { skipLocked: true });
      return db
        .update(t)
        .set({ claimId: options.claimId, nextPollAt: new Date(options.now.getTime() + options.leaseMs) })
        .where(inArray(t.id, ids))
        .returning();
    },

    /** When the longest-waiting active watch (of these accounts) was due (the partial due index: one row read); undefined with none. */
    async oldestDue(accountIds?: number[]): Promise<Date | undefined> {
      const [row] = await db
        .select({ at: t.nextPollAt })
        .from(t)
        .where(and(eq(t.status, 'active'), accountIds ? inArray(t.accountId, accountIds) : undefined))
        .orderBy(asc(t.nextPollAt))
        .limit(1);
      return row?.at;
    },

    /** Writes a poll's outcome, only while this claim still holds the row. */
    async finish(id: number, claimId: string, patch: WatchPatch): Promise<boolean> {
      const rows = await db
        .update(t)
        .set({ ...patch, claimId: null })
        .where(and(eq(t.id, id), eq(t.claimId, claimId)))
        .returning({ id: t.id });
      return rows.length > 0;
    },
  };
}

export type WatchStore = ReturnType<typeof createWatchStore>;
