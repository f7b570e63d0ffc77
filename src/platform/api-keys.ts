import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { accounts, apiKeys } from '../../db/schema.js';
import { AppError } from '../errors.js';
import type { KeyCache } from './key-cache.js';
import { MAX_ROW_ID, parseInput } from '../validation.js';
import type { Account } from './accounts.js';
import { constantTimeEqual, generateApiKey, isWellFormedApiKey, sha256 } from './secrets.js';

export const createKeySchema = z.object({
  name: z.string().trim().max(100, '키 이름은 100자 이하여야 합니다.').optional(),
});

/** `last_used_at` is a convenience: written at most once a minute per key, not per call. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface KeySummary {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

/** API keys: created (shown once), listed, revoked, and checked on every call. */
export interface ApiKeys {
  create(account: Account, raw: unknown): Promise<{ apiKey: string; key: KeySummary }>;
  list(account: Account): Promise<KeySummary[]>;
  /** Revokes at once: the next call with the key is refused here, within a second on every instance (404 when not the account's). */
  revoke(account: Account, id: number): Promise<void>;
  /** The account that owns a live key, or undefined. */
  authenticate(key: string): Promise<(Account & { keyId: number }) | undefined>;
}

export const keyNotFound = () => new AppError('NOT_FOUND', '해당 API 키를 찾을 수 없습니다.');

export function createApiKeys(db: Database, cache: KeyCache): ApiKeys {
  const lastUsedWritten = new Map<number, number>();

  function touch(keyId: number): void {
    const nowMs = Date.now();
    if (nowMs - (lastUsedWritten.get(keyId) ?? 0) < LAST_USED_RESOLUTION_MS) return;
    lastUsedWritten.set(keyId, nowMs);
    // Fire and forget: a failed bookkeeping write must not fail the caller's request.
    db.update(apiKeys)
      .set({ lastUsedAt: new Date(nowMs) })
      .where(eq(apiKeys.id, keyId))
      .catch(() => {});
  }

  // Built once: every operation call runs this lookup, and building the SQL each time costs more than running it.
  const findLiveKey = db
    .select({ id: accounts.id, email: accounts.email, keyId: apiKeys.id, keyHash: apiKeys.keyHash })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare('find_live_api_key');

  return {
    async create(account: Account, raw: unknown): Promise<{ apiKey: string; key: KeySummary }> {
      const { name } = parseInput(createKeySchema, raw);
      const { key, hash, prefix } = generateApiKey();
      const [row] = await db
        .insert(apiKeys)
        .values({ accountId: account.id, name: name || 'default', prefix, keyHash: hash })
        .returning();
      return { apiKey: key, key: summarize(row!) };
    },

    async list(account: Account): Promise<KeySummary[]> {
      const rows = await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.accountId, account.id), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.id));
      return rows.map(summarize);
    },

    /** Revokes at once: the next call with the key is refused here, and within a second on every instance. */
    async revoke(account: Account, id: number): Promise<void> {
      // Ids are PostgreSQL integers: a larger one names no key (and would fail the query).
      if (id > MAX_ROW_ID) throw keyNotFound();
      const revoked = await db
        .update(apiKeys)
        .set({ revokedAt: new Date() })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, account.id), isNull(apiKeys.revokedAt)))
        .returning({ id: apiKeys.id });
      if (revoked.length === 0) throw keyNotFound();
      await cache.revoked(id);
    },

    /** The account that owns a live key, or undefined: from the cache, else one indexed lookup. */
    async authenticate(key: string): Promise<(Account & { keyId: number }) | undefined> {
      const hash = sha256(key);
      const cached = cache.get(hash);
      if (cached) {
        touch(cached.keyId);
        return { id: cached.accountId, email: cached.email, keyId: cached.keyId };
      }
      // The checksum keeps junk keys from the database; a cached key has passed it already.
      if (!isWellFormedApiKey(key)) return undefined;
      const generation = cache.generation();
      const [row] = await findLiveKey.execute({ hash });
      if (!row || !constantTimeEqual(row.keyHash, hash)) return undefined;
      cache.set(hash, { accountId: row.id, email: row.email, keyId: row.keyId }, generation);
      touch(row.keyId);
      return { id: row.id, email: row.email, keyId: row.keyId };
    },
  };
}

function summarize(row: typeof apiKeys.$inferSelect): KeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}
