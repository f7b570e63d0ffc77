import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { ChannelNotifier, ChannelPlatform, ChannelTarget } from './channels.js';
import type { Account } from '../../platform/accounts.js';
import type { Clock } from '../../clock.js';
import { eventKey } from './event-key.js';
import type { TrackingService } from '../delivery/tracking-service.js';
import { STATUS_LABELS, type StatusId } from '../delivery/statuses.js';
import { detectCarriers } from '../delivery/carrier-detect.js';
import { AUTO_CARRIER } from '../delivery/delivery.schema.js';
import { checkWebhookUrl, type AddressLookup } from './webhook-url.js';
import type { WatchCreateInput } from './watch.schema.js';
import type { WatchRow, WatchStore } from './watch-store.js';
import { firstDigestMark, type DigestStore } from './digest-store.js';

/** A watch ends itself this long after it was made. */
export const WATCH_LIFETIME_MS = 30 * 24 * 3600_000;
/** Active watches one account may hold. */
export const MAX_ACTIVE_WATCHES = 1000;

export interface WatchServiceDeps {
  store: WatchStore;
  tracking: TrackingService;
  logger: Logger;
  allowInsecureWebhooks: boolean;
  /** When the first poll is due: one tick of the poll schedule after creation (the baseline is taken at creation). */
  firstPollAt: (now: Date) => Date;
  clock: Clock;
  resolve?: AddressLookup;
  /** Slack/Discord posting (channel watches announce themselves through it). */
  notifier?: ChannelNotifier;
  /** Channels' digest preferences (`/track digest on`). */
  digests?: DigestStore;
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
  /** Addition (issue 38): the Seoul time of the daily digest, or null (a message per change). */
  digest_at: string | null;
}

export interface CreateOptions {
  /** A Slack or Discord channel (bot door); without it `webhook_url` is required. */
  channel?: ChannelTarget;
  /** The chat user asking (channel watches): told in a DM if the channel later refuses the notices. */
  requestedBy?: string;
  /**
   * Post a first message to the channel now (the bot door): a channel the bot cannot post to
   * is refused at once (422, the watch is not kept) instead of failing silently at the first change.
   */
  announce?: boolean;
  logger?: Logger;
}

export interface CreatedWatch {
  watch: WatchView;
  /** Only for webhook watches, shown once. */
  webhookSecret?: string;
}

/** A parsed creation request (`watchCreateSchema`); the bot door gives a channel instead of `webhookUrl`. */
export type WatchTarget = Omit<WatchCreateInput, 'webhookUrl' | 'digestAt'> & {
  webhookUrl?: string | undefined;
  digestAt?: string | undefined;
};

/** Watched parcels of one account, as the doors and the watch operation use them. */
export interface WatchService {
  /** Uncharged: the REST door charges through the watch operation; the bot's `/track … watch` paid for its lookup. */
  create(account: Pick<Account, 'id'>, input: WatchTarget, options?: CreateOptions): Promise<CreatedWatch>;
  list(accountId: number, filter?: { channel?: ChannelTarget }): Promise<WatchView[]>;
  remove(accountId: number, ref: { id: number } | { trackId: string; channel?: ChannelTarget }): Promise<number[]>;
  /**
   * Channel watches this person asked for that stopped while nobody could tell them (the DM
   * failed): one Korean line each, given once (the bots add them to the person's next reply).
   */
  takeStopped(accountId: number, person: { platform: ChannelPlatform; userId: string }): Promise<string[]>;
  /** `/track digest on|off`: the channel's changes as one daily message at `digestAt` (null: one per change); returns the watches covered. */
  setChannelDigest(accountId: number, channel: ChannelTarget, digestAt: string | null): Promise<number>;
}

/** What to do when the bot cannot post to a channel, in the platform's words. */
export function cannotPostText(platform: ChannelPlatform, reason: string): string {
  if (platform === 'slack') {
    return reason === 'not_in_channel' || reason === 'channel_not_found'
      ? '봇이 이 채널에 메시지를 보낼 수 없어 알림을 켜지 못했어요. 채널에 봇을 초대(/invite @봇 이름)한 뒤 다시 시도하세요.'
      : `봇이 이 채널에 메시지를 보낼 수 없어 알림을 켜지 못했어요 (${reason}). 워크스페이스 관리자에게 앱 권한을 확인해 달라고 하세요.`;
  }
  return '봇에게 이 채널의 보기·메시지 보내기 권한이 없어 알림을 켜지 못했어요. 서버 관리자에게 채널 권한을 확인해 달라고 하세요.';
}

export const duplicate = () => new AppError('CONFLICT', '이미 같은 곳으로 알림을 보내고 있는 운송장입니다.');
export const tooManyWatches = () =>
  new AppError('CONFLICT', `알림은 계정당 ${MAX_ACTIVE_WATCHES}개까지 켤 수 있습니다. 필요 없는 알림을 먼저 끄세요.`);
export const alreadyDelivered = () => new AppError('UNPROCESSABLE', '이미 배송이 완료된 운송장이라 알림을 켤 수 없습니다.');
export const watchNotFound = () => new AppError('NOT_FOUND', '해당 배송 알림을 찾을 수 없습니다.');

