import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { subscriptions } from '../../db/schema.js';
import { AppError } from '../errors.js';
import type { Clock } from '../clock.js';
import { koreaTimeEnglish, koreanDateTime, nextSeoulMonth } from '../seoul-time.js';
import { API_IDS, type ApiId } from './catalog.js';
import { createQuotaHolds, type TakeResult } from './quota-hold-store.js';
import type { Quota, QuotaLease } from './quota.js';
import type { Attribution, AuditLog } from './audit-log.js';

export type { QuotaLease } from './quota.js';

export interface UsageRow {
  api: ApiId;
  subscribed: boolean;
  remaining: number | null;
  renews_at: string | null;
  /** Calls per period of the subscription (null when not subscribed). */
  monthly_quota: number | null;
}

/** Counters renew at the start of each calendar month in Asia/Seoul. */
const nextRenewal = nextSeoulMonth;

/** Subscriptions and their monthly call counters: the executor's `Quota`, and the account pages' view. */
export interface Subscriptions extends Quota {
  /** Idempotent: an existing subscription is returned as it is; a new one is audited (`subscription.changed`) with it. */
  subscribe(accountId: number, api: ApiId, by: Attribution): Promise<{ api: ApiId; remaining: number; renews_at: string }>;
  subscribeAll(accountId: number, apis: ApiId[]): Promise<void>;
  usage(accountId: number): Promise<UsageRow[]>;
  /**
   * Gives back the calls held by instances that died (kill -9) before answering them: once
   * now, then every `intervalMs` (PostgreSQL: other instances may die at any time).
   */
  startRecovery(intervalMs?: number): Promise<void>;
  /** At shutdown, once no call is in flight: stops the recovery and gives back this instance's holds. */
  stopRecovery(): Promise<void>;
}

export interface SubscriptionsOptions {
  defaultQuota: number;
  /** This process's id in `quota_holds` (db/coordination.ts). */
  instanceId: number;
  /** PostgreSQL, a server that outlives this process: settles run apart and skip the disk wait (see quota-hold-store.ts). */
  serverDatabase?: boolean;
  /** Units a busy key takes ahead (see quota-hold-store.ts); none when absent. */
  leaseAhead?: { units: number; lowWater: number; idleMs: number };
  clock: Clock;
  /** The APIs' names in words (`URL 단축`), for the 403 and 429 messages (the catalogue is the operations'). */
  apiNames?: (api: ApiId) => ApiLabel;
  /** Told of every answered call (and of one given back after it was settled): the daily usage. */
  usage?: { count(accountId: number, api: ApiId, delta?: number): void };
  /** Where a new subscription is recorded, in its own transaction. */
  audit: AuditLog;
}

/** An API's name in words: `{ko: 'URL 단축', en: 'URL shortener'}`. */
export interface ApiLabel {
  ko: string;
  en: string;
}

/** 403: the account has no subscription to `api` (named in words; the id is what the request sends). */
export function subscriptionRequired(api: ApiId, label: ApiLabel = { ko: api, en: api }): AppError {
  return new AppError(
    'SUBSCRIPTION_REQUIRED',
    `${label.ko} API를 먼저 구독하세요. 구독 요청: POST /api/v1/subscriptions {"api":"${api}"}`,
  ).en(`Subscribe to the ${label.en} API first: POST /api/v1/subscriptions {"api":"${api}"}`);
}

/** 429: this month's calls of `api` are used up until `renewsAt` (the API named in words). */
export function quotaExceeded(api: ApiId, renewsAt: Date, retryAfterSeconds: number, label: ApiLabel = { ko: api, en: api }): AppError {
  return new AppError(
    'QUOTA_EXCEEDED',
    `이번 달 ${label.ko} 호출 한도를 모두 썼습니다. ${koreanDateTime(renewsAt)}(한국 시간)에 다시 채워집니다.`,
    { remaining: 0 },
    retryAfterSeconds,
  ).en(`This month's calls of ${label.en} are used up; they refill on ${koreaTimeEnglish(renewsAt)}.`);
}

