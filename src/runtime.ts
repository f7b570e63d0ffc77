import { createDatabaseMonitor, type DatabaseMonitor } from '../db/availability.js';
import { openDatabase, type Database, type MemoryPglite } from '../db/client.js';
import type { DirLockOptions } from '../db/lock.js';
import { systemClock, type Clock } from './clock.js';
import type { Config } from './config.js';
import { pollScheduleOf } from './jobs/poll-schedule.js';
import { createLogger, type Logger } from './logger.js';
import { createDelivery, type Delivery, type DeliveryOptions } from './operations/delivery/delivery-module.js';
import { createWatches, type WatchOptions } from './jobs/watch-module.js';
import { apiLabel, OPEN_APIS } from './operations/catalog.js';
import { createOperations, type Operations } from './operations/modules.js';
import type { createWatchOperation } from './operations/delivery-watch/watch-operation.js';
import type { WatchService } from './operations/delivery-watch/watch-service.js';
import type { WatchPoller } from './jobs/watch-poller.js';
import { createKnowledgeStore } from './operations/chatbot/knowledge-store.js';
import { createClickRecorder } from './operations/shorten/clicks.js';
import { createLinkStore, type LinkStoreOptions } from './operations/shorten/links.js';
import { createRedirects, type Redirects } from './operations/shorten/redirects.js';
import { createLinkStats, type LinkStats } from './operations/shorten/stats.js';
import { createBulkShortenOperation } from './operations/shorten/bulk.js';
import { createFacetRecorder, referrerHosts } from './operations/shorten/click-facets-store.js';
import { createLinkRescan, type LinkRescan } from './operations/shorten/rescan.js';
import { createShortLinkStore, type ShortLinkStore } from './operations/shorten/short-link-store.js';
import { openGeoIp } from './providers/geoip.js';
import type { UrlSafetyChecker } from './operations/url-detect/checker.js';
import { createLlmSecondOpinion } from './operations/url-detect/second-opinion.js';
import { createUrlScanOperation } from './operations/url-scan/url-scan.js';
import { createMessageJudge, type MessageJudge } from './operations/url-scan/message-judge.js';
import { createMessageOpinion } from './operations/url-scan/message-llm.js';
import { describeMessageModel, loadMessageModel } from './operations/url-scan/model/message-model-file.js';
import { createBusiness, type Business } from './operations/business/business.js';
import { parseFeedSpecs } from './operations/url-detect/lists/feeds.js';
import { shortenerHosts } from './operations/url-detect/expansion/shorteners.js';
import { createShortLinkExpander } from './operations/url-detect/expansion/short-links.js';
import { createUrlDetection, type UrlDetection, type UrlDetectionDeps } from './operations/url-detect/url-detection.js';
import { createAccounts, type Accounts } from './platform/accounts.js';
import { createAuditLog, type AuditLog } from './platform/audit-log.js';
import { createTeam, type Team } from './platform/team.js';
import { learnedModelRegistry, type LearnedModelInfo } from './platform/learned-models.js';
import { createApiKeys, type ApiKeys } from './platform/api-keys.js';
import { createKeyCache } from './platform/key-cache.js';
import { createMetrics, type Metrics } from './platform/metrics.js';
import { startHousekeeping, type Housekeeping } from './platform/housekeeping.js';
import { createLoginGuard } from './platform/login-guard.js';
import { createPasswordHasher, type PasswordHasherOptions } from './platform/password-hasher.js';
import { createReplayGuard, type ReplayGuard } from './platform/replay-store.js';
import { createBotEventClaims, type BotEventClaims } from './platform/bot-event-store.js';
import { createSubscriptions, type Subscriptions } from './platform/subscriptions.js';
import { createUsageLog, type UsageLog } from './platform/usage-store.js';
import { startupStatusLines } from './server-status.js';
import { createThrottleStore } from './platform/throttle-store.js';
import { createWorkspaceLinks, type WorkspaceLinks } from './platform/workspace-links.js';
import { createLlmProvider, llmOptionsFromConfig, type LlmProvider, type LlmProviderOptions } from './providers/llm.js';
import { createTesseractPool, type OcrEngine, type OcrPoolOptions } from './providers/ocr/tesseract-pool.js';
import { createTextLineDetector } from './providers/ocr/text-lines.js';
import { createMessageImageDecoder } from './providers/message-image.js';
import { createTracker, type TrackerOptions } from './providers/tracker.js';
import { createLinkGuard, type LinkGuard, type LinkGuardDeps } from './operations/link-guard/link-guard.js';
import { createSmtpInviteMailer, type InviteMailer } from './providers/mail.js';
import { createDocumentReader } from './providers/documents/read-document.js';
import { createPageFetcher, type PageFetcherOptions } from './operations/chatbot/page-fetch.js';
import {
  createKnowledgeFeedback,
  createKnowledgeSettings,
  type KnowledgeFeedback,
  type KnowledgeSettings,
} from './operations/chatbot/feedback-store.js';

