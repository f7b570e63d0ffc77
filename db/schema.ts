import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** An account is a team (issue 48): keys, subscriptions and quotas belong to it, people to `teamMembers`. */
export const accounts = pgTable('accounts', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  /** The founding owner's e-mail, lower-cased: the team's label (not unique: members' e-mails are). */
  email: text('email').notNull(),
  createdAt: createdAt(),
});

/** The people of a team: each with their own e-mail, password, role and sessions. */
export const teamMembers = pgTable(
  'team_members',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** Stored lower-cased; unique across teams (one person, one team). */
    email: text('email').notNull().unique(),
    /** scrypt, self-describing (`scrypt$N$r$p$salt$hash`). */
    passwordHash: text('password_hash').notNull(),
    /** owner | admin | developer | viewer (src/platform/roles.ts). */
    role: text('role').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    /** Written at most once a minute per member. */
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (table) => [index('team_members_account_idx').on(table.accountId)],
);

/** One-time invitations into a team; only the SHA-256 of the link's token is stored. */
export const teamInvites = pgTable(
  'team_invites',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    invitedBy: integer('invited_by').references(() => teamMembers.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('team_invites_account_idx').on(table.accountId), index('team_invites_expiry_idx').on(table.expiresAt)],
);

/**
 * Who did what, when and from where (issue 48). Append-only: a trigger refuses UPDATE, and DELETE
 * of rows younger than a year (migration 0022). Never a key, password, token or message text.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    /** member | api_key | slack | discord | system */
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id').notNull(),
    actorLabel: text('actor_label').notNull(),
    action: text('action').notNull(),
    target: text('target').notNull(),
    ip: text('ip'),
  },
  (table) => [index('audit_events_account_at_idx').on(table.accountId, table.at), index('audit_events_at_idx').on(table.at)],
);

/** Login tokens for the account endpoints; only their SHA-256 is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The member signed in: removing the member ends the session (cascade). */
    memberId: integer('member_id')
      .notNull()
      .references(() => teamMembers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('sessions_account_idx').on(table.accountId), index('sessions_member_idx').on(table.memberId)],
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
    /** The key stops working at this instant (a chosen expiry, or the end of a rotation's grace period). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The member who made it; the key stays with the team when they leave. */
    createdBy: integer('created_by').references(() => teamMembers.id, { onDelete: 'set null' }),
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

/**
 * Calls charged but not yet answered, counted per instance, account, API and period: one row
 * whose `units` grows by what a statement takes from `subscriptions.remaining` and shrinks as the
 * calls are answered (the charge stands) or fail (the unit goes back). An instance updates only
 * its own rows, so answering calls never touches the busy subscription row. Rows of an instance
 * that died (kill -9) are given back by whichever instance finds them first, so a crash never
 * keeps a charge for a call nobody answered (src/platform/quota-hold-store.ts).
 */
export const quotaHolds = pgTable(
  'quota_holds',
  {
    /** The lease: a row given back (its instance taken for dead) and taken again is a new id, so old calls cannot settle on it. */
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Random per process start; on PostgreSQL the process holds an advisory lock on it while alive. */
    instanceId: integer('instance_id').notNull(),
    accountId: integer('account_id').notNull(),
    api: text('api').notNull(),
    /** The period charged: a refund after the month renewed does not go into the new month. */
    renewsAt: timestamp('renews_at', { withTimezone: true }).notNull(),
    /** Calls taken and neither answered nor given back yet. */
    units: integer('units').notNull().default(0),
  },
  (table) => [uniqueIndex('quota_holds_lease_key').on(table.instanceId, table.accountId, table.api, table.renewsAt)],
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
    /** Issue 36: after this instant the link answers 410 (null: never). */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** Issue 36: human clicks allowed (null: no limit); `clicksUsed` counts them atomically. */
    maxClicks: integer('max_clicks'),
    clicksUsed: integer('clicks_used').notNull().default(0),
    /** Made from a chat (`/shorten`): the channel told when a rescan finds the target harmful. */
    originPlatform: text('origin_platform'),
    originWorkspace: text('origin_workspace'),
    originChannel: text('origin_channel'),
    /** Issue 40 item 6: the last rescan, and what it found when the target turned harmful. */
    scannedAt: timestamp('scanned_at', { withTimezone: true }),
    harmCategory: text('harm_category'),
    harmReason: text('harm_reason'),
    harmFoundAt: timestamp('harm_found_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('short_links_code_key').on(table.code),
    // Links with a limit are each their own (a campaign's expiring link is not the everyday one).
    uniqueIndex('short_links_account_url_key')
      .on(table.accountId, table.urlHash)
      .where(sql`expires_at IS NULL AND max_clicks IS NULL`),
    index('short_links_rescan_idx')
      .on(table.scannedAt.asc().nullsFirst(), table.id)
      .where(sql`harm_category IS NULL`),
  ],
);

