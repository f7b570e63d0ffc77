import { REST } from '@discordjs/rest';
import type { Config } from '../../src/config.js';

/**
 * The one Discord REST client factory (interaction answers, the gateway's callbacks, command
 * registration and the watch notifier): `DISCORD_API_URL` (a fake in tests), API v10, 10 s
 * per request and one retry; the bot token when configured (interaction webhooks need none).
 */
export function createDiscordRest(config: Pick<Config, 'DISCORD_API_URL' | 'DISCORD_BOT_TOKEN'>): REST {
  const rest = new REST({ api: config.DISCORD_API_URL, version: '10', retries: 1, timeout: 10_000 });
  return config.DISCORD_BOT_TOKEN ? rest.setToken(config.DISCORD_BOT_TOKEN) : rest;
}
