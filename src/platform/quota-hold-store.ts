import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { INSTANCE_LOCK_CLASS } from '../../db/coordination.js';
import { arrayLiteral, rawRows } from '../../db/rows.js';
import type { ApiId } from './catalog.js';
import { Batcher } from './batcher.js';

/**
 * The statements behind every charge, each gathering the calls of one moment into a single
 * round trip (src/platform/batcher.ts). A hold is a counter: one `quota_holds` row per
 * (instance, account, api, period) whose `units` are the calls taken and not yet answered.
 *
 * - take: for each (account, api) asked for, `remaining - least(remaining, n)` under the row
 *   lock, and the n granted calls added to this instance's hold row, in the same statement.
 *   One busy key's n concurrent calls are one statement and one commit, not n commits queued
 *   on one row.
 * - settle: the calls were answered, their hold row counts them off (the charge stands). A
 *   single-row update of a row only this instance writes: answering never waits on the busy
 *   subscription row. Settles ride in the same statement as the takes of the moment on PGlite.
 * - give back: the calls failed, their hold row counts them off and the units go back to the
 *   counter (same period).
 * - recover: hold rows of instances that are gone (no advisory lock) are given back, units and all.
 *
 * The batch statement is the function `quota_take_settle` (db/migrations/0013_*), so its plans
 * are prepared once per connection, called on the driver directly (db/rows.ts `rawRows`).
 * A take alone commits without waiting for its WAL flush (`synchronous_commit` off for that one
 * transaction): the settle that follows waits for its own flush, which covers the take too, so
 * an answered call is on disk before it is answered, with one flush per batch instead of two.
 * Should PostgreSQL itself crash first, the take and its hold vanish together: the call was
 * not answered yet. (A `kill -9` of this process loses nothing either way.)
 *
 * A unit leaves a hold exactly once (settle, give back or recover race on the row lock, and
 * a settle or give back only counts off what the row still holds), so it is either charged
 * for an answered call or returned, never both, never neither. A row that was recovered (this
 * instance taken for dead) is gone: a later take makes a new row with a new id, and the calls
 * held on the old one can no longer settle (they are answered 503, uncharged).
 */

export interface TakeRequest {
  accountId: number;
  api: ApiId;
}

/** A granted call (`holdId`: its hold row), or why not: no subscription row, or nothing left this period. */
export type TakeResult =
  | { granted: true; holdId: string; remaining: number; monthlyQuota: number; renewsAt: Date }
  | { granted: false; subscribed: boolean; renewsAt?: Date };

type QuotaOp = TakeRequest | { settle: string };

/** One row per (account, api) asked for (`o_avail` null: not subscribed), one per hold settled. */
interface BatchRow {
  o_account: number | null;
  o_api: string | null;
  o_avail: number | null;
  o_quota: number | null;
  period_ms: number | string | null;
  o_granted: number | null;
  lease: string | null;
  settled: string | null;
}

const BATCH_STATEMENT = `select o_account, o_api, o_avail, o_quota, (extract(epoch from o_period) * 1000)::float8 as period_ms,
  o_granted, o_lease::text as lease, o_settled::text as settled
  from quota_take_settle($1::int, $2::timestamptz, $3::timestamptz, $4::int[], $5::text[], $6::int[], $7::bigint[], $8::int[])`;

export interface QuotaHoldsOptions {
  instanceId: number;
  clock: () => Date;
  /** When a period that starts `now` ends. */
  nextRenewal(now: Date): Date;
  /** Settles in their own statements (PostgreSQL), or in the takes' (PGlite). */
  separateSettles: boolean;
}