/**
 * Clicks rolled up per link, minute, referrer host and agent class: a burst of redirects
 * becomes a few upserts instead of a row per click, yet time, referrer and agent survive.
 */
export const linkClicks = pgTable(
  'link_click_counts',
  {
    linkId: integer('link_id')
      .notNull()
      .references(() => shortLinks.id, { onDelete: 'cascade' }),
    minute: timestamp('minute', { withTimezone: true }).notNull(),
    /** '' when the request had no (parsable) Referer. */
    referrerHost: text('referrer_host').notNull().default(''),
    /** desktop | mobile | tablet | bot | other */
    agentClass: text('agent_class').notNull(),
    isBot: boolean('is_bot').notNull(),
    clicks: integer('clicks').notNull(),
  },
  (table) => [primaryKey({ columns: [table.linkId, table.minute, table.referrerHost, table.agentClass, table.isBot] })],
);

/**
 * Clicks per link, day (Asia/Seoul) and facet: `source` (qr | direct), `device`, `os`,
 * `browser`, `country` families, and `visitors` (new unique visitors that day). Values per link
 * and day are capped in the recorder, so the table grows with days and links, not with input.
 */
export const linkClickFacets = pgTable(
  'link_click_facets',
  {
    linkId: integer('link_id')
      .notNull()
      .references(() => shortLinks.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    facet: text('facet').notNull(),
    value: text('value').notNull(),
    isBot: boolean('is_bot').notNull(),
    clicks: integer('clicks').notNull(),
  },
  (table) => [primaryKey({ name: 'link_click_facets_pk', columns: [table.linkId, table.day, table.facet, table.value, table.isBot] })],
);

/** Today's and yesterday's visitor hashes (HMAC of address and agent under the day's salt); older days are deleted. */
export const linkVisitors = pgTable(
  'link_visitors',
  {
    linkId: integer('link_id')
      .notNull()
      .references(() => shortLinks.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    visitor: text('visitor').notNull(),
  },
  (table) => [primaryKey({ name: 'link_visitors_pk', columns: [table.linkId, table.day, table.visitor] })],
);

/** One random salt per day, shared by the instances; deleted with the day's visitor hashes. */
export const linkVisitorSalts = pgTable('link_visitor_salts', {
  day: date('day').primaryKey(),
  salt: text('salt').notNull(),
});

const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Harmful-URL feeds: one row per configured feed, its state, and the `generation` of its
 * stored content in `url_list_chunks`. A refresh writes the new generation's chunks, then
 * switches `generation` in one statement: readers see the old content or the new, never
 * half of it. A failed download keeps the generation and sets `last_error`.
 */
export const urlListSources = pgTable('url_list_sources', {
  name: text('name').primaryKey(),
  url: text('url').notNull(),
  /** spam | gambling | adult | phishing | malware | clean (a top-sites list for the model) */
  category: text('category').notNull(),
  /** hosts | domains | urls | adblock | csv */
  format: text('format').notNull(),
  entryCount: integer('entry_count').notNull(),
  /** Lines of the last download that could not be read. */
  skippedCount: integer('skipped_count').notNull().default(0),
  /** Last successful download (null until one succeeds). */
  fetchedAt: timestamp('fetched_at', { withTimezone: true }),
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  lastError: text('last_error'),
  /** Which chunks of `url_list_chunks` hold the feed's content (0: none yet). */
  generation: integer('generation').notNull().default(0),
  /** Chunks the generation has, per kind, e.g. `{"hashes":5,"exceptions":1,"sample":1}` (a reader checks it got them all). */
  chunks: text('chunks').notNull().default('{}'),
});

/**
 * A feed's content in base64 text chunks of at most a megabyte (text, not bytea: PGlite
 * converts bytea byte by byte in JavaScript, which held the event loop for seconds):
 * - `hashes`: the sorted 64-bit hashes of its entries (clean feeds: of their registrable domains);
 * - `exceptions`: the sorted hashes of its `@@` exceptions;
 * - `sample`: gzip of its training hosts (at most what the lexical model keeps), one a line.
 */
export const urlListChunks = pgTable(
  'url_list_chunks',
  {
    name: text('name').notNull(),
    generation: integer('generation').notNull(),
    kind: text('kind').notNull(),
    seq: integer('seq').notNull(),
    data: text('data').notNull(),
  },
  (table) => [primaryKey({ columns: [table.name, table.generation, table.kind, table.seq] })],
);

/**
 * The lexical model trained on the stored feeds, saved so that a restart or another instance
 * loads it instead of training again. `version` names the feed state it was trained on.
 */
export const urlListModels = pgTable('url_list_models', {
  name: text('name').primaryKey(),
  version: text('version').notNull(),
  /** JSON: examples per class, threshold, training time. */
  info: text('info').notNull(),
  /** JSON `{generation, chunks}`: the `url_list_chunks` (name `@model/<name>`, kind `weights`) holding the gzip of the Float32 weights and biases. */
  weights: text('weights').notNull(),
  trainedAt: timestamp('trained_at', { withTimezone: true }).notNull(),
});

/**
 * Parcel tracking results shared by every account (SPEC §7 rule 4): served for 2 hours while
 * the parcel moves, forever once delivered. `result` holds the SPEC-shaped carrier/state/progresses.
 */
export const deliveryTrackingCache = pgTable(
  'delivery_tracking_cache',
  {
    carrierId: text('carrier_id').notNull(),
    trackId: text('track_id').notNull(),
    result: jsonb('result').notNull(),
    delivered: boolean('delivered').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.carrierId, table.trackId] })],
);

