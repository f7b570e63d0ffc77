import type { REST } from '@discordjs/rest';
import type { Runtime } from '../../src/runtime.js';
import type { DiscordInteraction, InteractionHandler } from './interactions.js';

/**
 * Optional gateway client (`DISCORD_GATEWAY=1`) for deployments without a public URL: Discord
 * sends interactions over the gateway only when no Interactions Endpoint URL is set. The raw
 * payload goes through the same handler as HTTP; the answer is posted to the callback route.
 */
export async function startDiscordGateway(runtime: Runtime, handle: InteractionHandler, rest: REST): Promise<{ stop(): Promise<void> }> {
  const logger = runtime.logger.child({ door: 'discord-gateway' });
  const { Client, GatewayIntentBits, Events } = await import('discord.js');
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: runtime.config.DISCORD_API_URL } });
  client.on(Events.Raw, (packet: { t?: string; d?: unknown }) => {
    if (packet.t !== 'INTERACTION_CREATE') return;
    const interaction = packet.d as DiscordInteraction;
    void (async () => {
      const answer = await handle(interaction);
      await rest.post(`/interactions/${interaction.id}/${interaction.token}/callback`, { body: answer.body, auth: false });
      await answer.followUp?.();
    })().catch((error: unknown) => logger.error({ err: error, requestId: interaction.id }, 'gateway interaction failed'));
  });
  await client.login(runtime.config.DISCORD_BOT_TOKEN);
  logger.info('Discord gateway connected');
  return {
    async stop() {
      await client.destroy();
    },
  };
}
