import { randomUUID } from 'node:crypto';
import type { App, RespondArguments } from '@slack/bolt';
import type { Logger } from '../../src/logger.js';
import { MESSAGE_ACTIONS } from '../commands/message-actions.js';
import { COMMANDS } from '../commands/registry.js';
import type { CommandRunner } from '../commands/runner.js';
import { TEXTS, translateText } from '../commands/texts.js';
import type { Invocation, Reply } from '../commands/types.js';
import { isReadableDocument, resolveSlackFile, slackImage, type SlackFile } from './files.js';
import { decodeSlackText, slackMessageUrls } from './mrkdwn.js';
import { parseSlackText } from './parse-text.js';
import { FEEDBACK_DOWN, FEEDBACK_UP, toSlackMessage } from './render.js';
import { MAX_THREAD_MESSAGES, type ThreadSource } from '../commands/save-thread.js';
import type { SlackUsers } from './users.js';

type SlackClient = App['client'];

interface DirectMessage {
  channel_type?: string;
  channel: string;
  subtype?: string;
  user?: string;
  bot_id?: string;
  files?: SlackFile[];
  team?: string;
  text?: string;
  attachments?: unknown;
  blocks?: unknown;
}

export interface SlackListenerDeps {
  runner: CommandRunner;
  users: SlackUsers;
  logger: Logger;
  /** Downloads of files shared with the bot use the bot token. */
  botToken: string;
  apiUrl: string;
}

/** `acked`: a "처리 중…" acknowledgement is showing; a private answer replaces it, a public one is a new message. */
function respondWith(reply: Reply, acked = false): RespondArguments {
  return {
    ...toSlackMessage(reply),
    response_type: reply.public ? 'in_channel' : 'ephemeral',
    ...(acked && !reply.public ? { replace_original: true } : {}),
  };
}

/**
 * The Slack listeners: they only translate between Bolt and the command runner (slash
 * commands, message shortcuts, images sent to the bot in a DM). Slack's retries of an event
 * already handled never reach them (events-once.ts).
 */