export function toView(row: WatchRow): WatchView {
  const stateId = row.lastStateId as StatusId | null;
  return {
    id: row.id,
    carrier_id: row.carrierId,
    track_id: row.trackId,
    status: row.status,
    target:
      row.targetKind === 'webhook'
        ? { type: 'webhook', url: row.target }
        : { type: row.targetKind as 'slack' | 'discord', channel_id: row.target },
    state: stateId && stateId in STATUS_LABELS ? { id: stateId, text: STATUS_LABELS[stateId] } : null,
    end_reason: row.endReason,
    created_at: row.createdAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    next_poll_at: row.status === 'active' ? row.nextPollAt.toISOString() : null,
    last_notified_at: row.lastNotifiedAt?.toISOString() ?? null,
    digest_at: row.digestAt ?? null,
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

  /** The first channel message; a channel that refuses it ends the watch and tells the caller why. */
  async function announce(row: WatchRow, channel: ChannelTarget, carrierName: string): Promise<void> {
    if (!deps.notifier?.platforms.includes(channel.platform)) return;
    const text = `🔔 ${carrierName} ${row.trackId} 배송 상태가 바뀌면 이 채널에 알려 드립니다 (배송 완료 또는 30일까지).`;
    const outcome = await deps.notifier.post(channel, { text });
    if (outcome.ok || !outcome.gone) return;
    await deps.store.remove(row.accountId, { id: row.id });
    throw new AppError('UNPROCESSABLE', cannotPostText(channel.platform, outcome.reason), { reason: outcome.reason });
  }

  async function create(account: Pick<Account, 'id'>, input: WatchTarget, options: CreateOptions = {}): Promise<CreatedWatch> {
    const channel = options.channel;
    if (!channel && !input.webhookUrl) {
      throw new AppError('INVALID_REQUEST', "'webhook_url' 필드: 필수 항목입니다.", { field: 'webhook_url' });
    }
    const targetKind = channel ? channel.platform : 'webhook';
    const target = channel
      ? channel.channelId
      : (await checkWebhookUrl(input.webhookUrl!, { allowInsecure: deps.allowInsecureWebhooks }, deps.resolve)).href;
    const auto = input.carrierId === AUTO_CARRIER;
    // A fast answer for the common case; the unique index at insert is what guarantees it.
    if (!auto && (await deps.store.findActive(account.id, input.carrierId, input.trackId, targetKind, target))) throw duplicate();
    if ((await deps.store.countActive(account.id)) >= MAX_ACTIVE_WATCHES) {
      throw tooManyWatches();
    }
    // The baseline: what the parcel shows now is not news (404 / 502 when the lookup fails).
    const parcel = auto
      ? await deps.tracking.trackDetected(detectCarriers(input.trackId), input.trackId, { logger: options.logger })
      : await deps.tracking.track(input.carrierId, input.trackId, { logger: options.logger });
    if (parcel.state.id === 'delivered') {
      throw alreadyDelivered();
    }
    const now = clock();
    const newest = parcel.progresses.at(-1);
    const webhookSecret = channel ? undefined : `whsec_${randomBytes(24).toString('base64url')}`;
    const digestAt = input.digestAt ?? (channel ? await deps.digests?.channelDigest(account.id, channel) : undefined) ?? null;
    const row = await deps.store.insert({
      accountId: account.id,
      carrierId: parcel.carrier.id,
      trackId: input.trackId,
      targetKind,
      target,
      workspaceId: channel?.workspaceId ?? null,
      requestedBy: channel ? (options.requestedBy ?? null) : null,
      webhookSecret: webhookSecret ?? null,
      lastStateId: parcel.state.id,
      lastEventKey: newest ? eventKey(newest) : null,
      seenEvents: parcel.progresses.length,
      nextPollAt: deps.firstPollAt(now),
      digestAt,
      digestSentOn: firstDigestMark(now, digestAt),
      expiresAt: new Date(now.getTime() + WATCH_LIFETIME_MS),
      createdAt: now,
    });
    if (!row) throw duplicate();
    if (channel && options.announce) await announce(row, channel, parcel.carrier.name_ko);
    (options.logger ?? deps.logger).info({ watchId: row.id, targetKind }, 'watch created');
    return { watch: toView(row), ...(webhookSecret ? { webhookSecret } : {}) };
  }

  return {
    create,

    async setChannelDigest(accountId, channel, digestAt) {
      if (!deps.digests) return 0;
      return deps.digests.setChannelDigest(accountId, channel, digestAt, clock());
    },

    async takeStopped(accountId, person) {
      const rows = await deps.store.takeStopped(accountId, person.platform, person.userId);
      return rows.map(
        (row) =>
          `⚠️ <#${row.target}> 채널의 ${row.trackId} 배송 알림은 채널에 글을 올릴 수 없어 꺼졌습니다 (${row.endReason ?? '알 수 없음'}). 봇을 초대한 뒤 /track … watch 로 다시 켜세요.`,
      );
    },

    /** The account's watches, oldest first; `channel` keeps those posting to one channel. */
    async list(accountId: number, filter: { channel?: ChannelTarget } = {}): Promise<WatchView[]> {
      const rows = await deps.store.list(accountId);
      const kept = filter.channel
        ? rows.filter((row) => row.targetKind === filter.channel!.platform && row.target === filter.channel!.channelId)
        : rows;
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
