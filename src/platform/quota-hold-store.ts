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
 * A take alone commits without waiting for its WAL flush (`synchronous_commit` off for that
 * one transaction): a take lost with a crashed database was never answered. A settle waits
 * for its flush only on the embedded PGlite, whose database dies with this process. On
 * PostgreSQL a committed settle outlives the process that sent it (`kill -9` included), so
 * answered calls no longer wait in lock-step for a disk flush (measured: about a quarter more
 * calls per second, a third less of PostgreSQL's CPU per call). Should PostgreSQL itself crash,
 * it may lose its last fraction of a second of settles: their calls are still on their holds,
 * which recovery gives back, so the error is in the customer's favour, never against them.
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

/** A call answered on hold `settle`, of the key that hold counts for. */
type SettleRequest = TakeRequest & { settle: string };
type QuotaOp = TakeRequest | SettleRequest;

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
  from quota_take_settle($1::int, $2::timestamptz, $3::timestamptz, $4::int[], $5::text[], $6::int[], $7::int[], $8::int, $9::bigint[], $10::int[], $11::bool)`;

export interface QuotaHoldsOptions {
  instanceId: number;
  clock: () => Date;
  /** When a period that starts `now` ends. */
  nextRenewal(now: Date): Date;
  /**
   * PostgreSQL, a server that outlives this process: settles run in statements of their own and
   * commit without waiting for their WAL flush. PGlite dies with this process: settles ride in
   * the takes' statements and wait for their flush.
   */
  serverDatabase: boolean;
  /**
   * Units a busy key leases ahead (`units`), so its next calls are granted without a statement
   * of their own, only when at least `lowWater` more would stay in the counter for other
   * instances. Leased units not used within `idleMs` go back.
   */
  leaseAhead?: { units: number; lowWater: number; idleMs: number };
}

/** Units of one (account, api) this instance has taken ahead and not granted yet. */
interface Spare {
  lease: string;
  periodMs: number;
  quota: number;
  units: number;
  /** The counter in the database after the lease was taken: what a call sees is this plus the spare left. */
  dbRemaining: number;
  usedAt: number;
}

function inKeyOrder(a: { accountId: number; api: string }, b: { accountId: number; api: string }): number {
  return a.accountId - b.accountId || (a.api < b.api ? -1 : a.api > b.api ? 1 : 0);
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
    const settleCounts = new Map<string, { accountId: number; api: string; lease: string; n: number }>();
    for (const op of ops) {
      if ('settle' in op) {
        const entry = settleCounts.get(op.settle);
        if (entry) entry.n++;
        else settleCounts.set(op.settle, { accountId: op.accountId, api: op.api, lease: op.settle, n: 1 });
        continue;
      }
      const key = `${op.accountId}:${op.api}`;
      const entry = wanted.get(key);
      if (entry) entry.n++;
      else wanted.set(key, { accountId: op.accountId, api: op.api, n: 1 });
    }
    // Rows are locked in key order, hold rows by settles as by takes, so no two batches (of one
    // instance or of two) deadlock.
    const keys = [...wanted.values()].sort(inKeyOrder);
    const settles = [...settleCounts.values()].sort(inKeyOrder);
    if (keys.length > 0) await returnsLanded();
    const now = clock();
    // Units are leased ahead only by a take that runs alone, so the counter each batch reads
    // follows the leases accounted before it (the `remaining` calls see counts down without gaps).
    const extra = leaseAhead && keys.length > 0 && takesRunning === 0 ? leaseAhead.units : 0;
    if (keys.length > 0) takesRunning++;
    const rows = await rawRows<BatchRow>(db, BATCH_STATEMENT, [
      instanceId,
      now.toISOString(),
      nextRenewal(now).toISOString(),
      arrayLiteral(keys.map((key) => key.accountId)),
      arrayLiteral(keys.map((key) => key.api)),
      arrayLiteral(keys.map((key) => key.n)),
      arrayLiteral(keys.map(() => extra)),
      leaseAhead?.lowWater ?? 0,
      arrayLiteral(settles.map((settle) => Number(settle.lease))),
      arrayLiteral(settles.map((settle) => settle.n)),
      options.serverDatabase ? 'false' : 'true',
    ]).finally(() => {
      if (keys.length > 0) takesRunning--;
    });
    const settled = new Set<string>();
    const byKey = new Map<string, { row: BatchRow; next: number }>();
    for (const row of rows) {
      if (row.settled !== null) settled.add(row.settled);
      else byKey.set(`${row.o_account}:${row.o_api}`, { row, next: 0 });
    }
    const earlier = new Map<string, number>();
    for (const [key, { n }] of wanted) {
      const row = byKey.get(key)?.row;
      const spare = spares.get(key);
      if (row?.lease && spare?.lease === row.lease && spare.periodMs === Number(row.period_ms)) {
        earlier.set(key, spare.units);
        // The counter only falls between give-backs: the lowest reading is the latest.
        spare.dbRemaining = Math.min(spare.dbRemaining, row.o_avail! - row.o_granted!);
      }
      if (row?.lease && row.o_granted! > n) keepSpare(key, row, n, now.getTime());
    }
    // A hold that could not settle was given back meanwhile: what was leased on it is gone too.
    for (const { lease } of settles) if (!settled.has(lease)) dropSpares(lease);
    return ops.map((op) => {
      if ('settle' in op) return settled.has(op.settle);
      const found = byKey.get(`${op.accountId}:${op.api}`);
      if (!found || found.row.o_avail === null) return { granted: false, subscribed: false };
      const { row } = found;
      const renewsAt = new Date(Number(row.period_ms));
      const i = found.next++;
      if (i >= row.o_granted! || row.lease === null) return { granted: false, subscribed: true, renewsAt };
      // Calls of one batch see the counter count down, as if they had come one by one; units
      // this instance leased ahead before are still the customer's.
      const remaining = row.o_avail! - 1 - i + (earlier.get(`${op.accountId}:${op.api}`) ?? 0);
      return { granted: true, holdId: row.lease, remaining, monthlyQuota: row.o_quota!, renewsAt };
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

  async function giveBack(items: Array<{ holdId: string; units: number }>): Promise<void[]> {
    const counts = new Map<string, number>();
    for (const { holdId, units } of items) counts.set(holdId, (counts.get(holdId) ?? 0) + units);
    const ids = arrayLiteral([...counts.keys()].map(Number));
    const units = arrayLiteral([...counts.values()]);
    await db.transaction(async (tx) => {
      // Counters first, then hold rows, each in key order, as takes and settles lock them: in
      // another order a give-back and a take or settle deadlock, and PostgreSQL aborts one.
      await tx.execute(sql`
        select 1 from subscriptions s
        where (s.account_id, s.api) in (select account_id, api from quota_holds where id = any(${ids}::bigint[]))
        order by s.account_id, s.api
        for update of s`);
      await tx.execute(sql`
        select 1 from quota_holds where id = any(${ids}::bigint[]) order by account_id, api, renews_at for update`);
      await tx.execute(
        giveBackStatement(sql`
          update quota_holds h set units = h.units - r.n
          from unnest(${ids}::bigint[], ${units}::int[]) as r(id, n)
          where h.id = r.id and h.units >= r.n
          returning h.account_id, h.api, h.renews_at, r.n as units`),
      );
    });
    return items.map(() => undefined);
  }

  const { leaseAhead } = options;
  const spares = new Map<string, Spare>();
  /** Spares on their way back to the counter: a take waits for them, or it would read the counter short. */
  const spareReturns = new Set<Promise<void>>();
  let takesRunning = 0;

  /** Resolves once leased units on their way back are in their counters: until then a reading finds them nowhere. */
  async function returnsLanded(): Promise<void> {
    if (spareReturns.size > 0) await Promise.all(spareReturns);
  }

  /** The units a batch took beyond its calls become (or join) the key's spare. */
  function keepSpare(key: string, row: BatchRow, calls: number, nowMs: number): void {
    const extra = row.o_granted! - calls;
    const periodMs = Number(row.period_ms);
    const spare = spares.get(key);
    if (spare && (spare.lease !== row.lease || spare.periodMs !== periodMs)) returnSpare(key, spare);
    const kept = spares.get(key);
    const dbRemaining = row.o_avail! - row.o_granted!;
    if (kept) {
      kept.units += extra;
      kept.dbRemaining = Math.min(kept.dbRemaining, dbRemaining);
      kept.usedAt = nowMs;
    } else {
      spares.set(key, { lease: row.lease!, periodMs, quota: row.o_quota!, units: extra, dbRemaining, usedAt: nowMs });
    }
  }

  function returnSpare(key: string, spare: Spare): void {
    spares.delete(key);
    if (spare.units > 0) {
      const returning = givebacks.add({ holdId: spare.lease, units: spare.units }).catch(() => {});
      spareReturns.add(returning);
      void returning.finally(() => spareReturns.delete(returning));
    }
    spare.units = 0;
  }

  /** A refunded call of a key with a live spare: its unit is still on the lease, so it joins the spare. */
  function refundToSpare(holdId: string): boolean {
    for (const spare of spares.values()) {
      if (spare.lease === holdId) {
        spare.units++;
        return true;
      }
    }
    return false;
  }

  function dropSpares(lease: string): void {
    for (const [key, spare] of spares) if (spare.lease === lease) spares.delete(key);
  }

  /** A call granted from the key's spare, without a statement; undefined when there is none (or its month is over). */
  function takeSpare(request: TakeRequest): TakeResult | undefined {
    const key = `${request.accountId}:${request.api}`;
    const spare = spares.get(key);
    if (!spare) return undefined;
    const nowMs = clock().getTime();
    if (nowMs >= spare.periodMs || spare.units <= 0) {
      returnSpare(key, spare);
      return undefined;
    }
    spare.units--;
    spare.usedAt = nowMs;
    const remaining = spare.dbRemaining + spare.units;
    return { granted: true, holdId: spare.lease, remaining, monthlyQuota: spare.quota, renewsAt: new Date(spare.periodMs) };
  }

  // Spares not drawn on for a while go back, so other instances (and the usage page) see them.
  const idleCheck = leaseAhead
    ? setInterval(() => {
        const before = clock().getTime() - leaseAhead.idleMs;
        for (const [key, spare] of spares) if (spare.usedAt < before) returnSpare(key, spare);
      }, leaseAhead.idleMs)
    : undefined;
  idleCheck?.unref();

  // PostgreSQL: takes and settles in separate batches (measured: a third of the rate when they
  // share statements, even with neither waiting for the disk); a few settles in flight, one
  // take: two takes on two connections reach the counter in either order, and the remaining
  // each call is shown assumes the order they were sent in (with two, a busy key's answers
  // skipped and repeated numbers, 64 apart). PGlite: every statement is main-thread CPU and
  // there is no disk wait to hide, so one statement carries both, run in the order sent.
  // (Measured: each choice is 2-3x the other's rate on its database.)
  const takes = new Batcher(flush, options.serverDatabase ? 1 : 2);
  const settles = options.serverDatabase ? new Batcher(flush, 4) : takes;
  const givebacks = new Batcher(giveBack);

  return {
    take(request: TakeRequest): Promise<TakeResult> {
      const spare = takeSpare(request);
      return spare ? Promise.resolve(spare) : (takes.add(request) as Promise<TakeResult>);
    },
    /** True once the call is recorded; false for a hold already given back (this instance was taken for dead). */
    settle: (holdId: string, key: TakeRequest) =>
      settles.add({ accountId: key.accountId, api: key.api, settle: holdId }) as Promise<boolean>,
    giveBack: (holdId: string) => (refundToSpare(holdId) ? Promise.resolve() : givebacks.add({ holdId, units: 1 })),

    returnsLanded,

    /** Units of the key this instance holds ahead for the period ending `renewsAt` (they are still the customer's). */
    spareOf(accountId: number, api: ApiId, renewsAt: Date): number {
      const spare = spares.get(`${accountId}:${api}`);
      return spare && spare.periodMs === renewsAt.getTime() ? spare.units : 0;
    },

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
      clearInterval(idleCheck);
      spares.clear();
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
