import { randomUUID } from 'node:crypto';
import { App, ExpressReceiver, LogLevel, webApi, type Logger as BoltLogger, type RespondArguments } from '@slack/bolt';
import { Router } from 'express';
import { LRUCache } from 'lru-cache';
import type { Logger } from '../../src/logger.js';
import type { Runtime } from '../../src/runtime.js';
import { MESSAGE_ACTIONS } from '../commands/message-actions.js';
import { COMMANDS } from '../commands/registry.js';
import type { CommandRunner } from '../commands/runner.js';
import { localeOf, TEXTS } from '../commands/texts.js';
import type { Invocation, Locale, Reply } from '../commands/types.js';
import { slackRequestGuard } from './verify.js';
import { slackImage, type SlackFile } from './files.js';
import { parseSlackText } from './parse-text.js';
import { toSlackMessage } from './render.js';

type BoltApp = App;

export interface SlackBot {
  /** HTTP mode: the router serving `POST /slack/events` (mounted before any body parser). */
  router?: Router;
  start(): Promise<void>;
  stop(): Promise<void>;
}

interface SlackUser {
  locale: Locale;
  admin: boolean;
}

/**
 * The Slack door (Bolt): slash commands, message shortcuts and images sent to the bot in a DM.
 * HTTP mode mounts Bolt's ExpressReceiver (signature and 5-minute timestamp checks, 401 on
 * failure); Socket Mode is used when `SLACK_APP_TOKEN` is set. Listeners only translate.
 */
