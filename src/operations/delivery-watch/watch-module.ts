import type { Database } from '../../../db/client.js';
import type { Clock } from '../../clock.js';
import type { ChannelNotifier } from '../../jobs/notifier.js';
import { createWatchPoller, type PollerOptions } from '../../jobs/watch-poller.js';
import type { Logger } from '../../logger.js';
import type { Delivery } from '../delivery/delivery-module.js';
import { createWebhookSender } from './webhook-sender.js';
import type { AddressLookup } from './webhook-url.js';
import { createWatchOperation } from './watch-operation.js';
import { createWatchService } from './watch-service.js';
import { createWatchStore } from './watch-store.js';

export interface WatchOptions {
  /** Slack/Discord posting (the bots' `createChannelNotifier`); without it channel watches cannot be told. */
  notifier?: ChannelNotifier;
  poller?: PollerOptions;
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
}

/** Watched parcels: the service (create/list/remove) and the creation operation for the doors, the poller for the cron job. */
export function createWatches(deps: WatchDeps, options: WatchOptions = {}) {
  const store = createWatchStore(deps.db);
  const service = createWatchService({
    store,
    tracking: deps.delivery.tracking,
    logger: deps.logger,
    allowInsecureWebhooks: deps.allowInsecureWebhooks,
    firstPollMs: options.poller?.baseIntervalMs ?? 10 * 60_000,
    clock: deps.clock,
    resolve: options.resolve,
  });
  const webhooks = createWebhookSender({ allowInsecure: deps.allowInsecureWebhooks, clock: deps.clock, resolve: options.resolve, timeoutMs: options.webhookTimeoutMs });
  const poller = createWatchPoller(
    {
      store,
      tracking: deps.delivery.tracking,
      ai: deps.delivery.ai,
      calendar: deps.delivery.calendar,
      webhooks,
      channels: options.notifier,
      logger: deps.logger,
      clock: deps.clock,
    },
    options.poller,
  );
  return { service, operation: createWatchOperation(service), poller, store };
}
