import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { analyzeDelivery, type DeliveryAnalysis } from '../operations/delivery/analysis.js';
import type { DeliveryAi } from '../operations/delivery/delivery-ai.js';
import type { HolidayCalendar } from '../operations/delivery/holidays.js';
import type { StatusId } from '../operations/delivery/statuses.js';
import type { TrackedParcel, TrackingService } from '../operations/delivery/tracking-service.js';
import type { WebhookSender } from '../operations/delivery-watch/webhook-sender.js';
import type { WatchPatch, WatchRow, WatchStore } from '../operations/delivery-watch/watch-store.js';
import { nextPollDelayMs, RETRY_WINDOW_MS, retryDelayMs } from './backoff.js';
import { nextPollAt, type PollSchedule } from './poll-schedule.js';
import { detectChange, isLate, mentionsCustoms, type Change } from './changes.js';
import { channelMessage, webhookPayload, type NoticeInput } from './notice.js';
import type { ChannelNotifier, PostOutcome } from '../operations/delivery-watch/channels.js';
import type { DeliveryHistory } from '../operations/delivery/history-store.js';
import type { DigestStore } from '../operations/delivery-watch/digest-store.js';
import { sendDueDigests } from './digest.js';
import { stallThresholdHours } from '../operations/delivery/estimate.js';
import { quietHoursLeftMs } from './poll-schedule.js';
import { workingHoursBetween } from '../seoul-time.js';

export interface PollerOptions {
  /** Watches claimed at a time (default 50). */
  batchSize?: number;
  /** Watches worked on at once (default 8); the tracker's rate limit paces the upstream calls. */
  concurrency?: number;
  /** How long a claim holds its rows (default 5 min). */
  leaseMs?: number;
  /** No new batch is claimed after this long (default: 80 % of the cadence, at most 8 min). */
  maxCycleMs?: number;
  /** Only these accounts' watches (tests and benches that share a database). */
  accountIds?: number[];
}

export interface PollerDeps {
  store: WatchStore;
  tracking: TrackingService;
  ai: DeliveryAi;
  calendar: HolidayCalendar;
  /** Past parcels' durations: stall thresholds read from it, delivered parcels written to it. */
  history: DeliveryHistory;
  /** Daily digests (absent: none are sent). */
  digests?: DigestStore;
  webhooks: WebhookSender;
  /** Slack/Discord posting, passed in by the composition (absent: channel notices are retried, then fail). */
  channels?: ChannelNotifier;
  logger: Logger;
  clock?: () => Date;
  /** The cadence of `WATCH_CRON`, the maximum interval and the quiet hours. */
  schedule: PollSchedule;
  /** Told after each cycle how late the oldest due watch was when it started, and when it ended (the metrics' watch lag). */
  observeCycle?: (lagSeconds: number, endedAt: Date) => void;
}

export interface CycleReport {
  claimed: number;
  notified: number;
  unchanged: number;
  ended: number;
  retrying: number;
  errors: number;
  /** Distinct parcels asked of the upstream. */
  parcels: number;
  /** Daily digest messages sent. */
  digests: number;
  durationMs: number;
}

/** A cycle's report before anything happened. */
export function emptyCycleReport(): CycleReport {
  return { claimed: 0, notified: 0, unchanged: 0, ended: 0, retrying: 0, errors: 0, parcels: 0, digests: 0, durationMs: 0 };
}

/** The watch poller as the cron job and the doors' tests drive it. */
export interface WatchPoller {
  /** One cycle over the due watches (of these accounts only, when given). */
  runCycle(only?: { accountIds?: number[] }): Promise<CycleReport>;
}

/** What one cycle shares between its watches: stall lines read, delivered parcels recorded. */
interface CycleState {
  thresholds: Map<string, Promise<number>>;
  recorded: Set<string>;
}

type Outcome = 'notified' | 'unchanged' | 'ended' | 'retrying' | 'error';

/**
 * The watch poller: one cycle claims due watches batch by batch (SKIP LOCKED, so several
 * instances share the work and never hold the same row), asks the tracker afresh for each
 * parcel once per cycle (through the shared rate limit, refreshing the cache), compares with
 * what the watch last saw, and tells the channel or webhook about a change. What was seen is
 * written back only after the notice went out, so a failed notice is retried with backoff
 * (24 h at most) and a notice is never sent twice for one change by two instances.
 */
