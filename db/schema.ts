import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const accounts = pgTable('accounts', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  /** Stored lower-cased; unique. */
  email: text('email').notNull().unique(),
  /** scrypt, self-describing (`scrypt$N$r$p$salt$hash`). */
  passwordHash: text('password_hash').notNull(),
  createdAt: createdAt(),
});

/** Login tokens for the account endpoints; only their SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('sessions_account_idx').on(table.accountId)],
);

/** API keys: only the SHA-256 of the key and a display prefix are stored. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('api_keys_account_idx').on(table.accountId)],
);

/** One row per account and catalogue API: the monthly call counter. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    api: text('api').notNull(),
    monthlyQuota: integer('monthly_quota').notNull(),
    remaining: integer('remaining').notNull(),
    /** Start of the next period (the first of the next month, Asia/Seoul). */
    renewsAt: timestamp('renews_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.api] })],
);

export const shortLinks = pgTable(
  'short_links',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    code: varchar('code', { length: 5 }).notNull(),
    url: text('url').notNull(),
    /** SHA-256 of the normalized URL: the per-account dedupe key (URLs can exceed index limits). */
    urlHash: text('url_hash').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('short_links_code_key').on(table.code),
    uniqueIndex('short_links_account_url_key').on(table.accountId, table.urlHash),
  ],
);

export const linkClicks = pgTable(
  'link_clicks',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    linkId: integer('link_id')
      .notNull()
      .references(() => shortLinks.id, { onDelete: 'cascade' }),
    clickedAt: timestamp('clicked_at', { withTimezone: true }).notNull(),
    referrerHost: text('referrer_host'),
    /** desktop | mobile | tablet | bot | other */
    agentClass: text('agent_class').notNull(),
    isBot: boolean('is_bot').notNull(),
  },
  (table) => [index('link_clicks_link_time_idx').on(table.linkId, table.clickedAt)],
);

export const schema = { accounts, sessions, apiKeys, subscriptions, shortLinks, linkClicks };
