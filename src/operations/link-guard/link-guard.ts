import { AppError } from '../../errors.js';
import type { Executor } from '../../../db/client.js';
import type { Account } from '../../platform/accounts.js';
import type { Attribution } from '../../platform/audit-log.js';
import { executeOperation, type Operation } from '../../platform/execute.js';
import type { BotPlatform } from '../../platform/workspace-links.js';
import type { UrlSafetyChecker, UrlVerdict } from '../url-detect/checker.js';
import { urlDetectSchema } from '../url-detect/url-detect.schema.js';
import { extractUrls, MAX_URLS } from '../url-scan/extract-urls.js';
import type { CheckedUrl } from '../url-scan/smishing-signals.js';
import {
  createGuardStore,
  type ChannelRef,
  type GuardAction,
  type GuardedChannel,
  type GuardLocale,
  type GuardStore,
} from './guard-store.js';
import { hostOf, isAllowed, sha256 } from './guard-hosts.js';
import { scamFinding, scamWarningOperation, type ScamFinding } from './message-warning.js';
import { createTenantQueue } from './tenant-queue.js';
import type { Finding, GuardedMessage, GuardOutcome, GuardResponder, LinkGuardDeps, Submitted } from './guard-types.js';
import { boundedCache } from '../../bounded-cache.js';

export { isAllowed, normaliseHost } from './guard-hosts.js';
export type { ScamFinding } from './message-warning.js';
export type { Finding, GuardedMessage, GuardOutcome, GuardResponder, GuardWarning, LinkGuardDeps, Submitted } from './guard-types.js';

/** The same URL in the same workspace within this time is answered from the cache (issue 40). */
export const VERDICT_TTL_MS = 10 * 60_000;
/** Channel settings and allow lists are read again after this (changes made here apply at once). */
const SETTINGS_TTL_MS = 30_000;
/** Messages waiting per workspace: a flood beyond it is dropped (and logged), never queued without bound. */
export const DEFAULT_MAX_PENDING = 200;
/** Messages checked at once over all workspaces: the guard's share of the detector. */
export const DEFAULT_CONCURRENCY = 4;

const checkOperation = (checker: UrlSafetyChecker): Operation<typeof urlDetectSchema, UrlVerdict> => ({
  api: 'harmful-url-detection',
  schema: urlDetectSchema,
  run: (_ctx, input) => checker.check(input.url),
});

type CachedVerdict = UrlVerdict & { finalUrl?: string; at: number };

/**
 * The link guard (issue 40): channels turned on with `/guard on` have every message's links
 * checked without anyone asking. A clean message gets nothing; a harmful link gets a warning
 * through the door's responder and becomes an incident (URL hash and host, never the message).
 * Each URL checked costs one `harmful-url-detection` call of the workspace's linked account; the
 * same URL in the same workspace within 10 minutes comes from the cache, free. Work goes through
 * a bounded queue per workspace, so one flooded workspace cannot hold up the others.
 */
