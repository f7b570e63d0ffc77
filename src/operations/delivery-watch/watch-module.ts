import type { Database } from '../../../db/client.js';
import type { ChannelNotifier } from '../../jobs/notifier.js';
import { DEFAULT_POLL_SCHEDULE, type PollSchedule } from '../../jobs/poll-schedule.js';
import { createWatchPoller, type PollerOptions } from '../../jobs/watch-poller.js';
import type { Logger } from '../../logger.js';
import type { Subscriptions } from '../../platform/subscriptions.js';
import type { Delivery } from '../delivery/delivery-module.js';
import { createWebhookSender } from './webhook-sender.js';
import type { AddressLookup } from './webhook-url.js';
import { createWatchService } from './watch-service.js';
import { createWatchStore } from './watch-store.js';

export interface WatchOptions {
  /** Slack/Discord posting (the bots' `createChannelNotifier`); without it channel watches cannot be told. */
  notifier?: ChannelNotifier;
  poller?: PollerOptions;
  /** Poll cadence, maximum interval and quiet hours (default: those of the default configuration). */
  schedule?: PollSchedule;
  /** "Now" for watches (tests fix it). */
  clock?: () => Date;
  /** DNS resolution for webhook hosts (tests). */
  resolve?: AddressLookup;
  webhookTimeoutMs?: number;
}

export interface WatchDeps {
  db: Database;
  delivery: Delivery;
  subscriptions: Subscriptions;
  logger: Logger;
  allowInsecureWebhooks: boolean;
}

/** Watched parcels: the service (create/list/remove) for the doors, and the poller for the cron job. */
export function createWatches(deps: WatchDeps, options: WatchOptions = {}) {
  const store = createWatchStore(deps.db);
  const schedule = options.schedule ?? DEFAULT_POLL_SCHEDULE;
  const service = createWatchService({
    store,
    tracking: deps.delivery.tracking,
    subscriptions: deps.subscriptions,
    logger: deps.logger,
    allowInsecureWebhooks: deps.allowInsecureWebhooks,
    schedule,
    clock: options.clock,
    resolve: options.resolve,
    notifier: options.notifier,
  });
  const webhooks = createWebhookSender({ allowInsecure: deps.allowInsecureWebhooks, clock: options.clock, resolve: options.resolve, timeoutMs: options.webhookTimeoutMs });
  const poller = createWatchPoller(
    {
      store,
      tracking: deps.delivery.tracking,
      ai: deps.delivery.ai,
      calendar: deps.delivery.calendar,
      webhooks,
      channels: options.notifier,
      logger: deps.logger,
      clock: options.clock,
      schedule,
    },
    options.poller,
  );
  return { service, poller, store };
}
