import type { Config } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import type { ReplayGuard } from '../../src/platform/replay-store.js';
import type { LinkGuard } from '../../src/operations/link-guard/link-guard.js';
import type { CommandRunner } from '../commands/runner.js';
import type { BotDoor } from '../door.js';
import { discordDoorWanted, discordHttpConfigured } from '../door-summary.js';
import { createDiscordRest } from './client.js';
import { startDiscordGateway } from './gateway.js';
import { discordInteractionsRouter } from './http-route.js';
import { createInteractionHandler } from './interactions.js';

/**
 * The Discord door: `POST /discord/interactions` when the application id and public key are
 * set, and the gateway client when `DISCORD_GATEWAY=1` (with a bot token). Undefined when
 * neither is configured.
 */
export function createDiscordDoor(
  config: Config,
  logger: Logger,
  runner: CommandRunner,
  replays: ReplayGuard,
  guard?: LinkGuard,
): BotDoor | undefined {
  if (!discordDoorWanted(config)) return undefined;
  const rest = createDiscordRest(config);
  const handle = createInteractionHandler(logger, runner, rest);
  let gateway: { stop(): Promise<void> } | undefined;
  return {
    platform: 'discord',
    router: discordHttpConfigured(config) ? discordInteractionsRouter(config.DISCORD_PUBLIC_KEY!, logger, handle, replays) : undefined,
    async start() {
      if (!config.DISCORD_GATEWAY) return;
      if (!config.DISCORD_BOT_TOKEN) logger.warn('DISCORD_GATEWAY=1 needs DISCORD_BOT_TOKEN: gateway off');
      else gateway = await startDiscordGateway(config, logger, handle, rest, guard);
    },
    async stop() {
      await gateway?.stop();
    },
  };
}