/**
 * The tracker's rate limit shared by every instance: per bucket, the time at which the next
 * upstream call may start (GCRA). One atomic upsert takes a slot or refuses a long wait.
 */
export const deliveryRateSlots = pgTable('delivery_rate_slots', {
  bucket: text('bucket').primaryKey(),
  nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
});

/** drizzle has no tsvector type: the chatbot writes tsvector literals it builds itself. */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/** Knowledge entries of the chatbot (SPEC §1): the text as the account stored it. */
export const knowledgeEntries = pgTable(
  'knowledge_entries',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    createdAt: createdAt(),
    /** Where the text came from: a file name, a page title, a thread; shown with answers. */
    source: text('source'),
    /** A link back to it (the page, the thread). */
    sourceUrl: text('source_url'),
    /** A channel or server the entry answers in only; null: the account's common knowledge. */
    scope: text('scope'),
  },
  (table) => [index('knowledge_entries_account_idx').on(table.accountId, table.id)],
);

/**
 * Searchable pieces of the entries: Hangul bigrams and Latin words in a tsvector (GIN), the
 * token count for BM25, and an optional embedding as a plain float array (no extension).
 */
export const knowledgeChunks = pgTable(
  'knowledge_chunks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    entryId: integer('entry_id')
      .notNull()
      .references(() => knowledgeEntries.id, { onDelete: 'cascade' }),
    /** Copied from the entry so that search filters without a join. */
    accountId: integer('account_id').notNull(),
    ordinal: integer('ordinal').notNull(),
    /** The chunk is the entry's text from start to end (JavaScript string indices): no second copy of it. */
    start: integer('start_offset').notNull(),
    end: integer('end_offset').notNull(),
    tokens: tsvector('tokens').notNull(),
    tokenCount: integer('token_count').notNull(),
    embedding: real('embedding').array(),
    /** Copied from the entry so that search filters by scope without a join. */
    scope: text('scope'),
  },
  (table) => [
    // No pending list: entries go straight into the compressed posting trees (a quarter of the size, no vacuum needed).
    index('knowledge_chunks_tokens_idx').using('gin', table.tokens).with({ fastupdate: false }),
    index('knowledge_chunks_entry_idx').on(table.entryId),
    index('knowledge_chunks_account_idx').on(table.accountId),
  ],
);