export function createQuotaHolds(db: Database, options: QuotaHoldsOptions) {
  const { instanceId, clock, nextRenewal } = options;

  /**
   * One statement for a batch: counts off the holds of answered calls and takes the new calls.
   * Without settles it commits without waiting for the WAL flush (see above); with them it
   * waits, as an answered call must be on disk before it is answered.
   */
  async function flush(ops: QuotaOp[]): Promise<(TakeResult | boolean)[]> {
    const wanted = new Map<string, { accountId: number; api: string; n: number }>();
    const settles = new Map<string, number>();
    for (const op of ops) {
      if ('settle' in op) {
        settles.set(op.settle, (settles.get(op.settle) ?? 0) + 1);
        continue;
      }
      const key = `${op.accountId}:${op.api}`;
      const entry = wanted.get(key);
      if (entry) entry.n++;
      else wanted.set(key, { accountId: op.accountId, api: op.api, n: 1 });
    }
    // Rows are locked in key order, so two instances' batches never deadlock.
    const keys = [...wanted.values()].sort((a, b) => a.accountId - b.accountId || (a.api < b.api ? -1 : a.api > b.api ? 1 : 0));
    const now = clock();
    const rows = await rawRows<BatchRow>(db, BATCH_STATEMENT, [
      instanceId,
      now.toISOString(),
      nextRenewal(now).toISOString(),
      arrayLiteral(keys.map((key) => key.accountId)),
      arrayLiteral(keys.map((key) => key.api)),
      arrayLiteral(keys.map((key) => key.n)),
      arrayLiteral([...settles.keys()].map(Number)),
      arrayLiteral([...settles.values()]),
    ]);
    const settled = new Set<string>();
    const byKey = new Map<string, { row: BatchRow; next: number }>();
    for (const row of rows) {
      if (row.settled !== null) settled.add(row.settled);
      else byKey.set(`${row.o_account}:${row.o_api}`, { row, next: 0 });
    }
    return ops.map((op) => {
      if ('settle' in op) return settled.has(op.settle);
      const found = byKey.get(`${op.accountId}:${op.api}`);
      if (!found || found.row.o_avail === null) return { granted: false, subscribed: false };
      const { row } = found;
      const renewsAt = new Date(Number(row.period_ms));
      const i = found.next++;
      if (i >= row.o_granted! || row.lease === null) return { granted: false, subscribed: true, renewsAt };
      // Calls of one batch see the counter count down, as if they had come one by one.
      return { granted: true, holdId: row.lease, remaining: row.o_avail! - 1 - i, monthlyQuota: row.o_quota!, renewsAt };
    });
  }

  /** Gives the units of `gone` (hold rows counted off or deleted in the same statement) back to their period. */
  function giveBackStatement(gone: SQL): SQL {
    return sql`
      with gone as (${gone}),
      counted as (select account_id, api, renews_at, sum(units)::int as n from gone group by account_id, api, renews_at),
      locked as (
        select s.account_id, s.api, counted.n from subscriptions s
        join counted on s.account_id = counted.account_id and s.api = counted.api and s.renews_at = counted.renews_at
        where counted.n > 0
        order by s.account_id, s.api
        for update of s
      )
      update subscriptions s set remaining = least(s.monthly_quota, s.remaining + locked.n)
      from locked where s.account_id = locked.account_id and s.api = locked.api`;
  }

  async function giveBack(holdIds: string[]): Promise<void[]> {
    const counts = new Map<string, number>();
    for (const id of holdIds) counts.set(id, (counts.get(id) ?? 0) + 1);
    const ids = arrayLiteral([...counts.keys()].map(Number));
    const units = arrayLiteral([...counts.values()]);
    await db.execute(
      giveBackStatement(sql`
        update quota_holds h set units = h.units - r.n
        from unnest(${ids}::bigint[], ${units}::int[]) as r(id, n)
        where h.id = r.id and h.units >= r.n
        returning h.account_id, h.api, h.renews_at, r.n as units`),
    );
    return holdIds.map(() => undefined);
  }

  // PostgreSQL: takes and settles in separate batches, so takes skip the disk wait (their row
  // lock is held only for the statement) while settles wait for it; a few of each in flight.
  // PGlite: every statement is main-thread CPU and there is no disk wait to hide, so one
  // statement carries both. (Measured: each choice is 2-3x the other's rate on its database.)
  const takes = new Batcher(flush, 2);
  const settles = options.separateSettles ? new Batcher(flush, 4) : takes;
  const givebacks = new Batcher(giveBack);

  return {
    take: (request: TakeRequest) => takes.add(request) as Promise<TakeResult>,
    /** True once the call is recorded; false for a hold already given back (this instance was taken for dead). */
    settle: (holdId: string) => settles.add({ settle: holdId }) as Promise<boolean>,
    giveBack: (holdId: string) => givebacks.add(holdId),

    /**
     * Gives back the holds of every instance that no longer holds its advisory lock (on
     * PGlite, of every earlier process: the data directory admits one). Returns how many
     * counters were credited.
     */
    async recover(): Promise<number> {
      const result = await db.execute(
        giveBackStatement(sql`
          delete from quota_holds where instance_id <> ${instanceId}
            and pg_try_advisory_xact_lock(${INSTANCE_LOCK_CLASS}::int, instance_id)
          returning account_id, api, renews_at, units`),
      );
      return affected(result);
    },

    /** At shutdown, once no call is in flight: this instance's rows go, and any units they still hold go back. */
    async release(): Promise<void> {
      await db.execute(
        giveBackStatement(sql`delete from quota_holds where instance_id = ${instanceId} returning account_id, api, renews_at, units`),
      );
    },
  };
}

export type QuotaHolds = ReturnType<typeof createQuotaHolds>;

function affected(result: unknown): number {
  const r = result as { count?: number; affectedRows?: number };
  return r.count ?? r.affectedRows ?? 0;
}