/** How often a PostgreSQL instance looks for calls held by instances that died. */
const HOLD_RECOVERY_INTERVAL_MS = 5_000;
/** Instances tell each other here about short links a rescan put behind the warning page. */
const SHORT_LINK_CHANNEL = 'short_links';

export interface RuntimeOptions {
  logger?: Logger;
  /** How the embedded database's directory lock waits and reports (api/server.ts). */
  lock?: DirLockOptions;
  /** Where a `memory://` PGlite database comes from and goes back to (db/client.ts `MemoryPglite`; the tests). */
  memoryPglite?: MemoryPglite;
  /** "Now" for every part of the service (tests fix it: monthly renewal, caches, watches, tokens). */
  clock?: Clock;
  /** Password hashing (tests hash at a lower scrypt cost: a sign-up costs ~0.9 s of CPU otherwise). */
  passwords?: Partial<PasswordHasherOptions>;
  links?: LinkStoreOptions;
  urlChecker?: UrlSafetyChecker;
  /** LLM settings beyond the config (tests shorten the retry backoff). */
  llm?: Partial<LlmProviderOptions>;
  /** Longest piece of text sent in one translation call. */
  translateChunkChars?: number;
  /** OCR worker pool settings (tests use one worker and a short queue). */
  ocr?: OcrPoolOptions;
  /** Knowledge chatbot: storage limits per account (else from the config; the bench raises them) and the relevance gate. */
  chatbot?: { maxEntries?: number; maxChars?: number; minRelevance?: number; pages?: PageFetcherOptions };
  /** Parcel tracking: rate limit, holidays (tests), and tracker client settings. */
  delivery?: DeliveryOptions & { tracker?: Partial<TrackerOptions> };
  /** Watched parcels: the Slack/Discord notifier (the bots build it), poller settings. */
  watches?: WatchOptions;
  /** Harmful-URL feeds: download settings, scheduler and clock (tests). */
  urlLists?: Pick<UrlDetectionDeps, 'download' | 'now' | 'scheduler' | 'pollMs' | 'startupDelayMs' | 'loadLists' | 'expander'>;
  /** The link guard's queue bounds (tests make them small), an observer of its outcomes (tests wait on it), its message judge (tests' fakes). */
  linkGuard?: Partial<Pick<LinkGuardDeps, 'queue' | 'observe' | 'messageJudge'>>;
  /** Invitation mail: else built from SMTP_URL (none without it). */
  inviteMailer?: InviteMailer;
}

export type { Operations };

/** Accounts, keys, subscriptions and workspace links: what the doors authenticate and charge with. */
export interface Platform {
  subscriptions: Subscriptions;
  accounts: Accounts;
  /** Members of a team: invitations, roles, removal (issue 48). */
  team: Team;
  /** Who did what, when and from where (issue 48): written in the change's transaction. */
  audit: AuditLog;
  apiKeys: ApiKeys;
  workspaceLinks: WorkspaceLinks;
  /** Signatures of recent Slack/Discord requests: a replay is refused. */
  replayGuard: ReplayGuard;
  /** Chat events already handled (Slack's retries): each event runs once, across instances (issue 47). */
  botEvents: BotEventClaims;
  /** Answered calls per day and the last refused calls per key (the portal's usage view). */
  usageLog: UsageLog;
}