/** Per-account totals kept with every write: the entry limit and BM25's N and average length. */
export const knowledgeStats = pgTable('knowledge_stats', {
  accountId: integer('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  entryCount: integer('entry_count').notNull().default(0),
  chunkCount: integer('chunk_count').notNull().default(0),
  tokenTotal: bigint('token_total', { mode: 'number' }).notNull().default(0),
  /** Characters of the stored entries: the per-account storage limit. */
  charTotal: bigint('char_total', { mode: 'number' }).notNull().default(0),
});

/** A 👎 on a bot's answer: the question alone (no answer, no author), for someone to add the missing knowledge. */
export const knowledgeFeedback = pgTable(
  'knowledge_feedback',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    scope: text('scope'),
    createdAt: createdAt(),
  },
  (table) => [index('knowledge_feedback_account_idx').on(table.accountId, table.id)],
);

/** Per Slack workspace / Discord server: how a saved thread names its authors (`roles` or `none`). */
export const knowledgeWorkspaceSettings = pgTable(
  'knowledge_workspace_settings',
  {
    platform: text('platform').notNull(),
    workspaceId: text('workspace_id').notNull(),
    threadAuthors: text('thread_authors').notNull().default('roles'),
  },
  (table) => [primaryKey({ columns: [table.platform, table.workspaceId] })],
);

/**
 * A Slack workspace or Discord server linked to an account with `/link`: only a reference to
 * the API key row is kept (never the key), so revoking the key unlinks the workspace at once.
 */
