import type { Database } from '../../db/client.js';
import type { Clock } from '../clock.js';
import type { ChannelNotifier } from '../operations/delivery-watch/channels.js';
import { DEFAULT_POLL_SCHEDULE, nextPollAt, type PollSchedule } from './poll-schedule.js';
import { createWatchPoller, type PollerOptions } from './watch-poller.js';
import type { Logger } from '../logger.js';
import type { Delivery } from '../operations/delivery/delivery-module.js';
import { createWebhookSender } from '../operations/delivery-watch/webhook-sender.js';
import type { AddressLookup } from '../operations/delivery-watch/webhook-url.js';
import { createWatchOperation } from '../operations/delivery-watch/watch-operation.js';
import { createWatchService } from '../operations/delivery-watch/watch-service.js';
import { createWatchStore } from '../operations/delivery-watch/watch-store.js';
import { createDigestStore } from '../operations/delivery-watch/digest-store.js';

export interface WatchOptions {
  /** Slack/Discord posting (the bots' `createChannelNotifier`); without it channel watches cannot be told. */
  notifier?: ChannelNotifier;
  poller?: PollerOptions;
  /** Poll cadence, maximum interval and quiet hours (default: those of the default configuration). */
  schedule?: PollSchedule;
  /** DNS resolution for webhook hosts (tests). */
  resolve?: AddressLookup;
  webhookTimeoutMs?: number;
}

export interface WatchDeps {
  db: Database;
  delivery: Delivery;
  logger: Logger;
  clock: Clock;
  allowInsecureWebhooks: boolean;
  /** The metrics' watch lag (the poller tells it after each cycle). */
  observeCycle?: (lagSeconds: number, endedAt: Date) => void;
}

/**
 * Composes watched parcels: the service (create/list/remove) and the creation operation for
 * the doors, the poller for the cron job. It lives in jobs/ because it builds the poller:
 * jobs/ depends on operations/delivery-watch/, never the other way.
 */
export function createWatches(deps: WatchDeps, options: WatchOptions = {}) {
  const store = createWatchStore(deps.db);
  const digests = createDigestStore(deps.db);
  const schedule = options.schedule ?? DEFAULT_POLL_SCHEDULE;
  const service = createWatchService({
    store,
    tracking: deps.delivery.tracking,
    logger: deps.logger,
    allowInsecureWebhooks: deps.allowInsecureWebhooks,
    firstPollAt: (now: Date) => nextPollAt(now, schedule.cadenceMs, schedule),
    clock: deps.clock,
    resolve: options.resolve,
    notifier: options.notifier,
    digests,
  });
  const webhooks = createWebhookSender({
    allowInsecure: deps.allowInsecureWebhooks,
    clock: deps.clock,
    resolve: options.resolve,
    timeoutMs: options.webhookTimeoutMs,
  });
  const poller = createWatchPoller(
    {
      store,
      tracking: deps.delivery.tracking,
      ai: deps.delivery.ai,
      calendar: deps.delivery.calendar,
      history: deps.delivery.history,
      digests,
      webhooks,
      channels: options.notifier,
      logger: deps.logger,
      clock: deps.clock,
      schedule,
      observeCycle: deps.observeCycle,
    },
    options.poller,
  );
  return { service, operation: createWatchOperation(service), poller, store };
}
