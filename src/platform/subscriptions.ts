import { and, eq, gt, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { subscriptions } from '../../db/schema.js';
import { AppError } from '../errors.js';
import type { Clock } from '../clock.js';
import { nextSeoulMonth } from '../seoul-time.js';
import { API_IDS, type ApiId } from './catalog.js';
import type { Quota, QuotaLease } from './quota.js';

export type { QuotaLease } from './quota.js';

export interface UsageRow {
  api: ApiId;
  subscribed: boolean;
  remaining: number | null;
  renews_at: string | null;
}

/** Counters renew at the start of each calendar month in Asia/Seoul. */
const nextRenewal = nextSeoulMonth;

/** Subscriptions and their monthly call counters: the executor's `Quota`, and the account pages' view. */
export interface Subscriptions extends Quota {
  /** Idempotent: an existing subscription is returned as it is. */
  subscribe(accountId: number, api: ApiId): Promise<{ api: ApiId; remaining: number; renews_at: string }>;
  subscribeAll(accountId: number, apis: ApiId[]): Promise<void>;
  usage(accountId: number): Promise<UsageRow[]>;
}

export function createSubscriptions(db: Database, options: { defaultQuota: number; clock: Clock }): Subscriptions {
  const { clock } = options;

  async function find(accountId: number, api: ApiId) {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.accountId, accountId), eq(subscriptions.api, api)));
    return row;
  }

  /** A row as the caller should see it: a lapsed period shows as already renewed. */
  function current(row: typeof subscriptions.$inferSelect, now: Date) {
    return row.renewsAt <= now
      ? { remaining: row.monthlyQuota, renewsAt: nextRenewal(now) }
      : { remaining: row.remaining, renewsAt: row.renewsAt };
  }

  // The statement of every operation call, built once. A lapsed month renews on the way.
  const lapsed = sql`${subscriptions.renewsAt} <= ${sql.placeholder('now')}::timestamptz`;
  const takeOneCall = db
    .update(subscriptions)
    .set({
      remaining: sql`CASE WHEN ${lapsed} THEN ${subscriptions.monthlyQuota} - 1 ELSE ${subscriptions.remaining} - 1 END`,
      renewsAt: sql`CASE WHEN ${lapsed} THEN ${sql.placeholder('next')}::timestamptz ELSE ${subscriptions.renewsAt} END`,
    })
    .where(
      and(
        eq(subscriptions.accountId, sql.placeholder('accountId')),
        eq(subscriptions.api, sql.placeholder('api')),
        or(gt(subscriptions.remaining, 0), and(lapsed, gt(subscriptions.monthlyQuota, 0))),
      ),
    )
    .returning()
    .prepare('take_one_call');

  return {
    /** Idempotent: an existing subscription is returned as it is. */
    async subscribe(accountId: number, api: ApiId): Promise<{ api: ApiId; remaining: number; renews_at: string }> {
      await this.subscribeAll(accountId, [api]);
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
      const rows = await db.select().from(subscriptions).where(eq(subscriptions.accountId, accountId));
      const now = clock();
      return API_IDS.map((api) => {
        const row = rows.find((r) => r.api === api);
        if (!row) return { api, subscribed: false, remaining: null, renews_at: null };
        const { remaining, renewsAt } = current(row, now);
        return { api, subscribed: true, remaining, renews_at: renewsAt.toISOString() };
      });
    },

    /**
     * Takes one call from the counter in a single statement, renewing a lapsed month on the
     * way: with `remaining = n`, n concurrent callers succeed and the rest get 429.
     * 403 when the account has no subscription to the API.
     */
    async reserve(accountId: number, api: ApiId): Promise<QuotaLease> {
      const now = clock();
      const [row] = await takeOneCall.execute({ accountId, api, now: now.toISOString(), next: nextRenewal(now).toISOString() });
      if (row) return lease(accountId, api, row);

      const existing = await find(accountId, api);
      if (!existing) {
        throw new AppError('SUBSCRIPTION_REQUIRED', `'${api}' API 구독이 필요합니다. POST /api/v1/subscriptions 로 구독하세요.`);
      }
      const retryAfterSeconds = Math.max(1, Math.ceil((existing.renewsAt.getTime() - now.getTime()) / 1000));
      throw new AppError(
        'QUOTA_EXCEEDED',
        `이번 달 '${api}' 호출 한도를 모두 사용했습니다. ${existing.renewsAt.toISOString()}에 초기화됩니다.`,
        { remaining: 0 },
        retryAfterSeconds,
      );
    },
  };

  function lease(accountId: number, api: ApiId, row: typeof subscriptions.$inferSelect): QuotaLease {
    let refunded = false;
    return {
      api,
      remaining: row.remaining,
      monthlyQuota: row.monthlyQuota,
      renewsAt: row.renewsAt,
      async refund() {
        if (refunded) return;
        refunded = true;
        // Only into the same period: a call reserved last month is not refunded into this one.
        await db
          .update(subscriptions)
          .set({ remaining: sql`${subscriptions.remaining} + 1` })
          .where(
            and(
              eq(subscriptions.accountId, accountId),
              eq(subscriptions.api, api),
              eq(subscriptions.renewsAt, row.renewsAt),
              sql`${subscriptions.remaining} < ${subscriptions.monthlyQuota}`,
            ),
          );
        this.remaining = Math.min(this.remaining + 1, this.monthlyQuota);
      },
    };
  }
}
