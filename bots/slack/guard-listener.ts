import type { App } from '@slack/bolt';
import type { Logger } from '../../src/logger.js';
import { messageParts } from '../../src/operations/url-scan/message-parts.js';
import type { GuardedMessage, GuardResponder, LinkGuard } from '../../src/operations/link-guard/link-guard.js';
import { guardWarning, quotaNotice } from '../commands/guard-warning.js';
import { decodeSlackText } from './mrkdwn.js';
import { toSlackMessage } from './render.js';

interface ChannelMessage {
  type?: string;
  subtype?: string;
  channel?: string;
  channel_type?: string;
  user?: string;
  bot_id?: string;
  ts?: string;
  thread_ts?: string;
  team?: string;
  text?: string;
  attachments?: unknown;
  blocks?: unknown;
  files?: unknown;
  /** `message_changed`: the message after the edit (an unfurl added, a text edited). */
  message?: ChannelMessage;
}

interface LinkShared {
  channel?: string;
  user?: string;
  message_ts?: string;
  thread_ts?: string;
  links?: Array<{ url?: string; domain?: string }>;
}

/** Subtypes that carry a person's (or another bot's) content; joins, topics, deletions do not. */
const CONTENT_SUBTYPES = new Set([undefined, 'file_share', 'thread_broadcast', 'bot_message', 'me_message', 'message_changed']);

/**
 * The link guard's Slack side: `message` events of public and private channels
 * (`message.channels`, `message.groups`) and `link_shared` go to the guard; only a harmful link
 * (or, with `/guard messages on`, a message judged a scam at the firm level) gets an answer, in
 * the message's thread. No user token is needed: a bot cannot delete other
 * people's messages, so Slack warns only. Message texts are handed over, never logged.
 */
export function registerSlackGuard(app: App, guard: LinkGuard, logger: Logger): void {
  const responder = (client: App['client']): GuardResponder => ({
    async warn(message, warning) {
      await client.chat.postMessage({
        channel: message.channelId,
        thread_ts: threadOf(message),
        ...toSlackMessage(guardWarning(warning.channel, warning.findings, 'warn', warning.scam)),
        unfurl_links: false,
        unfurl_media: false,
      });
      return 'warned';
    },
    async quotaNotice(_message, channel, why) {
      await client.chat.postMessage({ channel: channel.channelId, ...toSlackMessage(quotaNotice(channel, why)), unfurl_links: false });
    },
  });

  const submit = (message: GuardedMessage, client: App['client']) =>
    guard.submit(message, responder(client)).catch((error: unknown) => logger.warn({ err: error }, 'guard submit failed'));

  app.event('message', async ({ event, body, client, context }) => {
    const outer = event as ChannelMessage;
    if (outer.channel_type !== 'channel' && outer.channel_type !== 'group') return;
    if (!CONTENT_SUBTYPES.has(outer.subtype)) return;
    const message = outer.subtype === 'message_changed' ? outer.message : outer;
    // The workspace the app is installed in (the envelope's), not a Slack Connect poster's own team.
    const teamId = (body as { team_id?: string }).team_id ?? outer.team;
    if (!message?.ts || !outer.channel || !teamId) return;
    // The bot's own warnings are never checked again.
    if ((message.bot_id && message.bot_id === context.botId) || (message.user && message.user === context.botUserId)) return;
    await submit(
      {
        platform: 'slack',
        workspaceId: teamId,
        channelId: outer.channel,
        messageId: message.thread_ts && message.thread_ts !== message.ts ? `${message.ts}@${message.thread_ts}` : message.ts,
        posterId: message.user ?? message.bot_id ?? 'unknown',
        parts: slackParts(message),
        // Judged as a message with `/guard messages on`: the text as the reader sees it, links as their URLs.
        text: decodeSlackText(message.text ?? '', 'url'),
      },
      client,
    );
  });

  // Links of registered unfurl domains: the same message is usually seen by `message` too; the
  // guard warns about a host once per message and the cache makes the second look free.
  app.event('link_shared', async ({ event, body, client }) => {
    const shared = event as LinkShared;
    const teamId = (body as { team_id?: string }).team_id;
    if (!shared.channel || !shared.message_ts || !teamId || !/^\d+\.\d+$/.test(shared.message_ts)) return;
    await submit(
      {
        platform: 'slack',
        workspaceId: teamId,
        channelId: shared.channel,
        messageId:
          shared.thread_ts && shared.thread_ts !== shared.message_ts ? `${shared.message_ts}@${shared.thread_ts}` : shared.message_ts,
        posterId: shared.user ?? 'unknown',
        parts: (shared.links ?? []).flatMap((link) => (link.url ? [link.url] : [])),
      },
      client,
    );
  });
}

/**
 * A Slack message's texts as Slack sends them: the extractor reads the `<url|label>` markup and
 * its escapes itself (decoding first would glue `_italic_` marks onto links), plus attachments,
 * blocks and unfurls. Pictures (`image_url`, `thumb_url`) are not links a person follows.
 */
function slackParts(message: ChannelMessage): string[] {
  return [message.text ?? '', ...messageParts({ attachments: message.attachments, blocks: message.blocks }, { images: false })];
}

/** The thread a warning goes to: the message's own thread, or a new one under it. */
function threadOf(message: GuardedMessage): string {
  const [ts, thread] = message.messageId.split('@');
  return thread ?? ts!;
}