export function createLinkGuard(deps: LinkGuardDeps) {
  const store: GuardStore = createGuardStore(deps.db, deps.clock);
  const logger = deps.logger.child({ part: 'link-guard' });
  const queue = createTenantQueue({
    maxPending: deps.queue?.maxPending ?? DEFAULT_MAX_PENDING,
    concurrency: deps.queue?.concurrency ?? DEFAULT_CONCURRENCY,
  });
  const operation = checkOperation(deps.checker);

  /**
   * A change of a channel's guard and, when the workspace is linked, its `guard.changed` audit row
   * (the chat user and the channel) in one transaction; the cached setting is dropped after.
   */
  async function changeChannel(ref: ChannelRef, by: Attribution, change: string, apply: (tx: Executor) => Promise<boolean>) {
    const account = await deps.workspaceLinks.accountFor(ref);
    const changed = await deps.db.transaction(async (tx) => {
      const done = await apply(tx);
      if (done && account)
        await deps.audit.record(tx, {
          accountId: account.id,
          actor: by.actor,
          action: 'guard.changed',
          target: `channel:${ref.platform}/${ref.workspaceId}/${ref.channelId} ${change}`,
        });
      return done;
    });
    channels.delete(channelKey(ref));
    return changed;
  }
  const verdicts = boundedCache<string, CachedVerdict>(50_000);
  const channels = boundedCache<string, { channel: GuardedChannel | null; at: number }>(20_000);
  const allowLists = boundedCache<string, { hosts: string[]; at: number }>(5_000);
  /** Hosts already warned about under a message: an edit or an unfurl added later is not warned twice. */
  const warned = boundedCache<string, true>(50_000, { ttl: 24 * 60 * 60_000 });
  const now = () => deps.clock().getTime();
  const channelKey = (ref: ChannelRef) => `${ref.platform}:${ref.workspaceId}:${ref.channelId}`;
  const workspaceKey = (platform: BotPlatform, workspaceId: string) => `${platform}:${workspaceId}`;

  async function channelOf(ref: ChannelRef): Promise<GuardedChannel | undefined> {
    const cached = channels.get(channelKey(ref));
    if (cached && now() - cached.at < SETTINGS_TTL_MS) return cached.channel ?? undefined;
    const channel = await store.channel(ref);
    channels.set(channelKey(ref), { channel: channel ?? null, at: now() });
    return channel;
  }

  async function allowedHosts(platform: BotPlatform, workspaceId: string): Promise<string[]> {
    const key = workspaceKey(platform, workspaceId);
    const cached = allowLists.get(key);
    if (cached && now() - cached.at < SETTINGS_TTL_MS) return cached.hosts;
    const hosts = await store.allowedHosts(platform, workspaceId);
    allowLists.set(key, { hosts, at: now() });
    return hosts;
  }

  /** The verdict of one URL for a workspace: from the cache, or checked and charged. */
  async function verdictFor(account: Account, message: GuardedMessage, url: string): Promise<CachedVerdict> {
    // Keyed by the URL's hash: the cache keeps no address a member posted.
    const key = `${workspaceKey(message.platform, message.workspaceId)}\n${sha256(url)}`;
    const cached = verdicts.get(key);
    if (cached && now() - cached.at < VERDICT_TTL_MS) return cached;
    const { output } = await executeOperation(
      deps.quota,
      operation,
      { account, logger, requestId: `guard:${message.platform}:${message.messageId}` },
      { url },
      deps.observeOperation,
    );
    const verdict = { ...output, at: now() };
    verdicts.set(key, verdict);
    return verdict;
  }

  const observe = (message: GuardedMessage, outcome: GuardOutcome['outcome']) =>
    deps.observe?.({ platform: message.platform, workspaceId: message.workspaceId, messageId: message.messageId, outcome });

  async function inspect(
    message: GuardedMessage,
    channel: GuardedChannel,
    urls: string[],
    responder: GuardResponder,
  ): Promise<GuardOutcome['outcome']> {
    const account = await deps.workspaceLinks.accountFor(message);
    if (!account) {
      logger.info({ platform: message.platform, workspace: message.workspaceId }, 'guarded channel in an unlinked workspace: not checked');
      return 'unlinked';
    }
    let stopped = false;
    const allowed = await allowedHosts(message.platform, message.workspaceId);
    const findings: Finding[] = [];
    /** The verdicts the message judge reads with the text. */
    const checked: CheckedUrl[] = [];
    const incidents: Array<Finding & { urlHash: string }> = [];
    let charged = false;
    for (const url of urls) {
      const host = hostOf(url);
      if (isAllowed(host, allowed)) continue;
      let verdict: CachedVerdict;
      try {
        verdict = await verdictFor(account, message, url);
        charged = true;
      } catch (error) {
        if (await quotaStopped(error, message, channel, responder)) {
          stopped = true;
          break;
        }
        logger.warn({ err: error, platform: message.platform, workspace: message.workspaceId }, 'guard check failed');
        continue;
      }
      checked.push({
        url,
        final_url: verdict.finalUrl ?? url,
        is_malicious: verdict.isMalicious,
        category: verdict.category,
        reason: verdict.reason,
      });
      if (!verdict.isMalicious) continue;
      const finalHost = verdict.finalUrl ? hostOf(verdict.finalUrl) : undefined;
      if (finalHost && isAllowed(finalHost, allowed)) continue;
      const warnedKey = `${channelKey(message)}\n${message.messageId}\n${host}`;
      if (warned.has(warnedKey)) continue;
      warned.set(warnedKey, true);
      const finding: Finding = {
        host,
        ...(finalHost && finalHost !== host ? { finalHost } : {}),
        category: verdict.category,
        reason: verdict.reason,
      };
      findings.push(finding);
      incidents.push({ ...finding, urlHash: sha256(url) });
    }
    let scam: ScamFinding | undefined;
    if (!stopped && channel.messages && message.text?.trim()) {
      const judged = await judgeMessage(account, message, message.text, checked, channel, responder);
      if (judged === 'quota_stopped') stopped = true;
      else if (judged) {
        scam = judged;
        charged = true;
      }
    }
    // The quota works again (renewed, or more bought): a later exhaustion is told again.
    if (charged && channel.quotaNoticeAt) {
      await store.clearQuotaNotice(channel);
      channels.delete(channelKey(channel));
    }
    if (findings.length === 0 && !scam) return stopped ? 'quota_stopped' : 'clean';
    let action: GuardAction = 'not_warned';
    try {
      action = await responder.warn(message, { channel, findings, ...(scam ? { scam } : {}) });
    } catch (error) {
      logger.warn({ err: error, platform: message.platform, workspace: message.workspaceId }, 'guard warning not posted');
    }
    await store.record(
      incidents.map((incident) => ({
        platform: message.platform,
        workspaceId: message.workspaceId,
        channelId: message.channelId,
        accountId: account.id,
        posterId: message.posterId,
        urlHash: incident.urlHash,
        host: incident.host,
        category: incident.category,
        reason: incident.reason,
        action,
      })),
    );
    logger.info(
      { platform: message.platform, workspace: message.workspaceId, harmful: findings.length, scamType: scam?.scam_type, action },
      'guard warned',
    );
    return 'warned';
  }

  /**
   * A used-up quota or a missing subscription stops the guard's look at the message: the channel is
   * told once (a single claim, across instances), then the guard stays silent. True when it stopped.
   */
  async function quotaStopped(error: unknown, message: GuardedMessage, channel: GuardedChannel, responder: GuardResponder) {
    if (!(error instanceof AppError && (error.code === 'QUOTA_EXCEEDED' || error.code === 'SUBSCRIPTION_REQUIRED'))) return false;
    if (await store.claimQuotaNotice(channel)) {
      channels.delete(channelKey(channel));
      await responder.quotaNotice(message, channel, error.code === 'QUOTA_EXCEEDED' ? 'quota' : 'subscription');
    }
    return true;
  }

  /**
   * `/guard messages on`: the text judged offline (free); a firm scam not yet warned about under
   * this message costs one call, charged before the warning. The text is neither kept nor logged.
   */
  async function judgeMessage(
    account: Account,
    message: GuardedMessage,
    text: string,
    checked: readonly CheckedUrl[],
    channel: GuardedChannel,
    responder: GuardResponder,
  ): Promise<ScamFinding | 'quota_stopped' | undefined> {
    const finding = scamFinding(deps.messageJudge, text, checked);
    const warnedKey = `${channelKey(message)}\n${message.messageId}\n#message`;
    if (!finding || warned.has(warnedKey)) return undefined;
    try {
      await executeOperation(
        deps.quota,
        scamWarningOperation,
        { account, logger, requestId: `guard:${message.platform}:${message.messageId}` },
        {},
        deps.observeOperation,
      );
    } catch (error) {
      if (await quotaStopped(error, message, channel, responder)) return 'quota_stopped';
      logger.warn({ err: error, platform: message.platform, workspace: message.workspaceId }, 'guard message charge failed');
      return undefined;
    }
    warned.set(warnedKey, true);
    return finding;
  }

  const done = (message: GuardedMessage, outcome: Submitted): Submitted => {
    observe(message, outcome);
    return outcome;
  };

  return {
    store,

    /**
     * A message seen in a channel: when the channel is guarded and the message has links, it is
     * queued for checking (`dropped` when the workspace's queue is full). Never throws.
     */
    async submit(message: GuardedMessage, responder: GuardResponder): Promise<Submitted> {
      const channel =
        (await channelOf(message)) ??
        (message.parentChannelId ? await channelOf({ ...message, channelId: message.parentChannelId }) : undefined);
      if (!channel) return done(message, 'not_guarded');
      const urls = extractUrls(message.parts, MAX_URLS).urls.filter((url) => urlDetectSchema.safeParse({ url }).success);
      // Without a link, a message is looked at only where `/guard messages on` asks for its text to be judged.
      const judged = channel.messages && Boolean(message.text?.trim());
      if (urls.length === 0 && !judged) return done(message, 'no_links');
      const tenant = workspaceKey(message.platform, message.workspaceId);
      const result = queue.push(tenant, () =>
        inspect(message, channel, urls, responder).then(
          (outcome) => observe(message, outcome),
          (error: unknown) => {
            logger.error({ err: error, platform: message.platform, workspace: message.workspaceId }, 'guard failed');
            observe(message, 'failed');
          },
        ),
      );
      if (result === 'dropped') observe(message, 'dropped');
      if (result === 'dropped') {
        const dropped = queue.stats(tenant).dropped;
        // One line per hundred dropped messages: a flood must not flood the log too.
        if (dropped % 100 === 1)
          logger.warn({ platform: message.platform, workspace: message.workspaceId, dropped }, 'guard queue full: messages not checked');
      }
      return result;
    },

    async status(ref: ChannelRef) {
      return { channel: await store.channel(ref), allowed: await store.allowedHosts(ref.platform, ref.workspaceId) };
    },

    async enable(ref: ChannelRef, settings: { mode?: 'warn' | 'hide'; locale: GuardLocale }, by: Attribution): Promise<void> {
      await changeChannel(ref, by, 'on', async (tx) => {
        await store.enable(ref, { ...settings, by: by.actor.id }, tx);
        return true;
      });
    },

    async setMode(ref: ChannelRef, mode: 'warn' | 'hide', by: Attribution): Promise<boolean> {
      return changeChannel(ref, by, `mode ${mode}`, (tx) => store.setMode(ref, mode, tx));
    },

    /** `/guard messages on|off`; false when the channel is not guarded. */
    async setMessages(ref: ChannelRef, on: boolean, by: Attribution): Promise<boolean> {
      return changeChannel(ref, by, `messages ${on ? 'on' : 'off'}`, (tx) => store.setMessages(ref, on, tx));
    },

    async disable(ref: ChannelRef, by: Attribution): Promise<boolean> {
      return changeChannel(ref, by, 'off', (tx) => store.disable(ref, tx));
    },

    async allow(platform: BotPlatform, workspaceId: string, host: string, by: string): Promise<boolean> {
      const added = await store.allow(platform, workspaceId, host, by);
      allowLists.delete(workspaceKey(platform, workspaceId));
      return added;
    },

    recentIn: store.recentIn.bind(store),
    recentFor: store.recentFor.bind(store),
    purge: store.purge.bind(store),
    /** Resolves when every queued message has been checked (tests, shutdown). */
    idle: () => queue.idle(),
    queueStats: (platform: BotPlatform, workspaceId: string) => queue.stats(workspaceKey(platform, workspaceId)),
    /** Messages running and waiting over all workspaces (the metrics' queue depth). */
    queueDepth: () => queue.depth(),
  };
}

export type LinkGuard = ReturnType<typeof createLinkGuard>;