/** What every door receives: the composed service (src/ knows nothing of the doors). */
export interface Runtime {
  config: Config;
  logger: Logger;
  clock: Clock;
  db: Database;
  databaseKind: 'pglite' | 'postgres';
  /** Whether the database answers (`available`, `observe(error)`), and a readiness `ping`. */
  database: DatabaseMonitor & { ping(): Promise<unknown> };
  /** Hourly deletion of what has expired (sessions, throttle windows, bot signatures). */
  housekeeping: Housekeeping;
  platform: Platform;
  llm: LlmProvider;
  operations: Operations;
  redirects: Redirects;
  urlDetection: UrlDetection;
  /** The learned models in use (`GET /url/lists`, `/healthz/ready`; CONTRACT §5). */
  learnedModels: { list(): LearnedModelInfo[] };
  linkStats: LinkStats;
  delivery: Delivery;
  /** Watched parcels, uncharged (the bots' `/track … watch` paid for its lookup). */
  watches: WatchService;
  /** `POST /delivery/watch`: the creation charged as one `delivery-tracking` call. */
  watchOperation: ReturnType<typeof createWatchOperation>;
  watchPoller: WatchPoller;
  /** The offline message judgement (rules, message model, link verdicts): the message check's, the link guard's. */
  messageJudge: MessageJudge;
  /** `POST /url/scan`: the message check (text, SMS screenshot or QR code), one `harmful-url-detection` call per message and per URL. */
  urlScan: ReturnType<typeof createUrlScanOperation>;
  /** `POST /business/status` and `/business/validate`: the National Tax Service's checks, `ocr-idcard` calls. */
  business: Business;
  /** The link guard (issue 40): guarded channels, their checks, allow lists and incidents. */
  linkGuard: LinkGuard;
  /** 👎 questions from the bots (shown in the portal) and each workspace's thread-author setting. */
  knowledgeFeedback: KnowledgeFeedback;
  knowledgeSettings: KnowledgeSettings;
  /** Workers, busy and queued images of the OCR pool (all 0 before its first image). */
  ocrStats(): { workers: number; busy: number; queued: number };
  /** Issue 36: limited links, a link's chat origin; `POST /url/shorten/bulk` (one `url-shortener` call per link made). */
  shortLinks: ShortLinkStore;
  shortenBulk: ReturnType<typeof createBulkShortenOperation>;
  /** Issue 40 item 6: `URL_RESCAN`'s pass over live short links, and the click-jump checks. */
  linkRescan: LinkRescan;
  /** Invitation mail (SMTP_URL); undefined when off: the portal shows the link only. */
  inviteMailer: InviteMailer | undefined;
  /** This instance's metrics (`GET /metrics`, docs/operating.md): the doors time requests into it. */
  metrics: Metrics;
  /** Flushes buffered work and closes the database. */
  close(): Promise<void>;
}

/**
 * The composition root: opens the database (applying migrations), then builds the platform
 * services and the operations with their dependencies. Every door receives this object.
 */
