import { App, ExpressReceiver, LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import { Router } from 'express';
import type { Config } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import type { BotEventClaims } from '../../src/platform/bot-event-store.js';
import type { ReplayGuard } from '../../src/platform/replay-store.js';
import type { CommandRunner } from '../commands/runner.js';
import type { BotDoor } from '../door.js';
import { slackDoorWanted } from '../door-summary.js';
import { createSlackClient, slackClientOptions } from './client.js';
import { registerSlackListeners } from './listeners.js';
import { registerSlackGuard } from './guard-listener.js';
import { onceEachEvent } from './events-once.js';
import type { LinkGuard } from '../../src/operations/link-guard/link-guard.js';
import { createSlackUsers } from './users.js';
import { slackRequestGuard } from './verify.js';

/**
 * The Slack door (Bolt). HTTP mode mounts Bolt's ExpressReceiver (signature and 5-minute
 * timestamp checks, 401 on failure); Socket Mode is used when `SLACK_APP_TOKEN` is set.
 * Undefined when Slack is not configured.
 */
export function createSlackDoor(
  config: Config,
  rootLogger: Logger,
  runner: CommandRunner,
  replays: ReplayGuard,
  events: BotEventClaims,
  guard?: LinkGuard,
): BotDoor | undefined {
  const logger = rootLogger.child({ door: 'slack' });
  if (!slackDoorWanted(config)) return undefined;
  const botToken = config.SLACK_BOT_TOKEN!;
  const boltLog = boltLogger(logger);
  const common = {
    authorize: cachedAuthorize(createSlackClient(config, botToken, { logger: boltLog }), botToken),
    logger: boltLog,
    clientOptions: slackClientOptions(config),
  };
  let router: Router | undefined;
  let app: App;
  if (config.SLACK_APP_TOKEN) {
    app = new App({ ...common, appToken: config.SLACK_APP_TOKEN, socketMode: true });
  } else {
    router = Router();
    // Registered before Bolt's own route: signature both ways in time, and no replays.
    router.post('/slack/events', ...slackRequestGuard(config.SLACK_SIGNING_SECRET!, replays));
    const receiver = new ExpressReceiver({
      signingSecret: config.SLACK_SIGNING_SECRET!,
      endpoints: '/slack/events',
      router,
      logger: boltLog,
    });
    app = new App({ ...common, receiver });
  }
  // First: a retried event (same event_id) stops here, whichever instance handled it (issue 47).
  app.use(onceEachEvent(events, logger));
  registerSlackListeners(app, { runner, users: createSlackUsers(logger), logger, botToken, apiUrl: config.SLACK_API_URL });
  if (guard) registerSlackGuard(app, guard, logger);

  return {
    platform: 'slack',
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

/**
 * Bolt's own single-token authorize caches a failed auth.test forever (one network blip at
 * start would disable the bot); this one caches only success.
 */
function cachedAuthorize(client: ReturnType<typeof createSlackClient>, botToken: string) {
  let identity: Promise<{ botId?: string; botUserId?: string }> | undefined;
  return async () => {
    identity ??= client.auth.test().then(
      (result) => ({ botId: result.bot_id, botUserId: result.user_id }),
      (error: unknown) => {
        identity = undefined;
        throw error;
      },
    );
    return { botToken, ...(await identity) };
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
