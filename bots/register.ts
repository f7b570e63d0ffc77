import { loadConfig, loadDotEnv } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { discordCommandDefinitions } from './discord/definitions.js';
import { createDiscordRest } from './discord/client.js';
import { registerDiscordCommands } from './discord/register-commands.js';

/**
 * `npm run bots:register`: registers the Discord commands, globally or for `DISCORD_GUILD_ID`,
 * only when they changed. Slack's commands come from the app manifest (bots/slack/manifest.yaml).
 */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const logger = createLogger(config.LOG_LEVEL);
  if (!config.DISCORD_APPLICATION_ID || !config.DISCORD_BOT_TOKEN) {
    logger.error('DISCORD_APPLICATION_ID and DISCORD_BOT_TOKEN are needed to register the Discord commands');
    process.exitCode = 1;
    return;
  }
  const rest = createDiscordRest(config);
  const result = await registerDiscordCommands({
    rest,
    applicationId: config.DISCORD_APPLICATION_ID,
    guildId: config.DISCORD_GUILD_ID,
    definitions: discordCommandDefinitions(),
    logger,
  });
  process.stdout.write(
    `${result.changed ? 'registered' : 'unchanged'}: ${result.count} commands (${config.DISCORD_GUILD_ID ? `guild ${config.DISCORD_GUILD_ID}` : 'global'})\n`,
  );
  logger.flush();
}

main().catch((error: unknown) => {
  process.stderr.write(`bots:register failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