export function createSlackBot(runtime: Runtime, runner: CommandRunner): SlackBot | undefined {
  const { config } = runtime;
  const logger = runtime.logger.child({ door: 'slack' });
  if (!config.SLACK_BOT_TOKEN || (!config.SLACK_SIGNING_SECRET && !config.SLACK_APP_TOKEN)) {
    logger.info('Slack not configured (SLACK_BOT_TOKEN with SLACK_SIGNING_SECRET or SLACK_APP_TOKEN): Slack bot off');
    return undefined;
  }
  const botToken = config.SLACK_BOT_TOKEN;
  // A command waits on users.info: a few quick retries, not the client's default half hour.
  const clientOptions = { slackApiUrl: config.SLACK_API_URL, timeout: 10_000, retryConfig: { retries: 2, minTimeout: 200, maxTimeout: 1000 } };
  const boltLog = boltLogger(logger);
  const authClient = new webApi.WebClient(botToken, { ...clientOptions, logger: boltLog });
  // Bolt's own single-token authorize caches a failed auth.test forever (one network blip at
  // start would disable the bot); this one caches only success.
  let identity: Promise<{ botId?: string; botUserId?: string }> | undefined;
  const authorize = async () => {
    identity ??= authClient.auth.test().then(
      (result) => ({ botId: result.bot_id, botUserId: result.user_id }),
      (error: unknown) => {
        identity = undefined;
        throw error;
      },
    );
    return { botToken, ...(await identity) };
  };
  const common = { authorize, logger: boltLog, clientOptions };
  let router: Router | undefined;
  let app: BoltApp;
  if (config.SLACK_APP_TOKEN) {
    app = new App({ ...common, appToken: config.SLACK_APP_TOKEN, socketMode: true });
  } else {
    router = Router();
    // Registered before Bolt's own route: signature both ways in time, and no replays.
    router.post('/slack/events', ...slackRequestGuard(config.SLACK_SIGNING_SECRET!, runtime.platform.replayGuard));
    const receiver = new ExpressReceiver({ signingSecret: config.SLACK_SIGNING_SECRET!, endpoints: '/slack/events', router, logger: common.logger });
    app = new App({ ...common, receiver });
  }

  const users = new LRUCache<string, SlackUser>({ max: 10_000, ttl: 10 * 60_000 });
  async function userInfo(client: BoltApp['client'], userId: string): Promise<SlackUser> {
    const cached = users.get(userId);
    if (cached) return cached;
    try {
      const { user } = await client.users.info({ user: userId, include_locale: true });
      const info = { locale: localeOf(user?.locale), admin: Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner) };
      users.set(userId, info);
      return info;
    } catch (error) {
      logger.warn({ err: error }, 'users.info failed: answering in Korean, no admin rights');
      return { locale: 'ko', admin: false };
    }
  }

  async function invocation(
    client: BoltApp['client'],
    where: { teamId: string | undefined; channelId: string | undefined },
    userId: string,
    requestId: string,
  ): Promise<Invocation> {
    const user = await userInfo(client, userId);
    return {
      platform: 'slack',
      workspaceId: where.teamId,
      channelId: where.channelId,
      userId,
      locale: user.locale,
      requestId,
      // Asked again at link time, not cached: a demoted admin must not link.
      canManage: async () => {
        users.delete(userId);
        return (await userInfo(client, userId)).admin;
      },
    };
  }

  /** `acked`: a "처리 중…" acknowledgement is showing; an ephemeral answer replaces it, a public one is a new message. */
  const respondWith = (reply: Reply, acked = false): RespondArguments => ({
    ...toSlackMessage(reply),
    response_type: reply.public ? 'in_channel' : 'ephemeral',
    ...(acked && !reply.public ? { replace_original: true } : {}),
  });

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
      const who = await invocation(client, { teamId: payload.team_id, channelId: payload.channel_id }, payload.user_id, payload.trigger_id || randomUUID());
      const reply = await runner.run(who, command.name, raw);
      await respond(respondWith(reply, command.slow)).catch((error: unknown) => logger.warn({ err: error, command: command.name }, 'respond failed'));
    });
  }

  for (const action of MESSAGE_ACTIONS) {
    app.shortcut({ type: 'message_action', callback_id: action.id }, async ({ shortcut, ack, respond, client }) => {
      await ack();
      if (shortcut.type !== 'message_action') return;
      const message = shortcut.message as { text?: string; files?: SlackFile[] };
      const who = await invocation(client, { teamId: shortcut.team?.id, channelId: shortcut.channel?.id }, shortcut.user.id, shortcut.trigger_id);
      const file = message.files?.find((candidate) => candidate.mimetype?.startsWith('image/'));
      const reply = await runner.runAction(who, action.id, {
        text: message.text ?? '',
        image: file ? slackImage(file, botToken, config.SLACK_API_URL) : undefined,
      });
      await respond(respondWith({ ...reply, public: false })).catch((error: unknown) => logger.warn({ err: error, action: action.id }, 'respond failed'));
    });
  }

  // An image sent to the bot in a direct message is read as `/idcard`; the answer stays in the DM.
  app.event('message', async ({ event, body, client }) => {
    const message = event as { channel_type?: string; channel: string; user?: string; bot_id?: string; files?: SlackFile[]; team?: string };
    if (message.channel_type !== 'im' || message.bot_id || !message.user) return;
    const file = message.files?.find((candidate) => candidate.mimetype?.startsWith('image/'));
    if (!file) return;
    const teamId = message.team ?? (body as { team_id?: string }).team_id;
    const who = await invocation(client, { teamId, channelId: message.channel }, message.user, (body as { event_id?: string }).event_id ?? randomUUID());
    const reply = await runner.run(who, 'idcard', {}, slackImage(file, botToken, config.SLACK_API_URL));
    await client.chat.postMessage({ channel: message.channel, ...toSlackMessage(reply) }).catch((error: unknown) => logger.warn({ err: error }, 'DM answer failed'));
  });

  app.error(async (error) => {
    logger.error({ err: error }, 'slack listener failed');
  });

  return {
    router,
    async start() {
      if (!config.SLACK_APP_TOKEN) return;
      await app.start();
      logger.info('Slack Socket Mode connected');
    },
    async stop() {
      if (config.SLACK_APP_TOKEN) await app.stop();
    },
  };
}

/** Bolt's log lines go to pino at warn and above (its debug output can quote payloads). */
function boltLogger(logger: Logger): BoltLogger {
  let level: LogLevel = LogLevel.WARN;
  return {
    debug: () => {},
    info: () => {},
    warn: (...messages: unknown[]) => logger.warn(messages.map(String).join(' ')),
    error: (...messages: unknown[]) => logger.error(messages.map(String).join(' ')),
    setLevel: (next) => void (level = next),
    getLevel: () => level,
    setName: () => {},
  };
}
