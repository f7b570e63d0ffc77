import { randomUUID } from 'node:crypto';
import type { App, RespondArguments } from '@slack/bolt';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../src/logger.js';
import { MESSAGE_ACTIONS } from '../commands/message-actions.js';
import { COMMANDS } from '../commands/registry.js';
import type { CommandRunner } from '../commands/runner.js';
import { TEXTS } from '../commands/texts.js';
import type { Reply } from '../commands/types.js';
import { slackImage, type SlackFile } from './files.js';
import { parseSlackText } from './parse-text.js';
import { toSlackMessage } from './render.js';
import type { SlackUsers } from './users.js';

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
 * commands, message shortcuts, images sent to the bot in a DM), after dropping Slack's
 * retries of an event already seen.
 */
export function registerSlackListeners(app: App, deps: SlackListenerDeps): void {
  const { runner, users, logger } = deps;
  const image = (file: SlackFile) => slackImage(file, deps.botToken, deps.apiUrl);

  // Slack retries an event it thinks was not received (x-slack-retry-num); each event id runs once.
  const seenEvents = new LRUCache<string, true>({ max: 20_000, ttl: 60 * 60_000 });
  app.use(async ({ body, context, next }) => {
    const eventId = (body as { event_id?: unknown }).event_id;
    if (typeof eventId === 'string') {
      if (seenEvents.has(eventId)) {
        logger.info({ eventId, retryNum: context.retryNum, retryReason: context.retryReason }, 'slack retry skipped');
        return;
      }
      seenEvents.set(eventId, true);
    }
    await next();
  });

  for (const command of COMMANDS) {
    app.command(`/${command.name}`, async ({ command: payload, ack, respond, client }) => {
      await ack(command.slow ? { response_type: 'ephemeral', text: TEXTS.processing.ko } : undefined);
      const raw = parseSlackText(command, payload.text ?? '');
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
      const message = shortcut.message as { text?: string; files?: SlackFile[] };
      const who = await users.invocation(
        client,
        { teamId: shortcut.team?.id, channelId: shortcut.channel?.id },
        shortcut.user.id,
        shortcut.trigger_id,
      );
      const file = message.files?.find((candidate) => candidate.mimetype?.startsWith('image/'));
      const reply = await runner.runAction(who, action.id, { text: message.text ?? '', image: file ? image(file) : undefined });
      await respond(respondWith(reply)).catch((error: unknown) => logger.warn({ err: error, action: action.id }, 'respond failed'));
    });
  }

  // An image sent to the bot in a direct message is read as `/idcard`; the answer stays in the DM.
  app.event('message', async ({ event, body, client }) => {
    const message = event as { channel_type?: string; channel: string; user?: string; bot_id?: string; files?: SlackFile[]; team?: string };
    if (message.channel_type !== 'im' || message.bot_id || !message.user) return;
    const file = message.files?.find((candidate) => candidate.mimetype?.startsWith('image/'));
    if (!file) return;
    const teamId = message.team ?? (body as { team_id?: string }).team_id;
    const who = await users.invocation(
      client,
      { teamId, channelId: message.channel },
      message.user,
      (body as { event_id?: string }).event_id ?? randomUUID(),
    );
    const reply = await runner.run(who, 'idcard', {}, image(file));
    await client.chat
      .postMessage({ channel: message.channel, ...toSlackMessage(reply) })
      .catch((error: unknown) => logger.warn({ err: error }, 'DM answer failed'));
  });

  app.error(async (error) => {
    logger.error({ err: error }, 'slack listener failed');
  });
}
