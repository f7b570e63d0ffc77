import { pathToFileURL } from 'node:url';
import { DataDirLockedError } from '../db/lock.js';
import { loadConfig, loadDotEnv, type Config } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { parseFeedSpecs } from '../src/operations/url-detect/lists/feeds.js';
import type { FeedResult } from '../src/operations/url-detect/lists/list-store.js';
import { createRuntime } from '../src/runtime.js';

/**
 * `npm run lists:update`: downloads the harmful-URL feeds (`URL_LIST_FEEDS`, or the README's
 * defaults) into the database now. On PostgreSQL it works beside running servers (they
 * reload within a minute; if one is refreshing already, this waits for nothing and says so).
 * On the embedded PGlite database the running server owns the data and refreshes by itself.
 * Undefined when another instance holds the refresh lock.
 */
export async function updateUrlLists(config: Config, fetchImpl?: typeof fetch): Promise<FeedResult[] | undefined> {
  const logger = createLogger(config.LOG_LEVEL);
  // A PGlite directory held by a running server is said at once: waiting for it would not help.
  const runtime = await createRuntime(config, {
    logger,
    lock: { waitMs: 0 },
    urlLists: { download: { fetch: fetchImpl }, loadLists: false },
  });
  try {
    return await runtime.urlDetection.refreshFeeds();
  } finally {
    await runtime.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  loadDotEnv();
  const config = loadConfig();
  for (const problem of parseFeedSpecs(config.URL_LIST_FEEDS).problems) console.log(`! URL_LIST_FEEDS: ${problem} — 건너뜁니다`);
  try {
    const results = await updateUrlLists(config);
    if (!results) {
      console.log('다른 인스턴스가 지금 목록을 갱신하고 있습니다. 끝나면 모든 서버가 새 목록을 불러옵니다.');
    } else {
      for (const r of results)
        console.log(
          r.ok ? `✓ ${r.name}: ${r.entries} entries${r.skipped ? ` (${r.skipped} lines skipped)` : ''}` : `✗ ${r.name}: ${r.error}`,
        );
      // Partial success is still success: the failed feeds keep their previous entries.
      process.exitCode = results.some((r) => r.ok) ? 0 : 1;
    }
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    console.log(
      `실행 중인 서버가 내장 데이터베이스(${config.DATA_DIR})를 쓰고 있습니다. 서버가 URL_LIST_REFRESH(${config.URL_LIST_REFRESH}) 일정에 따라 목록을 스스로 갱신하므로 따로 실행할 필요가 없습니다.`,
    );
  }
}
