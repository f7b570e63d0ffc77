import { openDatabase, type Database } from '../db/client.js';
import type { Config } from './config.js';
import { createLogger, type Logger } from './logger.js';
import { createClickRecorder } from './operations/shorten/clicks.js';
import { createLinkStore, type LinkStoreOptions } from './operations/shorten/links.js';
import { createRedirects } from './operations/shorten/redirects.js';
import { createShortenOperation } from './operations/shorten/shorten.js';
import { createLinkStats } from './operations/shorten/stats.js';
import { createBasicUrlChecker, type UrlSafetyChecker } from './operations/url-detect/checker.js';
import { createAccounts } from './platform/accounts.js';
import { createApiKeys } from './platform/api-keys.js';
import type { ApiId } from './platform/catalog.js';
import type { Operation } from './platform/execute.js';
import { createSubscriptions } from './platform/subscriptions.js';

export interface RuntimeOptions {
  logger?: Logger;
  /** Fixed clock for tests of monthly renewal. */
  clock?: () => Date;
  links?: LinkStoreOptions;
  urlChecker?: UrlSafetyChecker;
}

/**
 * The composition root: opens the database (applying migrations), then builds the platform
 * services and the operations with their dependencies. Every door receives this object.
 */
export async function createRuntime(config: Config, options: RuntimeOptions = {}) {
  const logger = options.logger ?? createLogger(config.LOG_LEVEL);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const db: Database = database.db;

  const subscriptions = createSubscriptions(db, { defaultQuota: config.DEFAULT_QUOTA, clock: options.clock });
  const platform = {
    subscriptions,
    accounts: createAccounts(db, subscriptions),
    apiKeys: createApiKeys(db),
  };

  const links = createLinkStore(db, options.links);
  const clicks = createClickRecorder(db, logger);
  const redirects = createRedirects(links, clicks);
  const shortUrlBase = config.SHORT_URL_BASE;

  /** The operations by catalogue id; the doors serve what is here (others answer 503). */
  const operations = {
    'url-shortener': createShortenOperation({
      links,
      redirects,
      subscriptions,
      urlChecker: options.urlChecker ?? createBasicUrlChecker(),
      shortUrlBase,
    }),
  } satisfies Partial<Record<ApiId, Operation>>;

  return {
    config,
    logger,
    db,
    databaseKind: database.kind,
    platform,
    operations,
    redirects,
    linkStats: createLinkStats({ links, clicks, shortUrlBase }),
    /** Flushes buffered work and closes the database. */
    async close(): Promise<void> {
      await clicks.stop();
      await database.close();
    },
  };
}

export type Runtime = Awaited<ReturnType<typeof createRuntime>>;