export function registerSlackListeners(app: App, deps: SlackListenerDeps): void {
  const { runner, users, logger } = deps;
  const image = (file: SlackFile) => slackImage(file, deps.botToken, deps.apiUrl);

  for (const command of COMMANDS) {
    app.command(`/${command.name}`, async ({ command: payload, ack, respond, client }) => {
      await ack(command.slow ? { response_type: 'ephemeral', text: TEXTS.processing.ko } : undefined);
      // Slack's escaping (`&amp;`, `<https://…|…>`, mentions) is decoded once, here.
      // A command's link is its argument: the URL, whatever label Slack shows.
      const raw = parseSlackText(command, decodeSlackText(payload.text ?? '', 'url'));
      const who = await users.invocation(
        client,
        { teamId: payload.team_id, channelId: payload.channel_id },
        payload.user_id,
        payload.trigger_id || randomUUID(),
      );
      const reply = await runner.run(who, command.name, raw);
      await respond(respondWith(reply, command.slow)).catch((error: unknown) =>
        logger.warn({ err: error, command: command.name }, 'respond failed'),
      );
    });
  }

  for (const action of MESSAGE_ACTIONS) {
    app.shortcut({ type: 'message_action', callback_id: action.id }, async ({ shortcut, ack, respond, client }) => {
      await ack();
      if (shortcut.type !== 'message_action') return;
      const message = shortcut.message as {
        text?: string;
        files?: SlackFile[];
        attachments?: unknown;
        blocks?: unknown;
        ts?: string;
        thread_ts?: string;
      };
      const who = await users.invocation(
        client,
        { teamId: shortcut.team?.id, channelId: shortcut.channel?.id },
        shortcut.user.id,
        shortcut.trigger_id,
      );
      const file = action.id === 'save_knowledge' ? undefined : await firstDocument(client, message.files);
      const channel = shortcut.channel?.id;
      const root = message.thread_ts ?? message.ts ?? shortcut.message_ts;
      const reply = await runner.runAction(who, action.id, {
        text: decodeSlackText(message.text ?? ''),
        // A bot's message often carries its links only in attachments and blocks.
        urls: slackMessageUrls(message),
        image: file ? image(file) : undefined,
        thread: channel && root ? slackThread(client, channel, root) : undefined,
      });
      await respond(respondWith(reply)).catch((error: unknown) => logger.warn({ err: error, action: action.id }, 'respond failed'));
    });
  }

  // 👍/👎 under a knowledge answer: a 👎 keeps the question (the button's value) and nothing else.
  for (const [actionId, vote] of [
    [FEEDBACK_UP, 'up'],
    [FEEDBACK_DOWN, 'down'],
  ] as const) {
    app.action(actionId, async ({ ack, body, action, respond, client }) => {
      await ack();
      if (body.type !== 'block_actions' || action.type !== 'button') return;
      const who = await users.invocation(
        client,
        { teamId: body.team?.id ?? body.user.team_id, channelId: body.channel?.id },
        body.user.id,
        body.trigger_id || randomUUID(),
      );
      const reply = await runner.runFeedback(who, vote, action.value ?? '');
      await respond({ ...toSlackMessage(reply), response_type: 'ephemeral', replace_original: false }).catch((error: unknown) =>
        logger.warn({ err: error }, 'respond failed'),
      );
    });
  }

  // A question asked by mentioning the bot is answered in that message's thread, the passage quoted.
  app.event('app_mention', async ({ event, body, client }) => {
    const mention = event as {
      text?: string;
      user?: string;
      bot_id?: string;
      channel: string;
      ts: string;
      thread_ts?: string;
      team?: string;
    };
    if (!mention.user || mention.bot_id) return;
    const question = decodeSlackText((mention.text ?? '').replace(/<@[UW][A-Z0-9]+(?:\|[^>]*)?>/g, ' ')).trim();
    if (!question) return;
    const teamId = mention.team ?? (body as { team_id?: string }).team_id;
    const who = await users.invocation(
      client,
      { teamId, channelId: mention.channel },
      mention.user,
      (body as { event_id?: string }).event_id ?? randomUUID(),
    );
    const reply = await runner.run(who, 'ask', { question });
    await client.chat
      .postMessage({ channel: mention.channel, thread_ts: mention.thread_ts ?? mention.ts, ...toSlackMessage(reply) })
      .catch((error: unknown) => logger.warn({ err: error }, 'thread answer failed'));
  });

  /** A thread read with `conversations.replies` (its first page: the root and up to 199 replies) and its permalink. */
  function slackThread(client: SlackClient, channel: string, ts: string): ThreadSource {
    return {
      async load() {
        const result = await client.conversations.replies({ channel, ts, limit: MAX_THREAD_MESSAGES });
        // Joins, leaves and other system lines (a subtype other than a bot's or a broadcast reply) are not knowledge.
        const kept = new Set([undefined, 'bot_message', 'thread_broadcast', 'file_share']);
        return ((result.messages ?? []) as Array<{ user?: string; bot_id?: string; text?: string; subtype?: string }>)
          .filter((message) => kept.has(message.subtype))
          .map((message) => ({ author: message.user, bot: Boolean(message.bot_id) || !message.user, text: message.text ?? '' }));
      },
      mentions: /<@([UW][A-Z0-9]+)(?:\|[^>]*)?>/g,
      decode: (text) => decodeSlackText(text),
      async link() {
        const result = await client.chat.getPermalink({ channel, message_ts: ts });
        return result.permalink;
      },
    };
  }

  // Every direct message is answered: an image or PDF is read as `/idcard`, and an image that is
  // no ID document is checked as "스미싱 검사" (an SMS screenshot or a QR code); another file is refused with what the
  // bot can read; a text is checked as a message (with what else the bot can do when it is clean). The answer stays in the DM.
  app.event('message', async ({ event, body, client }) => {
    const message = event as DirectMessage;
    if (message.channel_type !== 'im' || message.bot_id || !message.user) return;
    if (message.subtype && message.subtype !== 'file_share' && message.subtype !== 'thread_broadcast') return;
    const teamId = message.team ?? (body as { team_id?: string }).team_id;
    const who = await users.invocation(
      client,
      { teamId, channelId: message.channel },
      message.user,
      (body as { event_id?: string }).event_id ?? randomUUID(),
    );
    const reply = await answerDirectMessage(client, message, who);
    await client.chat
      .postMessage({ channel: message.channel, ...toSlackMessage(reply) })
      .catch((error: unknown) => logger.warn({ err: error }, 'DM answer failed'));
  });

  async function answerDirectMessage(client: SlackClient, message: DirectMessage, who: Invocation): Promise<Reply> {
    const files = message.files ?? [];
    const file = await firstDocument(client, files).catch((error: unknown) => {
      logger.warn({ err: error }, 'files.info failed');
      return undefined;
    });
    if (file?.mimetype === 'application/pdf') return runner.run(who, 'idcard', {}, image(file));
    if (file)
      return runner.runAction(who, 'smishing_check', { text: decodeSlackText(message.text ?? ''), image: image(file), idFirst: true });
    if (files.length > 0) {
      const type = files[0]?.mimetype ?? files[0]?.filetype ?? '?';
      return {
        title: translateText(who.locale, TEXTS.dmHelpTitle),
        text: translateText(who.locale, TEXTS.unsupportedFile, { type }),
        tone: 'info',
      };
    }
    const links = slackMessageUrls(message);
    const text = decodeSlackText(message.text ?? '');
    // A pasted message is judged as a message, link or not (issue 50); a clean one also gets what the bot can do.
    if (links.length > 0 || text.trim()) return runner.runAction(who, 'smishing_check', { text, urls: links, withHelp: true });
    return { title: translateText(who.locale, TEXTS.dmHelpTitle), text: translateText(who.locale, TEXTS.dmHelp), tone: 'info' };
  }

  /** The first image or PDF of a message, Slack Connect files looked up with `files.info`. */
  async function firstDocument(client: SlackClient, files: SlackFile[] | undefined): Promise<SlackFile | undefined> {
    for (const candidate of files ?? []) {
      const file = await resolveSlackFile(candidate, (id) => client.files.info({ file: id }));
      if (isReadableDocument(file)) return file;
    }
    return undefined;
  }

  app.error(async (error) => {
    logger.error({ err: error }, 'slack listener failed');
  });
}
