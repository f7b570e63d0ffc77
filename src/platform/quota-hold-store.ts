import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { INSTANCE_LOCK_CLASS } from '../../db/coordination.js';
import { rowsOf } from '../../db/rows.js';
import type { ApiId } from './catalog.js';
import { Batcher } from './batcher.js';

/**
 * The statements behind every charge, each gathering the calls of one moment into a single
 * round trip (src/platform/batcher.ts):
 *
 * - take: for each (account, api) asked for, `remaining - least(remaining, n)` under the row
 *   lock, and one `quota_holds` row per granted call, in the same statement. One busy key's n
 *   concurrent calls are one statement and one commit, not n commits queued on one row.
 * - settle: the call was answered, its hold row is deleted (the charge stands). Settles ride in
 *   the same statement as the takes of the moment: one round trip per batch for both.
 * - give back: the call failed, its hold row is deleted and the unit added back (same period).
 * - recover: hold rows of instances that are gone (no advisory lock) are given back.
 *
 * The take commits without waiting for its WAL flush (`synchronous_commit` off for that one
 * transaction): the settle that follows waits for its own flush, which covers the take too, so
 * an answered call is on disk before it is answered, with one flush per batch instead of two.
 * Should PostgreSQL itself crash first, the take and its hold vanish together: the call was
 * not answered yet. (A `kill -9` of this process loses nothing either way.)
 *
 * A hold is deleted exactly once (settle, give back or recover race on the row lock), so a
 * unit is either charged for an answered call or returned, never both, never neither.
 */

export interface TakeRequest {
  accountId: number;
  api: ApiId;
}

/** A granted call (`holdId`), or why not: no subscription row, or nothing left this period. */
export type TakeResult =
  | { granted: true; holdId: string; remaining: number; monthlyQuota: number; renewsAt: Date }
  | { granted: false; subscribed: boolean; renewsAt?: Date };

type QuotaOp = TakeRequest | { settle: string };

/** One row per (account, api) asked for, or a single row of nulls when none was. */
interface TakeRow {
  account_id: number | null;
  api: string | null;
  avail: number;
  monthly_quota: number;
  renews_at_ms: number | string;
  hold_ids: string | null;
  settled_ids: string | null;
}

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
   * One statement for a batch: deletes the holds of answered calls and takes the new calls.
   * Without settles it commits without waiting for the WAL flush (see above); with them it
   * waits, as an answered call must be on disk before it is answered.
   */
  async function flush(ops: QuotaOp[]): Promise<(TakeResult | boolean)[]> {
    const wanted = new Map<string, { account_id: number; api: string; n: number }>();
    const settleIds: string[] = [];
    for (const op of ops) {
      if ('settle' in op) {
        settleIds.push(op.settle);
        continue;
      }
      const key = `${op.accountId}:${op.api}`;
      const entry = wanted.get(key);
      if (entry) entry.n++;
      else wanted.set(key, { account_id: op.accountId, api: op.api, n: 1 });
    }
    const now = clock();
    const commitMode = settleIds.length > 0 ? sql`` : sql`, (select set_config('synchronous_commit', 'off', true)) as async_commit`;
    // Rows are locked in key order, so two instances' batches never deadlock.
    const rows = rowsOf<TakeRow>(
      await db.execute(sql`
        with settled as (
          delete from quota_holds where id = any(${`{${settleIds.join(',')}}`}::bigint[]) returning id
        ), req as (
          select r.* from jsonb_to_recordset(${JSON.stringify([...wanted.values()])}::jsonb) as r(account_id int, api text, n int)${commitMode}
        ), cur as (
          select s.account_id, s.api, r.n, s.monthly_quota,
                 greatest(case when s.renews_at <= ${now.toISOString()}::timestamptz then s.monthly_quota else s.remaining end, 0) as avail,
                 case when s.renews_at <= ${now.toISOString()}::timestamptz then ${nextRenewal(now).toISOString()}::timestamptz else s.renews_at end as period
          from subscriptions s join req r on s.account_id = r.account_id and s.api = r.api
          order by s.account_id, s.api
          for update of s
        ), upd as (
          update subscriptions s set remaining = cur.avail - least(cur.avail, cur.n), renews_at = cur.period
          from cur where s.account_id = cur.account_id and s.api = cur.api and cur.avail > 0
          returning s.account_id, s.api, s.renews_at, least(cur.avail, cur.n) as granted
        ), holds as (
          insert into quota_holds (instance_id, account_id, api, renews_at)
          select ${instanceId}, upd.account_id, upd.api, upd.renews_at from upd, generate_series(1, upd.granted)
          returning id, account_id, api
        )
        select cur.account_id, cur.api, cur.avail, cur.monthly_quota,
               (extract(epoch from cur.period) * 1000)::float8 as renews_at_ms,
               (select string_agg(h.id::text, ',' order by h.id) from holds h
                 where h.account_id = cur.account_id and h.api = cur.api) as hold_ids,
               (select string_agg(id::text, ',') from settled) as settled_ids
        from (select 1) as one left join cur on true`),
    );
    const settled = new Set(rows[0]?.settled_ids?.split(',') ?? []);
    const byKey = new Map(rows.map((row) => [`${row.account_id}:${row.api}`, { row, next: 0, holds: row.hold_ids?.split(',') ?? [] }]));
    return ops.map((op) => {
      if ('settle' in op) return settled.has(op.settle);
      const found = byKey.get(`${op.accountId}:${op.api}`);
      if (!found) return { granted: false, subscribed: false };
      const { row, holds } = found;
      const renewsAt = new Date(Number(row.renews_at_ms));
      const i = found.next++;
      if (i >= holds.length) return { granted: false, subscribed: true, renewsAt };
      // Calls of one batch see the counter count down, as if they had come one by one.
      return { granted: true, holdId: holds[i]!, remaining: row.avail - 1 - i, monthlyQuota: row.monthly_quota, renewsAt };
    });
  }

  /** Gives the units of `gone` (hold rows deleted in the same statement) back to their period. */
  function giveBackStatement(gone: SQL): SQL {
    return sql`
      with gone as (${gone} returning account_id, api, renews_at),
      counted as (select account_id, api, renews_at, count(*)::int as n from gone group by account_id, api, renews_at),
      locked as (
        select s.account_id, s.api, counted.n from subscriptions s
        join counted on s.account_id = counted.account_id and s.api = counted.api and s.renews_at = counted.renews_at
        order by s.account_id, s.api
        for update of s
      )
      update subscriptions s set remaining = least(s.monthly_quota, s.remaining + locked.n)
      from locked where s.account_id = locked.account_id and s.api = locked.api`;
  }

  async function giveBack(holdIds: string[]): Promise<void[]> {
    await db.execute(giveBackStatement(sql`delete from quota_holds where id = any(${`{${holdIds.join(',')}}`}::bigint[])`));
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
            and pg_try_advisory_xact_lock(${INSTANCE_LOCK_CLASS}::int, instance_id)`),
      );
      return affected(result);
    },
  };
}

export type QuotaHolds = ReturnType<typeof createQuotaHolds>;

function affected(result: unknown): number {
  const r = result as { count?: number; affectedRows?: number };
  return r.count ?? r.affectedRows ?? 0;
}
