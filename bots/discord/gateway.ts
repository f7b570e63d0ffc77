import type { REST } from '@discordjs/rest';
import type { Config } from '../../src/config.js';
import type { Logger } from '../../src/logger.js';
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
): Promise<{ stop(): Promise<void> }> {
  const logger = rootLogger.child({ door: 'discord-gateway' });
  const { Client, GatewayIntentBits, Events } = await import('discord.js');
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: config.DISCORD_API_URL } });
  client.on(Events.Raw, (packet: { t?: string; d?: unknown }) => {
    if (packet.t !== 'INTERACTION_CREATE') return;
    const interaction = packet.d as DiscordInteraction;
    void (async () => {
      const answer = await handle(interaction);
      await rest.post(`/interactions/${interaction.id}/${interaction.token}/callback`, { body: answer.body, auth: false });
      await answer.followUp?.();
    })().catch((error: unknown) => logger.error({ err: error, requestId: interaction.id }, 'gateway interaction failed'));
  });
  await client.login(config.DISCORD_BOT_TOKEN);
  logger.info('Discord gateway connected');
  return {
    async stop() {
      await client.destroy();
    },
  };
}