export const workspaceLinks = pgTable(
  'workspace_links',
  {
    /** slack | discord */
    platform: text('platform').notNull(),
    /** Slack team id or Discord guild id. */
    workspaceId: text('workspace_id').notNull(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** The platform user id of whoever linked it. */
    linkedBy: text('linked_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.platform, table.workspaceId] }), index('workspace_links_account_idx').on(table.accountId)],
);

/**
 * Watched parcels (issue 9): who (account), what (carrier, number), where (a Slack or Discord
 * channel, or a webhook URL), what was last seen, and when to poll next. The poller claims
 * due rows with `FOR UPDATE SKIP LOCKED`; `next_poll_at` doubles as the claim's lease and
 * `claim_id` guards the write-back, so an instance whose lease ran out cannot overwrite.
 */
export const deliveryWatches = pgTable(
  'delivery_watches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    carrierId: text('carrier_id').notNull(),
    trackId: text('track_id').notNull(),
    /** slack | discord | webhook */
    targetKind: text('target_kind').notNull(),
    /** Channel id, or the webhook URL. */
    target: text('target').notNull(),
    /** Slack team id or Discord guild id (channel targets). */
    workspaceId: text('workspace_id'),
    /** The chat user who asked for a channel watch: told in a DM when the channel stops accepting posts. */
    requestedBy: text('requested_by'),
    /** The watch stopped and the DM to `requested_by` failed: the person's next bot command says so. */
    requesterPending: boolean('requester_pending').notNull().default(false),
    /** Webhook signing secret: stored as is, since signing needs it back (shown once at creation). */
    webhookSecret: text('webhook_secret'),
    /** active | delivered | expired | failed */
    status: text('status').notNull().default('active'),
    /** Why a watch ended early (e.g. `gone`, `channel_not_found`, `retries_exhausted`). */
    endReason: text('end_reason'),
    lastStateId: text('last_state_id'),
    /** Key of the newest event seen, and how many events were seen. */
    lastEventKey: text('last_event_key'),
    seenEvents: integer('seen_events').notNull().default(0),
    stallNotified: boolean('stall_notified').notNull().default(false),
    /** Polls in a row without a change: the backoff grows with it. */
    quietPolls: integer('quiet_polls').notNull().default(0),
    /** Failed notices in a row, and since when (retries stop after 24 hours). */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    nextPollAt: timestamp('next_poll_at', { withTimezone: true }).notNull(),
    claimId: text('claim_id'),
    lastPolledAt: timestamp('last_polled_at', { withTimezone: true }),
    lastNotifiedAt: timestamp('last_notified_at', { withTimezone: true }),
    /** When the last "stalled" notice went out: another only after the parcel moves or one more such period. */
    stallNotifiedAt: timestamp('stall_notified_at', { withTimezone: true }),
    /** `HH:MM` (Asia/Seoul): changes are told in one daily digest instead of one message each. */
    digestAt: text('digest_at'),
    /** The Seoul date (`YYYY-MM-DD`) of the last digest that listed this watch. */
    digestSentOn: text('digest_sent_on'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index('delivery_watches_due_idx')
      .on(table.nextPollAt)
      .where(sql`status = 'active'`),
    // One active watch per account, parcel and target: concurrent creations cannot make two (INSERT … ON CONFLICT).
    uniqueIndex('delivery_watches_active_uniq')
      .on(table.accountId, table.carrierId, table.trackId, table.targetKind, table.target)
      .where(sql`status = 'active'`),
    index('delivery_watches_account_idx').on(table.accountId, table.id),
  ],
);

/**
 * Fixed-window counters of the abuse limits (log-in failures per account and per address,
 * sign-ups per address): one row per key, shared by every instance on one PostgreSQL;
 * housekeeping deletes the windows that have ended.
 */
export const throttleWindows = pgTable(
  'throttle_windows',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('throttle_windows_end_idx').on(table.windowEndsAt)],
);

/**
 * Signatures of recent Slack and Discord requests: a signed request delivered twice (a replay)
 * finds its signature here and is refused. Kept 5 minutes, the platforms' own tolerance.
 */
export const botRequestSignatures = pgTable(
  'bot_request_signatures',
  {
    signature: text('signature').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('bot_request_signatures_expiry_idx').on(table.expiresAt)],
);

/**
 * Chat events claimed for handling (issue 47): Slack resends an event it thinks lost with the
 * same `event_id`; the first instance whose insert lands handles it, every other delivery is
 * acknowledged and dropped. Keyed by platform, app and workspace (event ids are unique per app);
 * kept past the platform's last retry, then deleted by housekeeping. No content is stored.
 */
export const botEvents = pgTable(
  'bot_events',
  {
    platform: text('platform').notNull(),
    appId: text('app_id').notNull(),
    workspaceId: text('workspace_id').notNull(),
    eventId: text('event_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.platform, table.appId, table.workspaceId, table.eventId] }),
    index('bot_events_expiry_idx').on(table.expiresAt),
  ],
);

/**
 * The link guard (issue 40): channels whose every message's links are checked without asking,
 * per Slack workspace / Discord server. `/guard off` deletes the row. `quota_notice_at` is
 * when the channel was told the linked account's quota ran out (one notice, not one per message).
 */
export const linkGuardChannels = pgTable(
  'link_guard_channels',
  {
    platform: text('platform').notNull(),
    workspaceId: text('workspace_id').notNull(),
    channelId: text('channel_id').notNull(),
    /** warn | hide (hide: Discord only) */
    mode: text('mode').notNull().default('warn'),
    /** ko | en: the language of the warnings posted in the channel. */
    locale: text('locale').notNull().default('ko'),
    enabledBy: text('enabled_by').notNull(),
    quotaNoticeAt: timestamp('quota_notice_at', { withTimezone: true }),
    /** `/guard messages on` (issue 50): every message's text is judged too, link or not; a firm scam gets a warning. */
    messages: boolean('messages').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.platform, table.workspaceId, table.channelId] })],
);

/** `/guard allow <host>`: a false alarm; no more warnings for the host in that workspace. */
export const linkGuardAllowedHosts = pgTable(
  'link_guard_allowed_hosts',
  {
    platform: text('platform').notNull(),
    workspaceId: text('workspace_id').notNull(),
    host: text('host').notNull(),
    addedBy: text('added_by').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.platform, table.workspaceId, table.host] })],
);

/**
 * A harmful link found in a guarded channel. Never the message or the URL itself: its SHA-256
 * and host only. Kept 90 days (housekeeping).
 */