export function createWatchPoller(deps: PollerDeps, options: PollerOptions = {}): WatchPoller {
  const clock = deps.clock ?? (() => new Date());
  const schedule = deps.schedule;
  const batchSize = options.batchSize ?? 50;
  const concurrency = options.concurrency ?? 8;
  const leaseMs = options.leaseMs ?? 5 * 60_000;
  const maxCycleMs = options.maxCycleMs ?? Math.max(1000, Math.min(8 * 60_000, schedule.cadenceMs * 0.8));

  /** When to poll again, on the schedule's tick grid. */
  function pollAgain(row: WatchRow, now: Date, stateId: StatusId | null, quietPolls: number, customs: boolean): Date {
    const ageMs = now.getTime() - row.createdAt.getTime();
    return nextPollAt(now, nextPollDelayMs({ now, stateId, quietPolls, customs, ageMs, schedule }), schedule);
  }

  function quietPatch(row: WatchRow, now: Date, stateId: StatusId | null, customs: boolean): WatchPatch {
    const quietPolls = row.quietPolls + 1;
    return { quietPolls, lastPolledAt: now, nextPollAt: pollAgain(row, now, stateId, quietPolls, customs) };
  }

  async function notify(row: WatchRow, notice: NoticeInput, logger: Logger): Promise<PostOutcome> {
    if (row.targetKind === 'webhook') {
      if (!row.webhookSecret) return { ok: false, gone: true, reason: 'no_secret' };
      return deps.webhooks.send(row.target, row.webhookSecret, JSON.stringify(webhookPayload(notice)));
    }
    const platform = row.targetKind as 'slack' | 'discord';
    if (!deps.channels?.platforms.includes(platform)) return { ok: false, gone: false, reason: `${platform}_not_configured` };
    const outcome = await deps.channels.post(
      { platform, channelId: row.target, workspaceId: row.workspaceId ?? undefined },
      channelMessage(notice),
    );
    if (!outcome.ok) logger.warn({ watchId: row.id, platform, reason: outcome.reason, gone: outcome.gone }, 'channel notice failed');
    return outcome;
  }

  /** A channel watch that had to stop: the person who asked for it hears why, in a DM. */
  async function tellRequester(row: WatchRow, notice: NoticeInput, endReason: string, logger: Logger): Promise<boolean> {
    if (row.targetKind === 'webhook' || !row.requestedBy || !deps.channels) return false;
    const platform = row.targetKind as 'slack' | 'discord';
    const channel = `<#${row.target}>`; // a channel mention on both platforms
    const text = [
      `⚠️ ${notice.result.carrier.name_ko} ${row.trackId} 배송 알림을 ${channel} 채널에 보낼 수 없어 알림을 껐습니다 (${endReason}).`,
      `현재 상태: ${notice.result.state.text}. 봇을 채널에 초대하거나 권한을 확인한 뒤 /track ${row.carrierId} ${row.trackId} watch 로 다시 켜세요.`,
    ].join('\n');
    const told = await deps.channels.postToUser({ platform, userId: row.requestedBy, workspaceId: row.workspaceId ?? undefined }, { text });
    // Not told now: the person's next bot command says it instead (watches.takeStopped).
    if (!told.ok) logger.warn({ watchId: row.id, reason: told.reason }, 'could not tell the requester that the watch stopped');
    return told.ok;
  }

  async function aiFor(
    change: Change,
    parcel: TrackedParcel,
    analysis: DeliveryAnalysis,
    logger: Logger,
  ): Promise<{ analysis: string | null; message: string | null }> {
    if (change.kind === 'delivered' || !isLate(analysis)) return { analysis: null, message: null };
    // A stalled parcel: the message asks the courier to call before coming (and so says where it is).
    const ai = await deps.ai.forLookup(parcel, analysis, change.kind === 'stalled' ? 'call' : 'door', 'polite', logger);
    return { analysis: ai.ai_analysis, message: ai.recommend_message };
  }

  /** The normal wait at this carrier and step (working hours, ≥ 24), read once per cycle. */
  async function stallLine(cycle: CycleState, carrierId: string, statusId: string): Promise<number> {
    const key = `${carrierId}\u0000${statusId}`;
    let line = cycle.thresholds.get(key);
    if (!line) {
      line = deps.history.toNext(carrierId, statusId).then(
        (samples) => stallThresholdHours(samples).hours,
        () => stallThresholdHours([]).hours,
      );
      cycle.thresholds.set(key, line);
    }
    return line;
  }

  /** A delivered parcel's steps go into the anonymous history once (however many watches it has). */
  async function remember(cycle: CycleState, trackId: string, parcel: TrackedParcel, logger: Logger): Promise<void> {
    // The key is only held for this cycle; the history itself stores no number.
    const key = `${parcel.carrier.id}\u0000${trackId}`;
    if (cycle.recorded.has(key)) return;
    cycle.recorded.add(key);
    await deps.history.recordDelivered(parcel).catch((error: unknown) => logger.warn({ err: error }, 'delivery history not written'));
  }

  async function processWatch(
    row: WatchRow,
    claimId: string,
    lookup: (row: WatchRow) => Promise<TrackedParcel>,
    logger: Logger,
    cycle: CycleState,
  ): Promise<Outcome> {
    const now = clock();
    const finish = (patch: WatchPatch) => deps.store.finish(row.id, claimId, patch);
    if (row.expiresAt <= now) {
      await finish({ status: 'expired', endReason: 'expired', endedAt: now });
      return 'ended';
    }
    let parcel: TrackedParcel;
    try {
      parcel = await lookup(row);
    } catch (error) {
      if (error instanceof AppError && error.code === 'TRACKER_BUSY') {
        // Not the parcel's fault: try again a minute (or one tick) later, backoff untouched.
        await finish({ nextPollAt: new Date(now.getTime() + Math.min(60_000, schedule.cadenceMs)) });
        return 'retrying';
      }
      logger.warn({ watchId: row.id, errorCode: error instanceof AppError ? error.code : 'INTERNAL' }, 'watch lookup failed');
      await finish(quietPatch(row, now, row.lastStateId as StatusId | null, false));
      return 'error';
    }
    const lastStatus = parcel.progresses.at(-1)?.status.id ?? parcel.state.id;
    const stallHours = await stallLine(cycle, parcel.carrier.id, lastStatus);
    const analysis = analyzeDelivery(parcel, now, deps.calendar, { stallAfterWorkingHours: stallHours });
    const seen = {
      lastStateId: row.lastStateId,
      lastEventKey: row.lastEventKey,
      seenEvents: row.seenEvents,
      stallNotified: row.stallNotified,
      stallNotifiedAt: row.stallNotifiedAt,
    };
    const repeatDue = row.stallNotifiedAt !== null && workingHoursBetween(row.stallNotifiedAt, now, deps.calendar) >= stallHours;
    const change = detectChange(seen, parcel, analysis, { now, repeatDue });
    const customs = mentionsCustoms(parcel);
    if (change.kind === 'delivered') await remember(cycle, row.trackId, parcel, logger);
    if (change.kind === 'none') {
      await finish(quietPatch(row, now, parcel.state.id, customs));
      return 'unchanged';
    }
    // Quiet hours hold a stall notice (never a delivery or a failure): the watch is looked at again when they end.
    const quietLeft = change.kind === 'stalled' ? quietHoursLeftMs(now, schedule.quietHours) : 0;
    if (quietLeft > 0) {
      await finish({ lastPolledAt: now, nextPollAt: new Date(now.getTime() + quietLeft) });
      return 'unchanged';
    }
    // Digest watches: updates and stalls wait for the daily digest (what was seen is kept, so nothing is told twice).
    if (row.digestAt && (change.kind === 'updated' || change.kind === 'stalled')) {
      await finish({ ...change.next, quietPolls: 0, lastPolledAt: now, nextPollAt: pollAgain(row, now, parcel.state.id, 0, customs) });
      return 'unchanged';
    }
    const ai = await aiFor(change, parcel, analysis, logger);
    const notice: NoticeInput = {
      watchId: row.id,
      carrierId: row.carrierId,
      trackId: row.trackId,
      result: parcel,
      analysis,
      change,
      aiAnalysis: ai.analysis,
      ...(change.kind === 'stalled' ? { recommendMessage: ai.message, stallThresholdHours: stallHours } : {}),
    };
    const outcome = await notify(row, notice, logger);
    if (outcome.ok) {
      const delivered = change.kind === 'delivered';
      await finish({
        ...change.next,
        quietPolls: 0,
        failedAttempts: 0,
        failingSince: null,
        lastPolledAt: now,
        lastNotifiedAt: now,
        nextPollAt: pollAgain(row, now, parcel.state.id, 0, customs),
        ...(delivered ? { status: 'delivered', endReason: 'delivered', endedAt: now } : {}),
      });
      return delivered ? 'ended' : 'notified';
    }
    const failingSince = row.failingSince ?? now;
    if (outcome.gone || now.getTime() - failingSince.getTime() >= RETRY_WINDOW_MS) {
      const endReason = outcome.gone ? outcome.reason : 'retries_exhausted';
      const told = await tellRequester(row, notice, endReason, logger);
      await finish({ status: 'failed', endReason, endedAt: now, lastPolledAt: now, requesterPending: !told && Boolean(row.requestedBy) });
      logger.info({ watchId: row.id, endReason }, 'watch disabled');
      return 'ended';
    }
    const failedAttempts = row.failedAttempts + 1;
    await finish({ failedAttempts, failingSince, lastPolledAt: now, nextPollAt: new Date(now.getTime() + retryDelayMs(failedAttempts)) });
    return 'retrying';
  }

  return {
    /** One poll cycle over every due watch (or until `maxCycleMs`); `accountIds` narrows it (tests). */
    async runCycle(only: { accountIds?: number[] } = {}): Promise<CycleReport> {
      const accountIds = only.accountIds ?? options.accountIds;
      const started = performance.now();
      const claimId = randomUUID();
      const logger = deps.logger.child({ job: 'watch-poll', claimId });
      const report = emptyCycleReport();
      const cycle: CycleState = { thresholds: new Map(), recorded: new Set() };
      // The lag: how long the oldest due watch has waited (a lagging poller shows before notices go missing).
      const oldestDue = deps.observeCycle ? await deps.store.oldestDue(accountIds) : undefined;
      const lagSeconds = oldestDue ? Math.max(0, (clock().getTime() - oldestDue.getTime()) / 1000) : 0;
      // One fresh upstream lookup per parcel per cycle, however many watches share it.
      const lookups = new Map<string, Promise<TrackedParcel>>();
      const lookup = (row: WatchRow) => {
        const key = `${row.carrierId}\u0000${row.trackId}`;
        let running = lookups.get(key);
        if (!running) {
          running = deps.tracking.track(row.carrierId, row.trackId, { fresh: true, logger });
          lookups.set(key, running);
          // A refused slot is not an answer: the next watch of this parcel may ask again.
          running.catch((error: unknown) => {
            if (error instanceof AppError && error.code === 'TRACKER_BUSY') lookups.delete(key);
          });
        }
        return running;
      };
      while (performance.now() - started < maxCycleMs) {
        const rows = await deps.store.claim({ now: clock(), leaseMs, limit: batchSize, claimId, accountIds });
        if (rows.length === 0) break;
        report.claimed += rows.length;
        let next = 0;
        const worker = async () => {
          while (next < rows.length) {
            const row = rows[next++]!;
            const outcome = await processWatch(row, claimId, lookup, logger, cycle).catch((error: unknown) => {
              logger.error({ err: error, watchId: row.id }, 'watch poll failed');
              return 'error' as const;
            });
            report[outcome === 'error' ? 'errors' : outcome]++;
          }
        };
        await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
      }
      report.parcels = lookups.size;
      if (deps.digests) {
        report.digests = await sendDueDigests(
          { digests: deps.digests, tracking: deps.tracking, webhooks: deps.webhooks, channels: deps.channels, logger },
          clock(),
          accountIds,
        ).catch((error: unknown) => {
          logger.error({ err: error }, 'digests failed');
          return 0;
        });
      }
      report.durationMs = Math.round(performance.now() - started);
      deps.observeCycle?.(lagSeconds, clock());
      if (report.claimed > 0) logger.info(report, 'watch poll cycle');
      return report;
    },
  };
}
