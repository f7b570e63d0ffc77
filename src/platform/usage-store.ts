import { and, desc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { apiKeys, keyErrors, usageDaily } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import { seoulDate } from '../seoul-time.js';
import type { ApiId } from './catalog.js';

/** How many refused calls are kept per key (older ones are deleted as new ones arrive). */
export const KEY_ERRORS_KEPT = 20;
/** Pending counts are written at least this often (and before every read, and at shutdown). */
const FLUSH_MS = 2_000;
/** Distinct (account, API, day) counts held before a write is forced: memory stays bounded under any load. */
const MAX_PENDING = 5_000;

export interface DailyUsage {
  day: string;
  api: ApiId;
  calls: number;
}

export interface KeyErrorRow {
  key_id: number;
  api: ApiId | null;
  status: number;
  error_code: string;
  at: string;
}

/**
 * What the portal's usage view reads: answered calls per account, API and Seoul day, and the
 * last refused calls of each key (status, error code, time; never a body). Counts are summed in
 * memory and written in one statement a few times a second at most, so an answered call costs
 * no extra round trip; a read writes what is pending first.
 */
export interface UsageLog {
  /** One answered call (`delta` −1 when a settled call is given back). */
  count(accountId: number, api: ApiId, delta?: number): void;
  /** A refused call of a key (4xx/5xx): kept, at most KEY_ERRORS_KEPT per key. */
  refused(keyId: number, api: ApiId | null, status: number, errorCode: string): void;
  /** Calls per day between two Seoul dates (inclusive), days without calls left out. */
  daily(accountId: number, from: string, to: string): Promise<DailyUsage[]>;
  /** The last refused calls of the account's keys, newest first. */
  lastErrors(accountId: number): Promise<KeyErrorRow[]>;
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export function createUsageLog(db: Database, clock: Clock, logger: Logger): UsageLog {
  let pending = new Map<string, { accountId: number; api: ApiId; day: string; calls: number }>();
  let errors: { keyId: number; api: ApiId | null; status: number; errorCode: string; at: Date }[] = [];
  let inFlight: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  function schedule(): void {
    // Refused calls are "the last few per key": past the bound while a write is under way, the oldest go.
    if (errors.length > MAX_PENDING) errors.splice(0, errors.length - MAX_PENDING);
    if (pending.size + errors.length >= MAX_PENDING && !inFlight) return void flush();
    if (timer) return;
    timer = setTimeout(() => void flush(), FLUSH_MS);
    timer.unref();
  }

  /** Writes what is pending; one write at a time (a caller arriving meanwhile waits for it, then writes what came since). */
  function flush(): Promise<void> {
    if (inFlight) return inFlight.then(flush);
    clearTimeout(timer);
    timer = undefined;
    const counts = [...pending.values()].filter((row) => row.calls !== 0);
    const refused = errors;
    pending = new Map();
    errors = [];
    if (counts.length === 0 && refused.length === 0) return Promise.resolve();
    inFlight = write(counts, refused)
      .catch((error: unknown) => logger.warn({ err: error }, 'usage log not written'))
      .finally(() => {
        inFlight = undefined;
      });
    return inFlight;
  }

  async function write(counts: typeof pending extends Map<string, infer Row> ? Row[] : never, refused: typeof errors): Promise<void> {
    if (counts.length > 0)
      await db
        .insert(usageDaily)
        .values(counts)
        .onConflictDoUpdate({
          target: [usageDaily.accountId, usageDaily.api, usageDaily.day],
          set: { calls: sql`greatest(${usageDaily.calls} + excluded.calls, 0)` },
        });
    if (refused.length === 0) return;
    // Only the newest few per key are worth writing at all (a flood of refusals writes 20 rows a key); older rows go after.
    const seen = new Map<number, number>();
    const newest = refused
      .reverse()
      .filter((row) => {
        const count = (seen.get(row.keyId) ?? 0) + 1;
        seen.set(row.keyId, count);
        return count <= KEY_ERRORS_KEPT;
      })
      .reverse();
    await db.insert(keyErrors).values(newest);
    const keys = [...new Set(newest.map((row) => row.keyId))];
    await db.execute(sql`
      delete from ${keyErrors} where ${inArray(keyErrors.keyId, keys)} and ${keyErrors.id} not in (
        select id from (
          select id, row_number() over (partition by key_id order by id desc) as n from ${keyErrors} where ${inArray(keyErrors.keyId, keys)}
        ) ranked where n <= ${KEY_ERRORS_KEPT}
      )`);
  }

  return {
    count(accountId, api, delta = 1) {
      const day = seoulDate(clock());
      const key = `${accountId}|${api}|${day}`;
      const row = pending.get(key);
      if (row) row.calls += delta;
      else pending.set(key, { accountId, api, day, calls: delta });
      schedule();
    },
    refused(keyId, api, status, errorCode) {
      errors.push({ keyId, api, status, errorCode, at: clock() });
      schedule();
    },
    async daily(accountId, from, to) {
      await flush();
      const rows = await db
        .select({ day: usageDaily.day, api: usageDaily.api, calls: usageDaily.calls })
        .from(usageDaily)
        .where(and(eq(usageDaily.accountId, accountId), gte(usageDaily.day, from), lte(usageDaily.day, to)))
        .orderBy(usageDaily.day, usageDaily.api);
      return rows.filter((row) => row.calls > 0).map((row) => ({ ...row, api: row.api as ApiId }));
    },
    async lastErrors(accountId) {
      await flush();
      const rows = await db
        .select({ keyId: keyErrors.keyId, api: keyErrors.api, status: keyErrors.status, errorCode: keyErrors.errorCode, at: keyErrors.at })
        .from(keyErrors)
        .innerJoin(apiKeys, eq(apiKeys.id, keyErrors.keyId))
        .where(eq(apiKeys.accountId, accountId))
        .orderBy(desc(keyErrors.id))
        .limit(KEY_ERRORS_KEPT * 10);
      return rows.map((row) => ({
        key_id: row.keyId,
        api: row.api as ApiId | null,
        status: row.status,
        error_code: row.errorCode,
        at: row.at.toISOString(),
      }));
    },
    flush,
    async stop() {
      await flush();
    },
  };
}