export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const clock = options.clock ?? systemClock;
  /** One registry per runtime: runtimes side by side in one process (the tests) keep their own. */
  const metrics = createMetrics({ now: clock });
  // Before the database: a MESSAGE_MODEL that cannot be read stops the start at once, with
  // nothing opened or locked yet (reading the model takes milliseconds, opening PGlite seconds).
  const messageModel = await loadMessageModel(config.MESSAGE_MODEL);
  const opening = Date.now();
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    lock: options.lock,
    memoryPglite: options.memoryPglite,
  });
  logger.info({ database: database.kind, ms: Date.now() - opening }, 'database ready, migrations applied');
  const db: Database = database.db;
  /** Whether the database answers: the doors refuse work at once (503) while it is away. */
  const databaseMonitor = createDatabaseMonitor({
    probe: database.ping,
    onChange: (available, error) =>
      available
        ? logger.info('database reachable again')
        : logger.error({ err: error }, 'database unreachable: answering 503 until it returns'),
    writeProbe: database.writeProbe,
    onStorageChange: (writable, error) =>
      writable
        ? logger.info('database storage writable again')
        : logger.error({ err: error }, 'database disk full: writes answer 503 STORAGE_FULL and readiness fails until a write succeeds'),
  });

  const { coordination } = database;
  const usageLog = createUsageLog(db, clock, logger);
  const audit = createAuditLog(db, clock);
  const subscriptions = createSubscriptions(db, {
    usage: usageLog,
    apiNames: apiLabel,
    defaultQuota: config.DEFAULT_QUOTA,
    instanceId: coordination.instanceId,
    serverDatabase: database.kind === 'postgres',
    // A busy key leases calls ahead. PGlite has one process, so nothing is kept from anyone;
    // on PostgreSQL only while thousands stay for the other instances (quota-hold-store.ts).
    leaseAhead: { units: 64, lowWater: database.kind === 'postgres' ? 5_000 : 0, idleMs: 1_000 },
    clock,
    audit,
  });
  // Calls a crashed process charged but never answered are given back (on PostgreSQL also
  // those of other instances that die later: checked every few seconds).
  await subscriptions.startRecovery(database.kind === 'postgres' ? HOLD_RECOVERY_INTERVAL_MS : undefined);
  const keyCache = createKeyCache(coordination);
  const throttles = createThrottleStore(db, clock);
  const guard = createLoginGuard(
    throttles,
    {
      maxFailuresPerAccount: config.LOGIN_MAX_FAILURES,
      maxLoginsPerAddress: config.LOGIN_MAX_PER_ADDRESS,
      maxSignUpsPerAddress: config.SIGNUP_MAX_PER_ADDRESS,
    },
    clock,
  );
  const passwords = createPasswordHasher({ concurrency: config.PASSWORD_HASH_CONCURRENCY, ...options.passwords });
  const accounts = createAccounts(db, subscriptions, { clock, guard, passwords, openApis: OPEN_APIS, audit });
  const platform: Platform = {
    subscriptions,
    accounts,
    team: createTeam(db, { clock, passwords, accounts, audit }),
    audit,
    apiKeys: createApiKeys(db, keyCache, audit, clock),
    workspaceLinks: createWorkspaceLinks(db, clock, audit),
    replayGuard: createReplayGuard(db, clock),
    botEvents: createBotEventClaims(db, clock),
    usageLog,
  };

  /** Guarded channels (issue 40); its checks use the detection engine built below. */
  let linkGuard: LinkGuard | undefined;
  const housekeeping = startHousekeeping(
    {
      sessions: () => platform.accounts.purgeExpiredSessions(),
      invitations: () => platform.team.purgeExpiredInvites(),
      auditEvents: () => audit.purgeExpired(),
      throttles: () => throttles.purge(),
      botSignatures: () => platform.replayGuard.purge(),
      botEvents: () => platform.botEvents.purge(),
      guardIncidents: async () => (linkGuard ? linkGuard.purge() : 0),
      // Parcels (issue 38): durations past a year, carrier corrections unused for 180 days (`delivery` is built below).
      deliveryHistory: () => delivery.history.prune(),
      carrierCorrections: () => delivery.corrections.prune(),
    },
    logger,
  );

  /** The one LLM adapter: every AI-backed operation shares it (503 when not configured). */
  const llm = createLlmProvider({ ...llmOptionsFromConfig(config, logger), observe: metrics.upstream, ...options.llm });
  const messageJudge = createMessageJudge({ model: messageModel });
  logger.info(
    { part: 'message-model', examples: messageModel.meta.examples, trained_at: messageModel.meta.trainedAt },
    `message model loaded (${messageModel.meta.examples.scam} scam and ${messageModel.meta.examples.ordinary + messageModel.meta.examples.notifications} other messages)`,
  );
  const feedSpecs = parseFeedSpecs(config.URL_LIST_FEEDS, { dataGoKrApiUrl: config.DATA_GO_KR_API_URL });
  // What is on, one line per part (the chat doors add theirs): LLM, tracker, feeds, database, invitation mail.
  for (const line of startupStatusLines(config, feedSpecs.feeds.length)) logger[line.level]({ part: line.part }, line.message);

  const inviteMailer =
    options.inviteMailer ?? (config.SMTP_URL ? createSmtpInviteMailer({ url: config.SMTP_URL, from: config.SMTP_FROM }) : undefined);

  const links = createLinkStore(db, options.links);
  const clicks = createClickRecorder(db, logger, { clock });
  /** Harmful-URL engine: allowlist, team lists + stored feeds, rules; the LLM for uncertain URLs. */
  const urlDetection = await createUrlDetection({
    db,
    databaseKind: database.kind,
    logger,
    judge: createLlmSecondOpinion(llm),
    feeds: feedSpecs,
    serviceKey: config.DATA_GO_KR_SERVICE_KEY,
    expander: config.URL_EXPAND ? createShortLinkExpander({ shorteners: shortenerHosts(config.URL_EXPAND_SHORTENERS) }) : undefined,
    ...options.urlLists,
  });
  /** Issue 36/40: expiring and click-limited links, the statistics' facets (GEOIP_DB), the rescan. */
  const shortLinks = createShortLinkStore(db);
  const geo = config.GEOIP_DB ? await openGeoIp(config.GEOIP_DB) : undefined;
  if (geo) logger.info({ databaseType: geo.databaseType }, 'GEOIP_DB opened: short-link statistics by country');
  else logger.info('GEOIP_DB not set: short-link statistics without country');
  const facets = createFacetRecorder(db, logger, { clock, geo });
  let linkRescan: LinkRescan | undefined;
  const redirects = createRedirects(links, clicks, {
    safety: urlDetection.engine,
    limits: shortLinks,
    facets,
    onHumanClick: (linkId) => linkRescan?.onHumanClick(linkId),
    clock,
  });
  // A link found harmful by any instance's rescan leaves every instance's redirect cache.
  await coordination.listen(
    SHORT_LINK_CHANNEL,
    (payload) => payload.startsWith('harm:') && redirects.forget(payload.slice(5)),
    // Listening again after a dropped connection: notices sent meanwhile are lost, so cached targets go.
    () => redirects.forgetAll(),
  );
  linkRescan = createLinkRescan({
    store: shortLinks,
    checker: options.urlChecker ?? urlDetection.engine,
    announce: async (code) => {
      // This instance forgets the target at once; on PostgreSQL its own notice comes back later.
      redirects.forget(code);
      await coordination.notify(SHORT_LINK_CHANNEL, `harm:${code}`);
    },
    notifier: options.watches?.notifier,
    shortUrlBase: config.SHORT_URL_BASE,
    clock,
    logger,
  });
  linkGuard = createLinkGuard({
    db,
    clock,
    logger,
    quota: subscriptions,
    checker: options.urlChecker ?? urlDetection.engine,
    workspaceLinks: platform.workspaceLinks,
    audit,
    // `/guard messages on` (issue 50): the same offline judge as the message check.
    messageJudge,
    ...options.linkGuard,
    observeOperation: metrics.operation,
    observe: (event) => {
      if (event.outcome === 'dropped') metrics.guardDropped();
      options.linkGuard?.observe?.(event);
    },
  });

  /** The embedded OCR engine: its workers start on the first image, so start-up stays fast. */
  let ocrPool: OcrEngine | undefined;
  const ocr = () => (ocrPool ??= timedOcr(createTesseractPool(options.ocr), (seconds) => metrics.ocr('id', seconds)));
  /** Message screenshots (`/url/scan`): links are Latin letters beside Korean, so one worker reads both. */
  let messageOcrPool: OcrEngine | undefined;
  const messageOcr = () =>
    (messageOcrPool ??= timedOcr(createTesseractPool({ ...options.ocr, size: 1, languages: 'kor+eng' }), (seconds) =>
      metrics.ocr('message', seconds),
    ));
  /** The text-line detector of the ID reader and the message check: its model is loaded on the first image that needs it. */
  const textLines = createTextLineDetector();

  /** Knowledge entries of the chatbot; embeddings only when OPENAI_EMBEDDING_MODEL is set. */
  const knowledge = createKnowledgeStore(db, {
    maxEntries: options.chatbot?.maxEntries ?? config.KNOWLEDGE_MAX_ENTRIES,
    maxChars: options.chatbot?.maxChars ?? config.KNOWLEDGE_MAX_CHARS,
  });

  /** Parcel tracking; the watch poller reuses `delivery.tracking` (cache, cross-instance rate limit). */
  const tracker = createTracker({
    url: config.DELIVERY_TRACKER_URL,
    clientId: config.DELIVERY_TRACKER_CLIENT_ID,
    clientSecret: config.DELIVERY_TRACKER_CLIENT_SECRET,
    logger,
    observe: metrics.upstream,
    ...options.delivery?.tracker,
  });
  const delivery = createDelivery({ db, tracker, llm, logger, clock }, options.delivery);
  /** Watched parcels: `watches` for the doors, `watchPoller` for the cron job (api/server.ts). */
  const watches = createWatches(
    { db, delivery, logger, clock, allowInsecureWebhooks: config.WEBHOOK_ALLOW_INSECURE, observeCycle: metrics.watchCycle },
    { schedule: pollScheduleOf(config), ...options.watches },
  );

  /** The National Tax Service's checks: their own routes, and the reader's `verify: true`. */
  const business = createBusiness({ db, config, logger, clock, observe: metrics.upstream });

  /** The eight operations by catalogue id, each built by its module (src/operations/modules.ts): every door serves them from here. */
  const operations = createOperations({
    config,
    db,
    llm,
    knowledge,
    chatbotMinRelevance: options.chatbot?.minRelevance,
    // Files and pages for the knowledge base; a scanned PDF page is read by the kor+eng pool.
    documents: createDocumentReader({ ocr: messageOcr }),
    fetchPage: createPageFetcher(options.chatbot?.pages),
    urlEngine: urlDetection.engine,
    ocr,
    textLines,
    translateChunkChars: options.translateChunkChars,
    delivery,
    links,
    redirects,
    urlChecker: options.urlChecker ?? urlDetection.engine,
    subscriptions,
    shortLinks,
    clock,
    businessChecks: business.checks,
  });

  // One provider per part that learns; a new learned model is one more entry here.
  const learnedModels = learnedModelRegistry([urlDetection.learnedModels, () => [describeMessageModel(messageModel)]]);
  // Read at each scrape, from memory only (the scrape's cost does not grow with the data).
  metrics.readFrom({
    feeds: () => urlDetection.loadedFeeds(),
    learnedModels: () => learnedModels.list(),
    guardQueueDepth: () => linkGuard?.queueDepth() ?? 0,
  });

  return {
    config,
    logger,
    clock,
    db,
    databaseKind: database.kind,
    database: { ...databaseMonitor, ping: database.ping },
    inviteMailer,
    housekeeping,
    platform,
    llm,
    operations,
    redirects,
    urlDetection,
    learnedModels,
    linkStats: createLinkStats({
      links,
      clicks,
      shortUrlBase: config.SHORT_URL_BASE,
      facets,
      referrers: (linkId) => referrerHosts(db, linkId),
      geoConfigured: geo !== undefined,
      clock,
    }),
    shortLinks,
    linkRescan,
    shortenBulk: createBulkShortenOperation({
      links,
      redirects,
      urlChecker: options.urlChecker ?? urlDetection.engine,
      shortUrlBase: config.SHORT_URL_BASE,
      usage: subscriptions,
      clock,
    }),
    delivery,
    watches: watches.service,
    watchOperation: watches.operation,
    watchPoller: watches.poller,
    urlScan: createUrlScanOperation({
      checker: options.urlChecker ?? urlDetection.engine,
      judge: messageJudge,
      opinion: createMessageOpinion(llm),
      ocr: messageOcr,
      images: createMessageImageDecoder(),
      // A screenshot whose page reading finds no link is read again line by line (docs/evaluations/2026-11-27-message-check-2.md).
      textLines: { detector: textLines, use: 'fallback' },
      observe: metrics.messageCheck,
    }),
    business,
    messageJudge,
    linkGuard,
    knowledgeFeedback: createKnowledgeFeedback(db),
    knowledgeSettings: createKnowledgeSettings(db),
    ocrStats: () => ocrPool?.stats() ?? { workers: 0, busy: 0, queued: 0 },
    metrics,
    async close(): Promise<void> {
      await housekeeping.stop();
      await linkGuard?.idle();
      databaseMonitor.stop();
      await subscriptions.stopRecovery();
      await usageLog.stop();
      await keyCache.close();
      await urlDetection.stop();
      await clicks.stop();
      await linkRescan?.idle();
      await facets.stop();
      await ocrPool?.close();
      await messageOcrPool?.close();
      await textLines.close();
      metrics.close();
      await database.close();
    },
  };
}

/** An OCR engine whose every image's time (its wait in the pool's queue included) is told to `observe`. */
function timedOcr(engine: OcrEngine, observe: (seconds: number) => void): OcrEngine {
  return {
    async recognize(...args) {
      const started = performance.now();
      try {
        return await engine.recognize(...args);
      } finally {
        observe((performance.now() - started) / 1000);
      }
    },
    stats: () => engine.stats(),
    close: () => engine.close(),
  };
}
