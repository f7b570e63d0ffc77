import type { AuditLog } from '../../platform/audit-log.js';
import type { OperationObserver } from '../../platform/metric-definitions.js';
import type { Database } from '../../../db/client.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { Quota } from '../../platform/quota.js';
import type { BotPlatform, WorkspaceLinks } from '../../platform/workspace-links.js';
import type { UrlSafetyChecker, UrlVerdict } from '../url-detect/checker.js';
import type { MessageJudge } from '../url-scan/message-judge.js';
import type { ChannelRef, GuardAction, GuardedChannel } from './guard-store.js';
import type { ScamFinding } from './message-warning.js';
import type { TenantQueueOptions } from './tenant-queue.js';

/* The link guard's declared interfaces: what the doors hand in and what they do for it. */

/** A message seen in a channel: its link-bearing texts and its own text, never stored or logged. */
export interface GuardedMessage extends ChannelRef {
  /** A Discord thread's parent channel: a thread of a guarded channel is guarded too. */
  parentChannelId?: string;
  messageId: string;
  posterId: string;
  /** The message's texts (text, link labels, attachments, blocks, unfurls, embeds). */
  parts: string[];
  /** The message's own text as its reader sees it: judged as a message when the channel has `/guard messages on`. */
  text?: string;
}

/** A harmful link, as a warning may show it: never the URL itself (no clickable copy). */
export interface Finding {
  host: string;
  /** Where a short link led, when it led elsewhere. */
  finalHost?: string;
  category: UrlVerdict['category'];
  reason: string;
}

export interface GuardWarning {
  channel: GuardedChannel;
  /** Harmful links (may be empty when the message itself was judged a scam). */
  findings: Finding[];
  /** With `/guard messages on`: the message judged a scam at the firm level. */
  scam?: ScamFinding;
}

/** What a door does for the guard: post into the channel (and hide, where it can). */
export interface GuardResponder {
  /** Warns in the message's thread / as a reply; hides it when the mode is `hide` and it can. */
  warn(message: GuardedMessage, warning: GuardWarning): Promise<GuardAction>;
  /** The one notice, in the guarded channel, that the linked account's `harmful-url-detection` calls are used up (or not subscribed). */
  quotaNotice(message: GuardedMessage, channel: GuardedChannel, why: 'quota' | 'subscription'): Promise<void>;
}

export type Submitted = 'not_guarded' | 'no_links' | 'queued' | 'dropped';

export interface LinkGuardDeps {
  db: Database;
  clock: Clock;
  logger: Logger;
  quota: Quota;
  checker: UrlSafetyChecker;
  workspaceLinks: Pick<WorkspaceLinks, 'accountFor'>;
  /** Where a change of a channel's guard is recorded (`guard.changed`), in the change's transaction. */
  audit: Pick<AuditLog, 'record'>;
  /** Judges a message's text with its links' verdicts (channels with `/guard messages on`). */
  messageJudge: MessageJudge;
  queue?: Partial<TenantQueueOptions>;
  /** Told how each submitted message ended (tests wait on it instead of sleeping). */
  observe?: (event: GuardOutcome) => void;
  /** Counts each charged check by operation and outcome (the runtime's metrics). */
  observeOperation?: OperationObserver;
}

/** How the guard's look at one message ended. */
export interface GuardOutcome {
  platform: BotPlatform;
  workspaceId: string;
  messageId: string;
  outcome: Submitted | 'unlinked' | 'clean' | 'warned' | 'quota_stopped' | 'failed';
}
