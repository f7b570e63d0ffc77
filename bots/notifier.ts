import type { DiscordAPIError, REST } from '@discordjs/rest';
import { ErrorCode, WebClient } from '@slack/web-api';
import type { Config } from '../src/config.js';
import type {
  ChannelMessage,
  ChannelNotifier,
  ChannelPlatform,
  ChannelTarget,
  PostOutcome,
} from '../src/operations/delivery-watch/channels.js';
import type { Logger } from '../src/logger.js';
import { NO_MENTIONS } from './discord/render.js';
import { createSlackClient } from './slack/client.js';
import { escapeMrkdwn } from './slack/render.js';

/** Slack errors after which posting to the channel cannot work until someone acts: the watch is disabled. */
const SLACK_GONE = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'account_inactive',
  'token_revoked',
  'invalid_auth',
  'not_authed',
  'team_access_not_granted',
  'restricted_action',
  'missing_scope',
]);

/** Discord: unknown channel (10003), missing access (50001) or permissions (50013), and a revoked token (401). */
const DISCORD_GONE_CODES = new Set([10003, 50001, 50013]);
const DISCORD_MAX_CONTENT = 2000;

/**
 * A notice's text for Slack: escaped, so nothing an upstream or a user wrote into it can ping
 * anyone; the channel links the service writes itself (`<#C…>`, which notify nobody) stay links.
 */
function slackNoticeText(text: string): string {
  return escapeMrkdwn(text).replace(/&lt;#([A-Za-z0-9_-]+)&gt;/g, '<#$1>');
}

/** Discord's REST client and its error class, loaded with the first notice: the module costs a quarter second of every start. */
interface DiscordClient {
  rest: REST;
  DiscordAPIError: typeof DiscordAPIError;
}

function discordOnFirstUse(config: Config): () => Promise<DiscordClient> {
  let loaded: Promise<DiscordClient> | undefined;
  return () =>
    (loaded ??= Promise.all([import('@discordjs/rest'), import('./discord/client.js')]).then(
      ([{ DiscordAPIError }, { createDiscordRest }]) => ({
        rest: createDiscordRest(config),
        DiscordAPIError,
      }),
    ));
}

/**
 * The watch poller's way into the channels (src/operations/delivery-watch/channels.ts): Slack through
 * `chat.postMessage` with the bot token, Discord through `POST /channels/{id}/messages`
 * with the bot token; base URLs from `SLACK_API_URL` / `DISCORD_API_URL`. A platform
 * without a bot token is left out of `platforms`.
 */
export function createChannelNotifier(config: Config, logger?: Logger): ChannelNotifier {
  const slack = config.SLACK_BOT_TOKEN ? createSlackClient(config, config.SLACK_BOT_TOKEN) : undefined;
  const discord = config.DISCORD_BOT_TOKEN ? discordOnFirstUse(config) : undefined;
  const platforms: ChannelPlatform[] = [...(slack ? (['slack'] as const) : []), ...(discord ? (['discord'] as const) : [])];
  if (platforms.length === 0) logger?.info('no bot token (SLACK_BOT_TOKEN / DISCORD_BOT_TOKEN): channel watch notices off');

  async function postSlack(client: WebClient, target: ChannelTarget, message: ChannelMessage): Promise<PostOutcome> {
    try {
      await client.chat.postMessage({
        channel: target.channelId,
        text: slackNoticeText(message.text),
        unfurl_links: false,
        unfurl_media: false,
      });
      return { ok: true };
    } catch (error) {
      const code =
        (error as { code?: string; data?: { error?: string } }).code === ErrorCode.PlatformError
          ? (error as { data?: { error?: string } }).data?.error
          : undefined;
      if (code) return { ok: false, gone: SLACK_GONE.has(code), reason: code };
      return { ok: false, gone: false, reason: (error as { code?: string }).code ?? 'slack_request_failed' };
    }
  }

  async function postDiscord(
    { rest, DiscordAPIError }: DiscordClient,
    target: ChannelTarget,
    message: ChannelMessage,
  ): Promise<PostOutcome> {
    const content = message.text.length > DISCORD_MAX_CONTENT ? `${message.text.slice(0, DISCORD_MAX_CONTENT - 1)}…` : message.text;
    try {
      await rest.post(`/channels/${encodeURIComponent(target.channelId)}/messages`, { body: { content, allowed_mentions: NO_MENTIONS } });
      return { ok: true };
    } catch (error) {
      if (error instanceof DiscordAPIError) {
        const gone = error.status === 401 || error.status === 404 || DISCORD_GONE_CODES.has(Number(error.code));
        return { ok: false, gone, reason: `discord_${error.status}_${error.code}` };
      }
      return { ok: false, gone: false, reason: (error as { name?: string }).name ?? 'discord_request_failed' };
    }
  }

  return {
    platforms,
    async postToUser(target, message) {
      // Slack: a user id as the channel posts to the bot's DM with that person.
      if (target.platform === 'slack' && slack) return postSlack(slack, { platform: 'slack', channelId: target.userId }, message);
      if (target.platform === 'discord' && discord) {
        const client = await discord();
        try {
          const dm = (await client.rest.post('/users/@me/channels', { body: { recipient_id: target.userId } })) as { id: string };
          return postDiscord(client, { platform: 'discord', channelId: dm.id }, message);
        } catch (error) {
          return {
            ok: false,
            gone: true,
            reason: error instanceof client.DiscordAPIError ? `discord_${error.status}_${error.code}` : 'discord_dm_failed',
          };
        }
      }
      return { ok: false, gone: false, reason: `${target.platform}_not_configured` };
    },
    async post(target, message) {
      if (target.platform === 'slack' && slack) return postSlack(slack, target, message);
      if (target.platform === 'discord' && discord) return postDiscord(await discord(), target, message);
      return { ok: false, gone: false, reason: `${target.platform}_not_configured` };
    },
  };
}