export const linkGuardIncidents = pgTable(
  'link_guard_incidents',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    /** The account linked to the workspace when it was found (the portal shows it its incidents). */
    accountId: integer('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    workspaceId: text('workspace_id').notNull(),
    channelId: text('channel_id').notNull(),
    posterId: text('poster_id').notNull(),
    urlHash: text('url_hash').notNull(),
    host: text('host').notNull(),
    category: text('category').notNull(),
    reason: text('reason').notNull(),
    /** warned | hidden | warned_not_hidden */
    action: text('action').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('link_guard_incidents_workspace_idx').on(table.platform, table.workspaceId, table.createdAt),
    index('link_guard_incidents_account_idx').on(table.accountId, table.createdAt),
    index('link_guard_incidents_created_idx').on(table.createdAt),
  ],
);

/** Answered calls per account, API and Seoul day (the portal's chart, `GET /api/v1/usage?from=&to=`). */
export const usageDaily = pgTable(
  'usage_daily',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    api: text('api').notNull(),
    /** `YYYY-MM-DD` in Asia/Seoul. */
    day: text('day').notNull(),
    calls: integer('calls').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.api, table.day] })],
);

/** The last refused calls of each key: status, error code and time only (never a body); a few per key. */
export const keyErrors = pgTable(
  'key_errors',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    keyId: integer('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    api: text('api'),
    status: integer('status').notNull(),
    errorCode: text('error_code').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (table) => [index('key_errors_key_idx').on(table.keyId, table.id)],
);

export const schema = {
  accounts,
  teamMembers,
  teamInvites,
  auditEvents,
  sessions,
  apiKeys,
  subscriptions,
  shortLinks,
  linkClicks,
  linkClickFacets,
  linkVisitors,
  linkVisitorSalts,
  urlListSources,
  urlListChunks,
  urlListModels,
  deliveryTrackingCache,
  deliveryRateSlots,
  knowledgeEntries,
  knowledgeChunks,
  knowledgeStats,
  knowledgeFeedback,
  knowledgeWorkspaceSettings,
  workspaceLinks,
  deliveryWatches,
  throttleWindows,
  botRequestSignatures,
  botEvents,
  quotaHolds,
  linkGuardChannels,
  linkGuardAllowedHosts,
  linkGuardIncidents,
  usageDaily,
  keyErrors,
};

/**
 * Carriers a workspace (or an account, through the API) named for a number whose detected
 * carrier was another (issue 38): asked first the next time that number comes without a carrier.
 * The number is kept only as a hash; rows unused for 180 days are deleted by housekeeping.
 */
export const deliveryCarrierCorrections = pgTable(
  'delivery_carrier_corrections',
  {
    scope: text('scope').notNull(),
    numberHash: text('number_hash').notNull(),
    carrierId: text('carrier_id').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.numberHash] }),
    index('delivery_carrier_corrections_updated_idx').on(table.updatedAt),
  ],
);

/**
 * How long parcels took, from the history of watched parcels (issue 38), anonymous: no number,
 * account or place name, only the carrier, the step's status, the kind of place, the Seoul hour
 * and the durations. `to_delivery`: from an event to the delivery (arrival estimates);
 * `to_next`: from an event to the next one (what a normal wait is, for stall alerts).
 */
export const deliveryDurations = pgTable(
  'delivery_durations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    carrierId: text('carrier_id').notNull(),
    statusId: text('status_id').notNull(),
    placeKind: text('place_kind').notNull(),
    /** Hour of the day in Seoul (0–23) of the event. */
    hour: integer('hour').notNull(),
    hours: real('hours').notNull(),
    workingHours: real('working_hours').notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('delivery_durations_lookup_idx').on(table.kind, table.carrierId, table.statusId, table.recordedAt),
    index('delivery_durations_recorded_idx').on(table.recordedAt),
  ],
);

/** Channels that take their parcel changes as one daily digest (`/track digest on`). */
export const deliveryChannelDigests = pgTable(
  'delivery_channel_digests',
  {
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    platform: text('platform').notNull(),
    channelId: text('channel_id').notNull(),
    digestAt: text('digest_at').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.accountId, table.platform, table.channelId] })],
);
