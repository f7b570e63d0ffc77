import type { Config } from '../src/config.js';

export interface DoorSummary {
  platform: 'slack' | 'discord';
  /** How each configured door listens: `http POST …/slack/events`, `socket-mode`, `gateway`. */
  on: string[];
  /** What is missing for the doors that are off, naming the variables. */
  missing: string[];
}

/**
 * What the start-up log says about the chat doors: which are on and how, and what each
 * missing one would need, so an operator sees at once why a bot stays silent.
 */
export function summarizeDoors(config: Config): DoorSummary[] {
  const slack: DoorSummary = { platform: 'slack', on: [], missing: [] };
  if (config.SLACK_BOT_TOKEN && config.SLACK_APP_TOKEN) slack.on.push('socket-mode');
  else if (config.SLACK_BOT_TOKEN && config.SLACK_SIGNING_SECRET) slack.on.push(`http POST ${config.PUBLIC_BASE_URL}/slack/events`);
  if (!config.SLACK_BOT_TOKEN) slack.missing.push('SLACK_BOT_TOKEN (xoxb-…)');
  if (!config.SLACK_APP_TOKEN && !config.SLACK_SIGNING_SECRET) {
    slack.missing.push('SLACK_SIGNING_SECRET for HTTP events, or SLACK_APP_TOKEN (xapp-…) for Socket Mode');
  }

  const discord: DoorSummary = { platform: 'discord', on: [], missing: [] };
  const httpReady = discordHttpConfigured(config);
  if (httpReady) discord.on.push(`http POST ${config.PUBLIC_BASE_URL}/discord/interactions`);
  else {
    const lacking = [!config.DISCORD_APPLICATION_ID && 'DISCORD_APPLICATION_ID', !config.DISCORD_PUBLIC_KEY && 'DISCORD_PUBLIC_KEY'].filter(
      Boolean,
    );
    const gateway = config.DISCORD_GATEWAY ? '' : ', or DISCORD_GATEWAY=1 with DISCORD_BOT_TOKEN for the gateway';
    discord.missing.push(`${lacking.join(' and ')} for HTTP interactions${gateway}`);
  }
  if (config.DISCORD_GATEWAY && config.DISCORD_BOT_TOKEN) discord.on.push('gateway');
  else if (config.DISCORD_GATEWAY) discord.missing.push('DISCORD_BOT_TOKEN for the gateway (DISCORD_GATEWAY=1 is set)');
  if ((httpReady || config.DISCORD_GATEWAY) && !config.DISCORD_BOT_TOKEN) {
    discord.missing.push('DISCORD_BOT_TOKEN to post parcel-watch notices to channels and to register commands');
  }
  return [slack, discord];
}

/** One log line per platform: `Slack bot on: socket-mode` / `Slack bot off: set …`. */
export function doorLogLines(config: Config): Array<{ level: 'info' | 'warn'; platform: string; message: string }> {
  return summarizeDoors(config).map(({ platform, on, missing }) => {
    const name = platform === 'slack' ? 'Slack' : 'Discord';
    if (on.length === 0) return { level: 'info', platform, message: `${name} bot off: set ${missing.join('; ')}` };
    const partial = missing.length > 0 ? ` (not yet: ${missing.join('; ')})` : '';
    return { level: missing.length > 0 ? 'warn' : 'info', platform, message: `${name} bot on: ${on.join(' + ')}${partial}` };
  });
}

/** A Slack door is built with the bot token and either the signing secret (HTTP events) or the app token (Socket Mode). */
export function slackDoorWanted(config: Config): boolean {
  return Boolean(config.SLACK_BOT_TOKEN && (config.SLACK_SIGNING_SECRET || config.SLACK_APP_TOKEN));
}

/** Discord's HTTP interactions need the application id and the public key their signatures are checked with. */
export function discordHttpConfigured(config: Config): boolean {
  return Boolean(config.DISCORD_APPLICATION_ID && config.DISCORD_PUBLIC_KEY);
}

/** A Discord door is built for HTTP interactions or for the gateway (`DISCORD_GATEWAY=1`). */
export function discordDoorWanted(config: Config): boolean {
  return discordHttpConfigured(config) || config.DISCORD_GATEWAY;
}
