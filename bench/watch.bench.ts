import { DEFAULT_POLL_SCHEDULE } from '../src/jobs/poll-schedule.js';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { createChannelNotifier } from '../bots/notifier.js';
import { loadConfig } from '../src/config.js';
import { eventKey } from '../src/jobs/changes.js';
import { createWatchPoller } from '../src/jobs/watch-poller.js';
import { createLogger } from '../src/logger.js';
import { deliveryWatches } from '../db/schema.js';
import { findCarrier } from '../src/operations/delivery/carriers.js';
import { toTrackingResult } from '../src/operations/delivery/tracking-result.js';
import { createWebhookSender } from '../src/operations/delivery-watch/webhook-sender.js';
import { createWatchStore, type WatchStore } from '../src/operations/delivery-watch/watch-store.js';
import { startFakeChannels } from '../test/fakes/chat-channels.js';
import { ev, startFakeTracker } from '../test/fakes/tracker-server.js';
import { startBenchService } from './lib.js';

const WATCHES = 10_000;
const CHANGED_SHARE = 0.2;
const PER_SECOND = 250;

/**
 * One poll cycle over 10,000 due watches (10,000 distinct parcels, a fifth of which got a new
 * event and are told to a Slack channel), with the fake tracker and fake Slack in this
 * process. Prints the cycle time, the time spent in the watch table's statements, and the
 * upstream calls against the rate limit (raised to 250/s here so the bench stays short; the
 * default 10/s would make the same cycle last ~1,000 s, i.e. the 10-minute cron serves
 * ~5,000 moving parcels per tick before the backoff spreads them out).
 */
export async function run(): Promise<void> {
  const tracker = await startFakeTracker();
  const channels = await startFakeChannels({ slackToken: 'xoxb-bench', discordToken: 'bench' });
  const env = { DELIVERY_TRACKER_URL: tracker.url, SLACK_BOT_TOKEN: 'xoxb-bench', SLACK_API_URL: channels.slackApiUrl };
  const service = await startBenchService(env, { delivery: { rateLimit: { perSecond: PER_SECOND, bucket: `watch-bench-${Date.now()}` } } });
  const { runtime } = service;
  const account = (await runtime.platform.apiKeys.authenticate(service.apiKey))!;
  const carrier = findCarrier('kr.cjlogistics')!;
  const now = new Date();
  const kst = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 3600_000).toISOString();

  // Seed: every parcel at pickup; the changed ones have moved since the watch last looked.
  const rows = [];
  for (let i = 0; i < WATCHES; i++) {
    const trackId = String(600_000_000_000 + i);
    const events = [ev(kst(5), 'AT_PICKUP', '집화처리', '성수', '상품 인수')];
    const seen = toTrackingResult(carrier, { lastEvent: null, events });
    if (i < WATCHES * CHANGED_SHARE) events.push(ev(kst(1), 'IN_TRANSIT', '간선상차', '곤지암Hub', '간선상차'));
    tracker.parcel(carrier.id, trackId, { events });
    rows.push({
      accountId: account.id,
      carrierId: carrier.id,
      trackId,
      targetKind: 'slack',
      target: `C${i}`,
      lastStateId: 'at_pickup',
      lastEventKey: eventKey(seen.progresses[0]!),
      seenEvents: 1,
      nextPollAt: new Date(now.getTime() - 60_000),
      expiresAt: new Date(now.getTime() + 30 * 86_400_000),
    });
  }
  for (let i = 0; i < rows.length; i += 1000) await runtime.db.insert(deliveryWatches).values(rows.slice(i, i + 1000));

  // The watch table's statements, timed (summed over the concurrent workers).
  const store = createWatchStore(runtime.db);
  const db = { ms: 0, statements: 0 };
  const timed = <K extends 'claim' | 'finish'>(name: K): WatchStore[K] =>
    (async (...args: Parameters<WatchStore[K]>) => {
      const started = performance.now();
      try {
        return await (store[name] as (...a: unknown[]) => Promise<unknown>)(...args);
      } finally {
        db.ms += performance.now() - started;
        db.statements++;
      }
    }) as WatchStore[K];
  const poller = createWatchPoller(
    {
      store: { ...store, claim: timed('claim'), finish: timed('finish') },
      tracking: runtime.delivery.tracking,
      ai: runtime.delivery.ai,
      calendar: runtime.delivery.calendar,
      history: runtime.delivery.history,
      webhooks: createWebhookSender({ allowInsecure: true }),
      channels: createChannelNotifier(loadConfig({ ...env, LOG_LEVEL: 'silent' })),
      logger: createLogger('info', pino.destination('/dev/null')),
      schedule: DEFAULT_POLL_SCHEDULE,
    },
    { batchSize: 200, concurrency: 32, maxCycleMs: 8 * 60_000 },
  );

  const before = tracker.lookups().length;
  const report = await poller.runCycle({ accountIds: [account.id] });
  const upstream = tracker.lookups().length - before;
  const seconds = report.durationMs / 1000;
  const rate = upstream / seconds;
  console.log(`\n## Parcel watch: one cycle over ${WATCHES.toLocaleString()} due watches (${runtime.databaseKind})`);
  console.log(
    `cycle: ${seconds.toFixed(1)} s — ${(report.durationMs / report.claimed).toFixed(2)} ms per watch; claimed ${report.claimed}, notified ${report.notified}, unchanged ${report.unchanged}, errors ${report.errors}`,
  );
  console.log(
    `watch-table statements: ${db.statements} (claims + write-backs), ${(db.ms / 1000).toFixed(1)} s summed over 32 workers, ${(db.ms / db.statements).toFixed(2)} ms each`,
  );
  console.log(
    `upstream calls: ${upstream} for ${report.parcels} parcels — ${rate.toFixed(0)}/s against a limit of ${PER_SECOND}/s (${((rate / PER_SECOND) * 100).toFixed(0)}% of it)`,
  );
  console.log(
    `Slack posts: ${channels.posts.length}; lower bound for the cycle at the limit: ${(WATCHES / PER_SECOND).toFixed(0)} s (ratio ${(seconds / (WATCHES / PER_SECOND)).toFixed(2)})`,
  );

  await runtime.db.delete(deliveryWatches).where(eq(deliveryWatches.accountId, account.id));
  await service.close();
  await Promise.all([tracker.close(), channels.close()]);
}
