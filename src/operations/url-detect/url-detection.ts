import type { Database } from '../../../db/client.js';
import type { Logger } from '../../logger.js';
import { assembleDetectionLists } from './lists/detection-lists.js';
import { createUrlEngine, type UrlEngine } from './engine.js';
import type { DownloadOptions } from './lists/feed-download.js';
import { usableFeeds, type FeedSpecs } from './lists/feeds.js';
import { createListStore, createRefreshLock, type FeedResult, type FeedState, type ListStore } from './lists/list-store.js';
import type { SecondOpinionJudge } from './second-opinion.js';
import type { ShortLinkExpander } from './expansion/short-links.js';
import { smishingNeedsSample } from './model/smishing-model.js';
import type { LearnedModelInfo } from '../../platform/learned-models.js';
import { describeLearnedModels, untrainedNotice } from './learned-model-info.js';

/** Runs a job on a cron expression (src/jobs/watch-cron.ts's `cronScheduler`; a fake in tests). */
export interface Scheduler {
  schedule(expression: string, job: () => Promise<unknown>): { stop(): Promise<void> };
  /** Time between two runs of the expression. */
  periodMs(expression: string): number;
}

export interface UrlDetection {
  engine: UrlEngine;
  store: ListStore;
  /** Reloads the engine when the stored feeds changed (a refresh here, in another instance or `lists:update`). */
  reload(options?: { force?: boolean }): Promise<boolean>;
  /**
   * Downloads the configured feeds and reloads. On PostgreSQL one instance at a time (advisory
   * lock): undefined when another holds it or a refresh already runs here.
   */
  refreshFeeds(): Promise<FeedResult[] | undefined>;
  feedStates(): Promise<FeedState[]>;
  /** The feeds of the lists in use, as of their last load: read from memory (the metrics' scrape). */
  loadedFeeds(): readonly FeedState[];
  /** The learned models in use now (the runtime's registry lists them: `/url/lists`, `/healthz/ready`). */
  learnedModels(): LearnedModelInfo[];
  /** `URL_LIST_REFRESH`: the schedule, plus one refresh soon after start when the lists are older than one period. */
  start(schedule: string, scheduler?: Scheduler): void;
  stop(): Promise<void>;
}

export interface UrlDetectionDeps {
  db: Database;
  databaseKind: 'pglite' | 'postgres';
  logger: Logger;
  feeds: FeedSpecs;
  /** `DATA_GO_KR_SERVICE_KEY`: odcloud feeds are skipped without it. */
  serviceKey?: string | undefined;
  judge?: SecondOpinionJudge | undefined;
  /** Short-link expansion (`URL_EXPAND`); undefined: short links are judged alone. */
  expander?: ShortLinkExpander | undefined;
  download?: DownloadOptions;
  now?: () => Date;
  scheduler?: Scheduler;
  /** How often other instances' refreshes are looked for (a cheap query). */
  pollMs?: number;
  startupDelayMs?: number;
  /** false: never build the index here (`lists:update` only downloads). */
  loadLists?: boolean;
}

/**
 * Builds the engine over the team lists and the stored feeds, trains the lexical model on
 * them, and keeps both fresh in-process. Requests keep the previous lists until the new
 * index and model are complete, then switch in one assignment.
 */
