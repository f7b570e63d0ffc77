import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Executor } from '../../db/client.js';
import { systemClock, type Clock } from '../clock.js';
import { accounts, apiKeys } from '../../db/schema.js';
import { AppError } from '../errors.js';
import type { KeyCache } from './key-cache.js';
import { createUsageStamp } from './usage-stamp.js';
import { MAX_ROW_ID, parseInput } from '../validation.js';
import type { Account } from './accounts.js';
import type { Attribution, AuditAction, AuditLog } from './audit-log.js';
import { constantTimeEqual, generateApiKey, isWellFormedApiKey, sha256 } from './secrets.js';

const keyName = z.string().trim().max(100, '키 이름은 100자 이하여야 합니다.');
/** An expiry: an ISO 8601 instant (or a date, read as its end in Korea) in the future; `null` removes it. */
const expiry = z.union([
  z
    .string()
    .trim()
    .refine((text) => /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text) && !Number.isNaN(Date.parse(text)), {
      message: 'expires_at은 2027-01-31 또는 2027-01-31T15:00:00Z 같은 날짜·시각이어야 합니다.',
    })
    .transform((text) => (/^\d{4}-\d{2}-\d{2}$/.test(text) ? new Date(`${text}T23:59:59.999+09:00`) : new Date(text))),
  z.null(),
]);

export const createKeySchema = z.object({
  name: keyName.optional(),
  expires_at: expiry.optional(),
});

export const updateKeySchema = z
  .object({ name: keyName.min(1, '키 이름을 입력하세요.').optional(), expires_at: expiry.optional() })
  .refine((body) => body.name !== undefined || body.expires_at !== undefined, { message: 'name이나 expires_at 중 하나를 보내세요.' });

/** Hours the old key keeps working after a rotation: default a day, at most thirty days, 0 = at once. */
export const rotateKeySchema = z.object({
  grace_hours: z
    .number({ message: 'grace_hours는 0에서 720 사이의 숫자(시간)여야 합니다.' })
    .min(0, 'grace_hours는 0에서 720 사이의 숫자(시간)여야 합니다.')
    .max(720, 'grace_hours는 0에서 720 사이의 숫자(시간)여야 합니다.')
    .default(24),
});

export interface KeySummary {
  id: number;
  name: string;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
  /** When the key stops working (a chosen expiry, or the end of a rotation's grace period); null: never. */
  expires_at: string | null;
}

/** API keys: created (shown once), listed, revoked, and checked on every call. */
export interface ApiKeys {
  /** Makes a key (audit `key.created`; the member who asked is kept as its maker). */
  create(account: Account, raw: unknown, by: Attribution): Promise<{ apiKey: string; key: KeySummary }>;
  list(account: Account): Promise<KeySummary[]>;
  /** Revokes at once: the next call with the key is refused here, within a second on every instance (404 when not the account's). */
  revoke(account: Account, id: number, by: Attribution): Promise<void>;
  /** Renames a key or sets its expiry (404 when not the account's; audit `key.renamed` when the name changed). */
  update(account: Account, id: number, raw: unknown, by: Attribution): Promise<KeySummary>;
  /**
   * A new key with the old one's name and expiry; the old one keeps working for `grace_hours`
   * (0: stops at once), so deployed clients can be switched over without a gap.
   */
  rotate(account: Account, id: number, raw: unknown, by: Attribution): Promise<{ apiKey: string; key: KeySummary; previous: KeySummary }>;
  /** The account that owns a live key, or undefined. */
  authenticate(key: string): Promise<(Account & { keyId: number; keyPrefix: string }) | undefined>;
}

export const keyNotFound = () => new AppError('NOT_FOUND', '해당 API 키를 찾을 수 없습니다.');
export const expiryInPast = () => new AppError('INVALID_REQUEST', 'expires_at은 지금보다 뒤의 시각이어야 합니다.');

