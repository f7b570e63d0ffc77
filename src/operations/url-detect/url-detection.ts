import type { Database } from '../../../db/client.js';
import type { Logger } from '../../logger.js';
import { createUrlEngine, type UrlEngine } from './engine.js';
import { createListStore, type ListStore } from './list-store.js';
import type { SecondOpinionJudge } from './second-opinion.js';

export interface UrlDetection {
  engine: UrlEngine;
  store: ListStore;
  /** Reloads the lists when `lists:update` (in this or another process) stored new feeds. */
  refresh(): Promise<boolean>;
  stop(): void;
}

/**
 * Builds the engine over the team lists and the feeds stored in the database, and keeps it
 * current: a cheap version query every `refreshIntervalMs` reloads the lists when they changed.
 */
export async function createUrlDetection(deps: {
  db: Database;
  logger: Logger;
  judge?: SecondOpinionJudge | undefined;
  refreshIntervalMs?: number;
}): Promise<UrlDetection> {
  const store = createListStore(deps.db);
  const engine = createUrlEngine({ index: await store.loadIndex(), judge: deps.judge, logger: deps.logger });
  let version = await store.version();
  deps.logger.info({ entries: engine.listSize, llm: Boolean(deps.judge) }, 'url detection ready');

  async function refresh(): Promise<boolean> {
    const current = await store.version();
    if (current === version) return false;
    engine.setIndex(await store.loadIndex());
    version = current;
    deps.logger.info({ entries: engine.listSize }, 'url lists reloaded');
    return true;
  }

  const timer = setInterval(() => {
    refresh().catch((error: unknown) => deps.logger.warn({ err: error }, 'url list refresh failed'));
  }, deps.refreshIntervalMs ?? 5 * 60_000);
  timer.unref();

  return { engine, store, refresh, stop: () => clearInterval(timer) };
}
