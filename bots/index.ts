import type { Runtime } from '../src/runtime.js';
import type { RateLimitOptions } from './commands/rate-limit.js';
import { createCommandRunner } from './commands/runner.js';
import type { BotServices } from './commands/types.js';
import { discordDoorWanted, doorLogLines, slackDoorWanted } from './door-summary.js';
import { guardLogLines } from './guard-summary.js';
import type { BotDoor } from './door.js';

export type { BotDoor } from './door.js';

export interface BotOptions {
  rateLimit?: RateLimitOptions;
}

/** The parts of the runtime the commands may use. */
export function botServices(runtime: Runtime): BotServices {
  const { logger, operations, platform, watches } = runtime;
  return {
    logger,
    quota: platform.subscriptions,
    observeOperation: runtime.metrics.operation,
    operations,
    workspaceLinks: platform.workspaceLinks,
    apiKeys: platform.apiKeys,
    watches,
    extra: {
      businessStatus: runtime.business.status,
      shortenBulk: runtime.shortenBulk,
      linkOrigin: (accountId, codes, origin) => runtime.shortLinks.setOrigin(accountId, codes, origin),
      linkGuard: runtime.linkGuard,
      urlScan: runtime.urlScan,
    },
    knowledge: { feedback: runtime.knowledgeFeedback, settings: runtime.knowledgeSettings },
  };
}

/**
 * The chat doors over the runtime, one per configured platform (a missing one is logged, not
 * fatal). Bolt is loaded only for a configured Slack door, Discord's REST client only for a
 * configured Discord door: they were most of the bots' start-up cost.
 */
export async function createBotDoors(runtime: Runtime, options: BotOptions = {}): Promise<BotDoor[]> {
  // One line per platform: which doors are on and how, and what the others still need.
  for (const line of doorLogLines(runtime.config)) runtime.logger[line.level]({ platform: line.platform }, line.message);
  for (const line of guardLogLines(runtime.config))
    runtime.logger[line.level]({ platform: line.platform, part: 'link-guard' }, line.message);
  const runner = createCommandRunner(botServices(runtime), { rateLimit: options.rateLimit });
  const replays = runtime.platform.replayGuard;
  // A platform's modules (Bolt; Discord's REST client) are loaded only when its door is configured.
  const createSlackDoor = slackDoorWanted(runtime.config) ? (await import('./slack/slack-bot.js')).createSlackDoor : undefined;
  const createDiscordDoor = discordDoorWanted(runtime.config) ? (await import('./discord/discord-door.js')).createDiscordDoor : undefined;
  const doors = [
    createSlackDoor?.(runtime.config, runtime.logger, runner, replays, runtime.platform.botEvents, runtime.linkGuard),
    createDiscordDoor?.(runtime.config, runtime.logger, runner, replays, runtime.linkGuard),
  ];
  return doors.filter((door): door is BotDoor => door !== undefined);
}

/** Connects every door's outbound side; one failing platform leaves the others up. */
export async function startBotDoors(doors: BotDoor[], logger: Runtime['logger']): Promise<void> {
  const results = await Promise.allSettled(doors.map((door) => door.start()));
  results.forEach((result, i) => {
    if (result.status === 'rejected') logger.error({ err: result.reason, platform: doors[i]!.platform }, 'bot connection failed to start');
  });
}

export async function stopBotDoors(doors: BotDoor[]): Promise<void> {
  await Promise.allSettled(doors.map((door) => door.stop()));
}