export async function createUrlDetection(deps: UrlDetectionDeps): Promise<UrlDetection> {
  const store = createListStore(deps.db);
  const now = deps.now ?? (() => new Date());
  const lock = createRefreshLock(deps.db, deps.databaseKind);
  const engine = createUrlEngine({ judge: deps.judge, logger: deps.logger, expander: deps.expander });
  let version = '';
  let loadedFeeds: readonly FeedState[] = [];
  let reloading: Promise<boolean> | undefined;
  let refreshing: Promise<FeedResult[] | undefined> | undefined;
  const timers: NodeJS.Timeout[] = [];
  let scheduled: { stop(): Promise<void> } | undefined;
  // Stopping aborts a refresh under way: a shutdown never waits for a slow feed server.
  const stopping = new AbortController();

  for (const problem of deps.feeds.problems) deps.logger.warn({ problem }, 'URL_LIST_FEEDS entry skipped');
  for (const notice of deps.feeds.notices ?? []) deps.logger.warn(notice);
  const usable = usableFeeds(deps.feeds, deps.serviceKey);
  if (usable.notice) deps.logger.info(usable.notice);

  async function loadNow(force: boolean): Promise<boolean> {
    if (deps.loadLists === false) return false;
    const current = await store.version();
    if (!force && current === version) return false;
    const started = performance.now();
    // A model saved for this very feed state (by this or another instance) spares the training.
    const saved = await store.loadModel(current).catch(() => undefined);
    // Sorted hashes merge in a fraction of a second; the host samples are read only to train:
    // all of them without a saved model, else only what the Korean smishing model trains on.
    const feeds = await store.loadFeeds({ sample: saved ? smishingNeedsSample : true });
    const lists = await assembleDetectionLists(feeds, { trained: saved, now });
    // Another instance may be saving the same model at this moment: losing that race is harmless.
    if (lists.model && !saved)
      await store.saveModel(current, lists.model).catch((error: unknown) => deps.logger.warn({ err: error }, 'url lists: model not saved'));
    engine.setLists(lists);
    version = current;
    // One row a feed, read once a load: a scrape of the metrics never queries the database.
    loadedFeeds = await store.states().catch(() => loadedFeeds);
    deps.logger.info(
      { entries: lists.index.size, model: lists.model?.info, ms: Math.round(performance.now() - started) },
      'url lists loaded',
    );
    // A model the feeds cannot train is said, never silently left out (CONTRACT §5).
    const untrained = untrainedNotice(feeds, lists);
    if (untrained) deps.logger.warn(untrained);
    return true;
  }

  function reload(options: { force?: boolean } = {}): Promise<boolean> {
    reloading ??= loadNow(options.force ?? false).finally(() => (reloading = undefined));
    return reloading;
  }

  async function refreshOnce(): Promise<FeedResult[] | undefined> {
    const results = await lock.run(async () => {
      const outcome = await store.update(usable.feeds, {
        ...deps.download,
        signal: stopping.signal,
        logger: deps.logger,
        now,
        serviceKey: deps.serviceKey,
      });
      if (stopping.signal.aborted) return outcome;
      if (deps.feeds.problems.length === 0) await store.prune(deps.feeds.feeds.map((feed) => feed.name));
      return outcome;
    });
    if (!results) deps.logger.info('url lists: another instance is refreshing; its result will be loaded');
    if (!stopping.signal.aborted) await reload();
    return results;
  }

  function refreshFeeds(): Promise<FeedResult[] | undefined> {
    if (refreshing) return Promise.resolve(undefined);
    refreshing = refreshOnce().finally(() => (refreshing = undefined));
    return refreshing;
  }

  const safely = (what: string, job: () => Promise<unknown>) => () => {
    job().catch((error: unknown) => deps.logger.error({ err: error }, `url lists: ${what} failed`));
  };

  await reload({ force: true });

  return {
    engine,
    store,
    reload,
    refreshFeeds,
    feedStates: () => store.states(),
    loadedFeeds: () => loadedFeeds,
    learnedModels: () => describeLearnedModels(engine),
    start(schedule, givenScheduler) {
      const poll = setInterval(
        safely('reload', () => reload()),
        deps.pollMs ?? 60_000,
      );
      poll.unref();
      timers.push(poll);
      if (schedule === 'off') return;
      const scheduler = deps.scheduler ?? givenScheduler;
      if (!scheduler) throw new Error('url list refresh needs a scheduler');
      scheduled = scheduler.schedule(schedule, () => refreshFeeds());
      const periodMs = scheduler.periodMs(schedule);
      const check = setTimeout(
        safely('start-up refresh', async () => {
          const last = await store.lastRefresh();
          if (!last || now().getTime() - last.getTime() >= periodMs) await refreshFeeds();
        }),
        deps.startupDelayMs ?? 15_000,
      );
      check.unref();
      timers.push(check);
      deps.logger.info({ schedule, feeds: deps.feeds.feeds.length }, 'url list refresh scheduled');
    },
    async stop() {
      stopping.abort();
      for (const timer of timers) clearTimeout(timer);
      await scheduled?.stop();
      await refreshing?.catch(() => undefined);
      await reloading?.catch(() => undefined);
    },
  };
}
