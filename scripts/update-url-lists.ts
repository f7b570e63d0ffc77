import { pathToFileURL } from 'node:url';
import { openDatabase } from '../db/client.js';
import { loadConfig, loadDotEnv, type Config } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { parseFeedSpecs } from '../src/operations/url-detect/feeds.js';
import { createListStore, type FeedResult } from '../src/operations/url-detect/list-store.js';

/**
 * `npm run lists:update`: downloads the harmful-URL feeds (`URL_LIST_FEEDS`, or URLhaus and
 * UT1 by default) into the database. Running servers pick them up within five minutes.
 * With the embedded PGlite database, stop the server first (one process owns DATA_DIR).
 */
export async function updateUrlLists(config: Config, fetchImpl: typeof fetch = fetch): Promise<FeedResult[]> {
  const logger = createLogger(config.LOG_LEVEL);
  const feeds = parseFeedSpecs(config.URL_LIST_FEEDS);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    return await createListStore(database.db).update(feeds, { fetch: fetchImpl, logger });
  } finally {
    await database.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  loadDotEnv();
  const results = await updateUrlLists(loadConfig());
  for (const result of results) {
    console.log(result.ok ? `✓ ${result.name}: ${result.entries} entries` : `✗ ${result.name}: ${result.error}`);
  }
  // Partial success is still success: the failed feeds keep their previous entries.
  process.exitCode = results.some((result) => result.ok) ? 0 : 1;
}
