import type { REST } from '@discordjs/rest';
import type { Config } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
import type { LinkGuard } from '../../src/operations/link-guard/link-guard.js';
import { createDiscordGuard } from './guard-gateway.js';
import type { InteractionHandler } from './interactions.js';
import type { DiscordInteraction } from './payload.js';

/**
 * Optional gateway client (`DISCORD_GATEWAY=1`) for deployments without a public URL: Discord
 * sends interactions over the gateway only when no Interactions Endpoint URL is set. The raw
 * payload goes through the same handler as HTTP; the answer is posted to the callback route.
 */
export async function startDiscordGateway(
  config: Pick<Config, 'DISCORD_API_URL' | 'DISCORD_BOT_TOKEN'>,
  rootLogger: Logger,
  handle: InteractionHandler,
  rest: REST,
  guard?: LinkGuard,
): Promise<{ stop(): Promise<void> }> {
  const logger = rootLogger.child({ door: 'discord-gateway' });
  const { Client, GatewayIntentBits, Events } = await import('discord.js');
  // The link guard reads guild messages: the Message Content intent (privileged: enabled in the Developer Portal).
  const guardIntents = guard ? [GatewayIntentBits.GuildMessages, GatewayIntentBits.MessageContent] : [];
  const guarding = guard ? createDiscordGuard(guard, rest, logger) : undefined;
  const connect = async (intents: number[]) => {
    const client = new Client({ intents: [GatewayIntentBits.Guilds, ...intents], rest: { api: config.DISCORD_API_URL } });
    client.on(Events.Raw, onPacket);
    try {
      await client.login(config.DISCORD_BOT_TOKEN);
      return client;
    } catch (error) {
      await client.destroy();
      throw error;
    }
  };
  const onPacket = (packet: { t?: string; d?: unknown }) => {
    guarding?.handle(packet);
    if (packet.t !== 'INTERACTION_CREATE') return;
    const interaction = packet.d as DiscordInteraction;
    void (async () => {
      const answer = await handle(interaction);
      await rest.post(`/interactions/${interaction.id}/${interaction.token}/callback`, { body: answer.body, auth: false });
      await answer.followUp?.();
    })().catch((error: unknown) => logger.error({ err: error, requestId: interaction.id }, 'gateway interaction failed'));
  };
  let client: Awaited<ReturnType<typeof connect>>;
  try {
    client = await connect(guardIntents);
  } catch (error) {
    // Without the Message Content intent Discord closes with 4014: keep the interactions, say what the guard needs.
    if (guardIntents.length === 0 || !/disallowed intents|4014/i.test(String((error as Error)?.message ?? error))) throw error;
    logger.warn('link guard (Discord) off: the Message Content intent is not enabled for this application in the Developer Portal');
    client = await connect([]);
  }
  logger.info({ guard: Boolean(guard) }, 'Discord gateway connected');
  return {
    async stop() {
      await client.destroy();
    },
  };
}