export function createApiKeys(db: Database, cache: KeyCache, audit: AuditLog, clock: Clock = systemClock): ApiKeys {
  /** The audit row of a change to a key, through the change's own transaction. */
  function recordKey(
    tx: Executor,
    account: Account,
    action: AuditAction,
    key: { id: number; name: string; prefix: string },
    by: Attribution,
  ) {
    return audit.record(tx, {
      accountId: account.id,
      actor: by.actor,
      action,
      target: `key:${key.id} ${key.prefix} ${key.name}`,
      ip: by.ip,
    });
  }
  /** The member who asked, kept as a key's maker. */
  const makerOf = (by: Attribution) => (by.actor.kind === 'member' ? Number(by.actor.id) : null);

  const touch = createUsageStamp((keyId, at) => db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, keyId)), clock);

  // Built once: every operation call runs this lookup, and building the SQL each time costs more than running it.
  const findLiveKey = db
    .select({
      id: accounts.id,
      email: accounts.email,
      keyId: apiKeys.id,
      prefix: apiKeys.prefix,
      keyHash: apiKeys.keyHash,
      expiresAt: apiKeys.expiresAt,
    })
    .from(apiKeys)
    .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
    .where(and(eq(apiKeys.keyHash, sql.placeholder('hash')), isNull(apiKeys.revokedAt)))
    .prepare('find_live_api_key');

  return {
    async create(account: Account, raw: unknown, by: Attribution): Promise<{ apiKey: string; key: KeySummary }> {
      const { name, expires_at } = parseInput(createKeySchema, raw);
      if (expires_at && expires_at <= clock()) throw expiryInPast();
      const { key, hash, prefix } = generateApiKey();
      const row = await db.transaction(async (tx) => {
        const [made] = await tx
          .insert(apiKeys)
          .values({
            accountId: account.id,
            name: name || 'default',
            prefix,
            keyHash: hash,
            expiresAt: expires_at ?? null,
            createdBy: makerOf(by),
          })
          .returning();
        await recordKey(tx, account, 'key.created', made!, by);
        return made!;
      });
      return { apiKey: key, key: summarize(row) };
    },

    async update(account: Account, id: number, raw: unknown, by: Attribution): Promise<KeySummary> {
      const body = parseInput(updateKeySchema, raw);
      if (body.expires_at && body.expires_at <= clock()) throw expiryInPast();
      if (id > MAX_ROW_ID) throw keyNotFound();
      const row = await db.transaction(async (tx) => {
        const [old] = await tx
          .select({ name: apiKeys.name })
          .from(apiKeys)
          .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, account.id), isNull(apiKeys.revokedAt)))
          .for('update');
        if (!old) throw keyNotFound();
        const [changed] = await tx
          .update(apiKeys)
          .set({
            ...(body.name !== undefined ? { name: body.name } : {}),
            ...(body.expires_at !== undefined ? { expiresAt: body.expires_at } : {}),
          })
          .where(eq(apiKeys.id, id))
          .returning();
        // The audit names what a member sees change: a new name (`key.renamed`); a new expiry is the key's own setting.
        if (body.name !== undefined && body.name !== old.name) await recordKey(tx, account, 'key.renamed', changed!, by);
        return changed!;
      });
      // A cached entry holds the old expiry: every instance reads the key again.
      if (body.expires_at !== undefined) await cache.revoked(id);
      return summarize(row);
    },

    async rotate(account: Account, id: number, raw: unknown, by: Attribution) {
      const { grace_hours } = parseInput(rotateKeySchema, raw);
      if (id > MAX_ROW_ID) throw keyNotFound();
      const now = clock();
      const { key, hash, prefix } = generateApiKey();
      return db.transaction(async (tx) => {
        const [old] = await tx
          .select()
          .from(apiKeys)
          .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, account.id), isNull(apiKeys.revokedAt)))
          .for('update');
        if (!old || (old.expiresAt && old.expiresAt <= now)) throw keyNotFound();
        const graceEnd = new Date(now.getTime() + grace_hours * 3_600_000);
        const endsAt = old.expiresAt && old.expiresAt < graceEnd ? old.expiresAt : graceEnd;
        const [previous] = await tx.update(apiKeys).set({ expiresAt: endsAt }).where(eq(apiKeys.id, id)).returning();
        const [row] = await tx
          .insert(apiKeys)
          .values({ accountId: account.id, name: old.name, prefix, keyHash: hash, expiresAt: old.expiresAt, createdBy: makerOf(by) })
          .returning();
        await recordKey(tx, account, 'key.rotated', row!, by);
        await cache.revoked(id);
        return { apiKey: key, key: summarize(row!), previous: summarize(previous!) };
      });
    },

    async list(account: Account): Promise<KeySummary[]> {
      const rows = await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.accountId, account.id), isNull(apiKeys.revokedAt)))
        .orderBy(desc(apiKeys.id));
      // An expired key no longer works: it is not listed either.
      const now = clock();
      return rows.filter((row) => !row.expiresAt || row.expiresAt > now).map(summarize);
    },

    /** Revokes at once: the next call with the key is refused here, and within a second on every instance. */
    async revoke(account: Account, id: number, by: Attribution): Promise<void> {
      // Ids are PostgreSQL integers: a larger one names no key (and would fail the query).
      if (id > MAX_ROW_ID) throw keyNotFound();
      await db.transaction(async (tx) => {
        const [revoked] = await tx
          .update(apiKeys)
          .set({ revokedAt: clock() })
          .where(and(eq(apiKeys.id, id), eq(apiKeys.accountId, account.id), isNull(apiKeys.revokedAt)))
          .returning();
        if (!revoked) throw keyNotFound();
        await recordKey(tx, account, 'key.revoked', revoked, by);
      });
      await cache.revoked(id);
    },

    /** The account that owns a live key, or undefined: from the cache, else one indexed lookup. */
    async authenticate(key: string): Promise<(Account & { keyId: number; keyPrefix: string }) | undefined> {
      const hash = sha256(key);
      const cached = cache.get(hash);
      if (cached) {
        if (cached.expiresAtMs !== undefined && cached.expiresAtMs <= clock().getTime()) return undefined;
        touch(cached.keyId);
        return { id: cached.accountId, email: cached.email, keyId: cached.keyId, keyPrefix: cached.prefix };
      }
      // The checksum keeps junk keys from the database; a cached key has passed it already.
      if (!isWellFormedApiKey(key)) return undefined;
      const generation = cache.generation();
      const [row] = await findLiveKey.execute({ hash });
      if (!row || !constantTimeEqual(row.keyHash, hash)) return undefined;
      if (row.expiresAt && row.expiresAt <= clock()) return undefined;
      cache.set(
        hash,
        { accountId: row.id, email: row.email, keyId: row.keyId, prefix: row.prefix, expiresAtMs: row.expiresAt?.getTime() },
        generation,
      );
      touch(row.keyId);
      return { id: row.id, email: row.email, keyId: row.keyId, keyPrefix: row.prefix };
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
    expires_at: row.expiresAt?.toISOString() ?? null,
  };
}
