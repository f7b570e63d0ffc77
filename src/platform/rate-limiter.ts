import { rowsOf } from '../../db/rows.js';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';

export interface RateLimiterOptions {
  /** Upstream calls per second allowed for the whole project (default 10). */
  perSecond?: number;
  /** Longest wait for a slot before answering 429 (default 5 s). */
  maxWaitMs?: number;
  /** One bucket per upstream credential; every instance uses the same name. */
  bucket?: string;
  /**
   * Tests: "now" from this clock instead of the database's, and waits through `sleep`, so
   * slot counts do not depend on how fast a loaded machine runs the statements.
   */
  clock?: Clock;
  sleep?: (ms: number) => Promise<void>;
  /** The 429 a refused caller gets (default: the tracker's TRACKER_BUSY). */
  busy?: (retryAfterSeconds: number) => AppError;
}

export interface RateLimiter {
  /** Resolves when the caller may make one upstream call; 429 TRACKER_BUSY when the wait would be too long. */
  acquire(): Promise<void>;
}

/**
 * An upstream's rate limit (the tracker's, the NTS's: one bucket each), shared by every instance through the database (GCRA): a row
 * holds the time at which the next call may start. One atomic upsert takes the next slot
 * (pushing that time one interval further) unless the slot lies more than `maxWaitMs`
 * ahead; the caller then sleeps until its slot. Database time is used, so instances with
 * skewed clocks still agree (unless a test injects `clock`). A refused caller took nothing
 * and gets `Retry-After`.
 */
export function createRateLimiter(db: Database, options: RateLimiterOptions = {}): RateLimiter {
  const intervalMs = 1000 / (options.perSecond ?? 10);
  const maxWaitMs = options.maxWaitMs ?? 5000;
  const bucket = options.bucket ?? 'tracker';
  const interval = sql`(${intervalMs}::double precision * interval '1 millisecond')`;
  const maxWait = sql`(${maxWaitMs}::double precision * interval '1 millisecond')`;
  const clock = options.clock;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));

  async function take(): Promise<{ waitMs: number } | { retryAfterMs: number }> {
    const now = clock ? sql`${clock().toISOString()}::timestamptz` : sql`clock_timestamp()`;
    const taken = await db.execute<{ wait_ms: number }>(sql`
      insert into delivery_rate_slots as s (bucket, next_at) values (${bucket}, ${now} + ${interval})
      on conflict (bucket) do update set next_at = greatest(s.next_at, ${now}) + ${interval}
        where s.next_at <= ${now} + ${maxWait}
      returning extract(epoch from (s.next_at - ${interval} - ${now})) * 1000 as wait_ms`);
    const row = rowsOf<{ wait_ms: number }>(taken)[0];
    if (row) return { waitMs: Math.max(0, Number(row.wait_ms)) };
    const current = await db.execute<{ ahead_ms: number }>(sql`
      select extract(epoch from (next_at - ${now})) * 1000 as ahead_ms from delivery_rate_slots where bucket = ${bucket}`);
    const ahead = Number(rowsOf<{ ahead_ms: number }>(current)[0]?.ahead_ms ?? maxWaitMs);
    return { retryAfterMs: Math.max(intervalMs, ahead - maxWaitMs) };
  }

  return {
    async acquire() {
      const slot = await take();
      if ('retryAfterMs' in slot) throw (options.busy ?? trackerBusy)(Math.max(1, Math.ceil(slot.retryAfterMs / 1000)));
      if (slot.waitMs > 0) await sleep(slot.waitMs);
    },
  };
}

function trackerBusy(retryAfterSeconds: number): AppError {
  return new AppError(
    'TRACKER_BUSY',
    '택배 조회 요청이 많아 잠시 기다려야 합니다. 잠시 후 다시 시도하세요. (이 호출은 차감되지 않았습니다.)',
    {},
    retryAfterSeconds,
  );
}