export function createSubscriptions(db: Database, options: SubscriptionsOptions): Subscriptions {
  const { clock } = options;

  async function find(accountId: number, api: ApiId) {
    await holds.returnsLanded();
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.accountId, accountId), eq(subscriptions.api, api)));
    return row;
  }

  /** A row as the caller should see it: a lapsed period shows as already renewed, units this instance leased ahead as still there. */
  function current(row: typeof subscriptions.$inferSelect, now: Date) {
    return row.renewsAt <= now
      ? { remaining: row.monthlyQuota, renewsAt: nextRenewal(now) }
      : { remaining: row.remaining + holds.spareOf(row.accountId, row.api as ApiId, row.renewsAt), renewsAt: row.renewsAt };
  }

  const holds = createQuotaHolds(db, {
    instanceId: options.instanceId,
    clock,
    nextRenewal,
    serverDatabase: options.serverDatabase ?? false,
    leaseAhead: options.leaseAhead,
  });
  let recovery: NodeJS.Timeout | undefined;

  return {
    /** Idempotent: an existing subscription is returned as it is. */
    async subscribe(accountId: number, api: ApiId, by: Attribution): Promise<{ api: ApiId; remaining: number; renews_at: string }> {
      const quota = options.defaultQuota;
      await db.transaction(async (tx) => {
        const made = await tx
          .insert(subscriptions)
          .values({ accountId, api, monthlyQuota: quota, remaining: quota, renewsAt: nextRenewal(clock()) })
          .onConflictDoNothing()
          .returning({ api: subscriptions.api });
        if (made.length > 0)
          await options.audit.record(tx, {
            accountId,
            actor: by.actor,
            action: 'subscription.changed',
            target: `subscription:${api} subscribed`,
            ip: by.ip,
          });
      });
      const now = clock();
      const { remaining, renewsAt } = current((await find(accountId, api))!, now);
      return { api, remaining, renews_at: renewsAt.toISOString() };
    },

    async subscribeAll(accountId: number, apis: ApiId[]): Promise<void> {
      const renewsAt = nextRenewal(clock());
      const quota = options.defaultQuota;
      await db
        .insert(subscriptions)
        .values(apis.map((api) => ({ accountId, api, monthlyQuota: quota, remaining: quota, renewsAt })))
        .onConflictDoNothing();
    },

    async usage(accountId: number): Promise<UsageRow[]> {
      await holds.returnsLanded();
      const rows = await db.select().from(subscriptions).where(eq(subscriptions.accountId, accountId));
      const now = clock();
      return API_IDS.map((api) => {
        const row = rows.find((r) => r.api === api);
        if (!row) return { api, subscribed: false, remaining: null, renews_at: null, monthly_quota: null };
        const { remaining, renewsAt } = current(row, now);
        return { api, subscribed: true, remaining, renews_at: renewsAt.toISOString(), monthly_quota: row.monthlyQuota };
      });
    },

    /**
     * Takes one call from the counter, renewing a lapsed month on the way: with
     * `remaining = n`, n concurrent callers succeed and the rest get 429, on any number of
     * instances. Concurrent calls are taken together in one statement (quota-hold-store.ts); each
     * granted call is held until it is settled (answered) or refunded (failed).
     * 403 when the account has no subscription to the API.
     */
    async reserve(accountId: number, api: ApiId): Promise<QuotaLease> {
      const taken = await holds.take({ accountId, api });
      if (taken.granted) return lease(accountId, api, taken);
      if (!taken.subscribed) {
        throw subscriptionRequired(api, options.apiNames?.(api));
      }
      const renewsAt = taken.renewsAt!;
      const retryAfterSeconds = Math.max(1, Math.ceil((renewsAt.getTime() - clock().getTime()) / 1000));
      throw quotaExceeded(api, renewsAt, retryAfterSeconds, options.apiNames?.(api));
    },

    async startRecovery(intervalMs?: number): Promise<void> {
      if (!intervalMs) return void (await holds.recover());
      // Two instances recovering the same dead one may deadlock on its rows: one gives way and retries later.
      await holds.recover().catch(() => {});
      recovery = setInterval(() => void holds.recover().catch(() => {}), intervalMs);
      recovery.unref();
    },

    async stopRecovery(): Promise<void> {
      clearInterval(recovery);
      await holds.release().catch(() => {}); // the database may be away: the next start's recovery gives them back
    },
  };

  function lease(accountId: number, api: ApiId, grant: Extract<TakeResult, { granted: true }>): QuotaLease {
    let state: 'held' | 'settled' | 'returned' = 'held';
    return {
      api,
      remaining: grant.remaining,
      monthlyQuota: grant.monthlyQuota,
      renewsAt: grant.renewsAt,
      holdId: grant.holdId,
      settledWithResult() {
        if (state !== 'held') return;
        state = 'settled';
        options.usage?.count(accountId, api);
      },
      async settle() {
        if (state !== 'held') return;
        state = 'settled';
        if (await holds.settle(grant.holdId, { accountId, api })) return void options.usage?.count(accountId, api);
        // The hold was given back meanwhile (this instance lost its database session and was
        // taken for dead): the call is not paid for, so it is not answered either.
        state = 'returned';
        throw new AppError('UNAVAILABLE', '호출을 기록하지 못했습니다. 잠시 후 다시 시도하세요.', {}, 1);
      },
      async refund() {
        if (state === 'returned') return;
        const settled = state === 'settled';
        state = 'returned';
        if (settled) {
          await creditOne(accountId, api, grant.renewsAt);
          options.usage?.count(accountId, api, -1);
        } else await holds.giveBack(grant.holdId);
        this.remaining = Math.min(this.remaining + 1, this.monthlyQuota);
      },
    };
  }

  /** Gives back a call already settled (an answer that turned out free), into the same period only. */
  async function creditOne(accountId: number, api: ApiId, renewsAt: Date): Promise<void> {
    await db
      .update(subscriptions)
      .set({ remaining: sql`${subscriptions.remaining} + 1` })
      .where(
        and(
          eq(subscriptions.accountId, accountId),
          eq(subscriptions.api, api),
          eq(subscriptions.renewsAt, renewsAt),
          sql`${subscriptions.remaining} < ${subscriptions.monthlyQuota}`,
        ),
      );
  }
}
