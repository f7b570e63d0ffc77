import type { Logger } from '../logger.js';
import type { ChannelNotifier } from '../operations/delivery-watch/channels.js';
import type { DigestStore } from '../operations/delivery-watch/digest-store.js';
import type { WatchRow } from '../operations/delivery-watch/watch-store.js';
import type { WebhookSender } from '../operations/delivery-watch/webhook-sender.js';
import { findCarrier } from '../operations/delivery/carriers.js';
import { STATUS_LABELS, type StatusId } from '../operations/delivery/statuses.js';
import type { TrackingService } from '../operations/delivery/tracking-service.js';
import type { z } from 'zod';
import type { digestPayloadSchema } from './webhook-events.js';
import { seoulDate, seoulIso } from '../seoul-time.js';

export interface DigestDeps {
  digests: DigestStore;
  tracking: TrackingService;
  webhooks: WebhookSender;
  channels?: ChannelNotifier;
  logger: Logger;
}

type DigestPayload = z.output<typeof digestPayloadSchema>;
/** One parcel of a digest. */
export type DigestItem = DigestPayload['parcels'][number];

/** How many parcels one digest message lists (the rest are counted). */
const MAX_LISTED = 50;

function shortTime(time: string | null): string {
  return time ? `${time.slice(5, 7)}/${time.slice(8, 10)} ${time.slice(11, 16)}` : '시간 미상';
}

/** The channel text of a digest: one line per parcel. */
export function digestText(today: string, items: DigestItem[]): string {
  const lines = [`🗓️ ${today} 배송 현황 (${items.length}건)`];
  for (const item of items.slice(0, MAX_LISTED)) {
    const carrier = findCarrier(item.carrier_id)?.name_ko ?? item.carrier_id;
    const event = item.last_event
      ? ` — ${shortTime(item.last_event.time)} ${[item.last_event.status.text, item.last_event.location.name].filter(Boolean).join(' · ')}`
      : '';
    lines.push(`• ${carrier} ${item.track_id}: ${item.state?.text ?? '확인 전'}${event}`);
  }
  if (items.length > MAX_LISTED) lines.push(`외 ${items.length - MAX_LISTED}건`);
  lines.push('건마다 알림을 받으려면 /track digest off');
  return lines.join('\n');
}

/**
 * Sends the digests due now: the watches whose `digest_at` (Seoul time) has come and that were
 * not listed today are claimed at once, grouped by target (a channel, or one webhook URL of one
 * account), and each group gets one message listing its parcels as the cache knows them. A
 * failed post gives the claim back, so the next cycle tries again; a sent one is never repeated.
 */
export async function sendDueDigests(deps: DigestDeps, now: Date, accountIds?: number[]): Promise<number> {
  const today = seoulDate(now);
  const time = seoulIso(now).slice(11, 16);
  const rows = await deps.digests.claimDue(today, time, accountIds);
  if (rows.length === 0) return 0;
  const groups = new Map<string, WatchRow[]>();
  for (const row of rows) {
    const key = `${row.accountId}\u0000${row.targetKind}\u0000${row.target}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  let sent = 0;
  for (const group of groups.values()) {
    group.sort((a, b) => a.id - b.id);
    const items = await Promise.all(group.map((row) => itemOf(deps, row)));
    const first = group[0]!;
    let ok = false;
    // A target that cannot be reached at all today (no webhook secret, the platform not configured) is not retried every tick.
    let retry = true;
    if (first.targetKind === 'webhook') {
      if (first.webhookSecret) {
        // Signed with the secret of the oldest watch listed (the receiver holds every watch's secret).
        const payload: DigestPayload = { event: 'delivery.digest', date: today, watch_ids: group.map((row) => row.id), parcels: items };
        const body = JSON.stringify(payload);
        ok = (await deps.webhooks.send(first.target, first.webhookSecret, body)).ok;
      } else retry = false;
    } else if (deps.channels?.platforms.includes(first.targetKind as 'slack' | 'discord')) {
      const outcome = await deps.channels.post(
        { platform: first.targetKind as 'slack' | 'discord', channelId: first.target, workspaceId: first.workspaceId ?? undefined },
        { text: digestText(today, items) },
      );
      ok = outcome.ok;
      if (!outcome.ok && outcome.gone) retry = false;
    } else retry = false;
    if (ok) sent++;
    else if (!retry) deps.logger.warn({ watches: group.length, targetKind: first.targetKind }, 'digest not sent: target unreachable today');
    else {
      deps.logger.warn({ watches: group.length, targetKind: first.targetKind }, 'digest not sent: due again next cycle');
      await deps.digests.release(
        group.map((row) => row.id),
        today,
      );
    }
  }
  return sent;
}

async function itemOf(deps: DigestDeps, row: WatchRow): Promise<DigestItem> {
  const stateId = row.lastStateId as StatusId | null;
  const fallback: DigestItem = {
    watch_id: row.id,
    carrier_id: row.carrierId,
    track_id: row.trackId,
    state: stateId && stateId in STATUS_LABELS ? { id: stateId, text: STATUS_LABELS[stateId] } : null,
    last_event: null,
  };
  try {
    const parcel = await deps.tracking.track(row.carrierId, row.trackId);
    return { ...fallback, state: parcel.state, last_event: parcel.progresses.at(-1) ?? null };
  } catch {
    return fallback;
  }
}
