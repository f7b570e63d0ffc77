import type { Router } from 'express';
import type { Runtime } from '../src/runtime.js';
import type { RateLimitOptions } from './commands/rate-limit.js';
import { createCommandRunner } from './commands/runner.js';
import { startDiscordGateway } from './discord/gateway.js';
import { createDiscordRest, createInteractionHandler, discordInteractionsRouter } from './discord/interactions.js';
import { createSlackBot } from './slack/slack-bot.js';

export interface Bots {
  /** Routers for `POST /slack/events` and `POST /discord/interactions`; they read the raw body themselves. */
  routers: Router[];
  /** Socket Mode and the Discord gateway, when configured. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface BotOptions {
  rateLimit?: RateLimitOptions;
}

const perRuntime = new WeakMap<Runtime, Bots>();

/** The bot doors of a runtime, built once: the HTTP app mounts their routers, the server starts and stops them. */
export function botsFor(runtime: Runtime): Bots {
  let bots = perRuntime.get(runtime);
  if (!bots) perRuntime.set(runtime, (bots = createBots(runtime)));
  return bots;
}

/** The bot doors over the runtime: whichever platforms are configured (a missing one is logged, not fatal). */
export function createBots(runtime: Runtime, options: BotOptions = {}): Bots {
  const { config, logger } = runtime;
  const runner = createCommandRunner(runtime, { rateLimit: options.rateLimit });
  const routers: Router[] = [];
  const slack = createSlackBot(runtime, runner);
  if (slack?.router) routers.push(slack.router);

  const discordConfigured = Boolean(config.DISCORD_APPLICATION_ID && config.DISCORD_PUBLIC_KEY);
  const discord = discordConfigured || config.DISCORD_GATEWAY ? createDiscordRest(runtime) : undefined;
  const handle = discord ? createInteractionHandler(runtime, runner, discord) : undefined;
  if (discordConfigured && handle) routers.push(discordInteractionsRouter(runtime, handle));
  else logger.info('Discord not configured (DISCORD_APPLICATION_ID / DISCORD_PUBLIC_KEY): POST /discord/interactions off');

  let gateway: { stop(): Promise<void> } | undefined;
  return {
    routers,
    async start() {
      await slack?.start();
      if (config.DISCORD_GATEWAY) {
        if (!config.DISCORD_BOT_TOKEN) logger.warn('DISCORD_GATEWAY=1 needs DISCORD_BOT_TOKEN: gateway off');
        else if (discord && handle) gateway = await startDiscordGateway(runtime, handle, discord);
      }
    },
    async stop() {
      await Promise.allSettled([slack?.stop(), gateway?.stop()]);
    },
  };
}
