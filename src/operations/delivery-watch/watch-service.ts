import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ChannelTarget } from './channels.js';
import type { Account } from '../../platform/accounts.js';
import type { Clock } from '../../clock.js';
import { eventKey } from './event-key.js';
import type { TrackingService } from '../delivery/tracking-service.js';
import { STATUS_LABELS, type StatusId } from '../delivery/statuses.js';
import { checkWebhookUrl, type AddressLookup } from './webhook-url.js';
import type { WatchCreateInput } from './watch.schema.js';
import type { WatchRow, WatchStore } from './watch-store.js';

/** A watch ends itself this long after it was made. */
export const WATCH_LIFETIME_MS = 30 * 24 * 3600_000;
/** Active watches one account may hold. */
export const MAX_ACTIVE_WATCHES = 1000;

export interface WatchServiceDeps {
  store: WatchStore;
  tracking: TrackingService;
  logger: Logger;
  allowInsecureWebhooks: boolean;
  /** Interval before the first poll (the poller's base interval). */
  firstPollMs: number;
  clock: Clock;
  resolve?: AddressLookup;
}

/** A watch as the API and the bots show it (never the secret). */
export interface WatchView {
  id: number;
  carrier_id: string;
  track_id: string;
  status: string;
  target: { type: 'webhook'; url: string } | { type: 'slack' | 'discord'; channel_id: string };
  state: { id: string; text: string } | null;
  end_reason: string | null;
  created_at: string;
  expires_at: string;
  next_poll_at: string | null;
  last_notified_at: string | null;
}

export interface CreateOptions {
  /** A Slack or Discord channel (bot door); without it `webhook_url` is required. */
  channel?: ChannelTarget;
  logger?: Logger;
}

export interface CreatedWatch {
  watch: WatchView;
  /** Only for webhook watches, shown once. */
  webhookSecret?: string;
}

/** A parsed creation request (`watchCreateSchema`); the bot door gives a channel instead of `webhookUrl`. */
export type WatchTarget = Omit<WatchCreateInput, 'webhookUrl'> & { webhookUrl?: string | undefined };

/** Watched parcels of one account, as the doors and the watch operation use them. */
export interface WatchService {
  /** Uncharged: the REST door charges through the watch operation; the bot's `/track … watch` paid for its lookup. */
  create(account: Pick<Account, 'id'>, input: WatchTarget, options?: CreateOptions): Promise<CreatedWatch>;
  list(accountId: number, filter?: { channel?: ChannelTarget }): Promise<WatchView[]>;
  remove(accountId: number, ref: { id: number } | { trackId: string; channel?: ChannelTarget }): Promise<number[]>;
}

export function toView(row: WatchRow): WatchView {
  const stateId = row.lastStateId as StatusId | null;
  return {
    id: row.id,
    carrier_id: row.carrierId,
    track_id: row.trackId,
    status: row.status,
    target: row.targetKind === 'webhook' ? { type: 'webhook', url: row.target } : { type: row.targetKind as 'slack' | 'discord', channel_id: row.target },
    state: stateId && stateId in STATUS_LABELS ? { id: stateId, text: STATUS_LABELS[stateId] } : null,
    end_reason: row.endReason,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    next_poll_at: row.status === 'active' ? row.nextPollAt.toISOString() : null,
    last_notified_at: row.lastNotifiedAt?.toISOString() ?? null,
  };
}

/**
 * Watched parcels for one account (issue 9): create (the parcel is looked up once through
 * the cache, so the first notice is about a real change), list and remove. Errors: 400 bad
 * carrier, number or webhook URL; 403 without the `delivery-tracking` subscription; 404 a
 * parcel the carrier does not know; 409 already watched; 422 already delivered.
 */
export function createWatchService(deps: WatchServiceDeps): WatchService {
  const { clock } = deps;

  async function create(account: Pick<Account, 'id'>, input: WatchTarget, options: CreateOptions = {}): Promise<CreatedWatch> {
    const channel = options.channel;
    if (!channel && !input.webhookUrl) {
      throw new AppError('INVALID_REQUEST', "'webhook_url' 필드: 필수 항목입니다.", { field: 'webhook_url' });
    }
    const targetKind = channel ? channel.platform : 'webhook';
    const target = channel ? channel.channelId : (await checkWebhookUrl(input.webhookUrl!, { allowInsecure: deps.allowInsecureWebhooks }, deps.resolve)).href;
    if (await deps.store.findActive(account.id, input.carrierId, input.trackId, targetKind, target)) {
      throw new AppError('CONFLICT', '이미 같은 곳으로 알림을 보내고 있는 운송장입니다.');
    }
    if ((await deps.store.countActive(account.id)) >= MAX_ACTIVE_WATCHES) {
      throw new AppError('CONFLICT', `알림은 계정당 ${MAX_ACTIVE_WATCHES}개까지 켤 수 있습니다. 필요 없는 알림을 먼저 끄세요.`);
    }
    // The baseline: what the parcel shows now is not news (404 / 502 when the lookup fails).
    const parcel = await deps.tracking.track(input.carrierId, input.trackId, { logger: options.logger });
    if (parcel.state.id === 'delivered') {
      throw new AppError('UNPROCESSABLE', '이미 배송이 완료된 운송장이라 알림을 켤 수 없습니다.');
    }
    const now = clock();
    const newest = parcel.progresses.at(-1);
    const webhookSecret = channel ? undefined : `whsec_${randomBytes(24).toString('base64url')}`;
    const row = await deps.store.insert({
      accountId: account.id,
      carrierId: input.carrierId,
      trackId: input.trackId,
      targetKind,
      target,
      workspaceId: channel?.workspaceId ?? null,
      webhookSecret: webhookSecret ?? null,
      lastStateId: parcel.state.id,
      lastEventKey: newest ? eventKey(newest) : null,
      seenEvents: parcel.progresses.length,
      nextPollAt: new Date(now.getTime() + deps.firstPollMs),
      expiresAt: new Date(now.getTime() + WATCH_LIFETIME_MS),
      createdAt: now,
    });
    (options.logger ?? deps.logger).info({ watchId: row.id, targetKind }, 'watch created');
    return { watch: toView(row), ...(webhookSecret ? { webhookSecret } : {}) };
  }

  return {
    create,

    /** The account's watches, oldest first; `channel` keeps those posting to one channel. */
    async list(accountId: number, filter: { channel?: ChannelTarget } = {}): Promise<WatchView[]> {
      const rows = await deps.store.list(accountId);
      const kept = filter.channel ? rows.filter((row) => row.targetKind === filter.channel!.platform && row.target === filter.channel!.channelId) : rows;
      return kept.map(toView);
    },

    /**
     * Ends watches by id, or by waybill number (spaces and hyphens ignored, letters upper-cased as stored; in `channel`
     * only, when given). Returns the ids removed (none: the caller answers 404).
     */
    async remove(accountId: number, ref: { id: number } | { trackId: string; channel?: ChannelTarget }): Promise<number[]> {
      if ('id' in ref) return deps.store.remove(accountId, { id: ref.id });
      const trackId = ref.trackId.replace(/[\s-]+/g, '').toUpperCase();
      const channel = ref.channel ? { targetKind: ref.channel.platform, target: ref.channel.channelId } : {};
      return deps.store.remove(accountId, { trackId, ...channel });
    },
  };
}
