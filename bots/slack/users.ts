import type { App } from '@slack/bolt';
import type { Logger } from '../../src/logger.js';
import { localeOf } from '../commands/texts.js';
import type { Invocation, Locale } from '../commands/types.js';
import { boundedCache } from '../../src/bounded-cache.js';

type SlackClient = App['client'];

interface SlackUser {
  locale: Locale;
  admin: boolean;
}

export interface SlackPlace {
  teamId: string | undefined;
  channelId: string | undefined;
}

/**
 * Who runs a Slack command: the user's locale and admin rights from `users.info`, cached ten
 * minutes (a failing lookup answers in Korean without admin rights).
 */
export function createSlackUsers(logger: Logger) {
  const users = boundedCache<string, SlackUser>(10_000, { ttl: 10 * 60_000 });

  async function userInfo(client: SlackClient, userId: string): Promise<SlackUser> {
    const cached = users.get(userId);
    if (cached) return cached;
    try {
      const { user } = await client.users.info({ user: userId, include_locale: true });
      const info = { locale: localeOf(user?.locale), admin: Boolean(user?.is_admin || user?.is_owner || user?.is_primary_owner) };
      users.set(userId, info);
      return info;
    } catch (error) {
      logger.warn({ err: error }, 'users.info failed: answering in Korean, no admin rights');
      return { locale: 'ko', admin: false };
    }
  }

  return {
    async invocation(client: SlackClient, where: SlackPlace, userId: string, requestId: string): Promise<Invocation> {
      const user = await userInfo(client, userId);
      return {
        platform: 'slack',
        workspaceId: where.teamId,
        channelId: where.channelId,
        userId,
        locale: user.locale,
        requestId,
        // Asked again at link time, not cached: a demoted admin must not link.
        canManage: async () => {
          users.delete(userId);
          return (await userInfo(client, userId)).admin;
        },
        // A workspace admin, or the channel's creator (`conversations.info`), asked each time.
        canManageChannel: async () => {
          users.delete(userId);
          if ((await userInfo(client, userId)).admin) return true;
          if (!where.channelId) return false;
          try {
            const info = await client.conversations.info({ channel: where.channelId });
            return info.channel?.creator === userId;
          } catch (error) {
            logger.warn({ err: error }, 'conversations.info failed: not treated as the channel creator');
            return false;
          }
        },
      };
    },
  };
}

export type SlackUsers = ReturnType<typeof createSlackUsers>;
