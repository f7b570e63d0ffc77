import type { Config } from '../src/config.js';

/**
 * What the start-up log says about the link guard on each platform: whether it can run and,
 * if not, what is missing. The platform-side settings the service cannot see (event
 * subscriptions, the Message Content intent) are named so an operator knows where to look.
 */
export function guardLogLines(config: Config): Array<{ level: 'info' | 'warn'; platform: string; message: string }> {
  const lines: Array<{ level: 'info' | 'warn'; platform: string; message: string }> = [];
  const slackOn = Boolean(config.SLACK_BOT_TOKEN && (config.SLACK_SIGNING_SECRET || config.SLACK_APP_TOKEN));
  lines.push(
    slackOn
      ? {
          level: 'info',
          platform: 'slack',
          message:
            'link guard (Slack) can run: needs the bot events message.channels, message.groups and link_shared and the scopes channels:history, groups:history, chat:write (bots/slack/manifest.yaml); mode warn only',
        }
      : { level: 'info', platform: 'slack', message: 'link guard (Slack) off: the Slack bot is not configured' },
  );
  const discordOn = Boolean(config.DISCORD_GATEWAY && config.DISCORD_BOT_TOKEN);
  const missing = [!config.DISCORD_GATEWAY && 'DISCORD_GATEWAY=1', !config.DISCORD_BOT_TOKEN && 'DISCORD_BOT_TOKEN'].filter(Boolean);
  lines.push(
    discordOn
      ? {
          level: 'info',
          platform: 'discord',
          message:
            'link guard (Discord) can run over the gateway: needs the Message Content intent enabled in the Developer Portal; hide mode needs Manage Messages in the channel',
        }
      : {
          level: config.DISCORD_APPLICATION_ID ? 'warn' : 'info',
          platform: 'discord',
          message: `link guard (Discord) off: set ${missing.join(' and ')} (and enable the Message Content intent)`,
        },
  );
  return lines;
}
