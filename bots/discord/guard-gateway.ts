import type { REST } from '@discordjs/rest';
import type { Logger } from '../../src/logger.js';
import type { GuardedMessage, GuardResponder, LinkGuard } from '../../src/operations/link-guard/link-guard.js';
import { messageParts } from '../../src/operations/url-scan/message-parts.js';
import { guardWarning, quotaNotice } from '../commands/guard-warning.js';
import { toDiscordMessage } from './render.js';
import { boundedCache } from '../../src/bounded-cache.js';

/** The fields of a gateway MESSAGE_CREATE / MESSAGE_UPDATE the guard reads (API v10). */
export interface GatewayMessage {
  id?: string;
  channel_id?: string;
  guild_id?: string;
  author?: { id?: string; bot?: boolean };
  webhook_id?: string;
  content?: string;
  embeds?: unknown[];
}

type ThreadPayload = { id?: string; parent_id?: string | null; type?: number };
/** Announcement, public and private threads (API v10 channel types 10, 11, 12). */
const THREAD_TYPES = new Set([10, 11, 12]);

/** An embed without its pictures and video (`image.url`, `thumbnail.url`): media shown, not links followed. */
function withoutMedia(embed: unknown): unknown {
  if (embed === null || typeof embed !== 'object') return embed;
  const { image: _image, thumbnail: _thumbnail, video: _video, ...rest } = embed as Record<string, unknown>;
  return rest;
}

/**
 * The link guard's Discord side: gateway messages of guarded channels go to the guard (a
 * partial MESSAGE_UPDATE, e.g. the embeds Discord adds after posting, too). A harmful link
 * gets a reply the channel sees, with no mentions; in `hide` mode the message is deleted first
 * when the bot has Manage Messages, and the reply says whether it could. Texts are never logged.
 */
export function createDiscordGuard(guard: LinkGuard, rest: REST, logger: Logger) {
  let botUserId: string | undefined;
  /** Threads seen on the gateway and their parent channel (a thread of a guarded channel is guarded), bounded. */
  const threadParents = boundedCache<string, string>(50_000);
  const rememberThread = (thread: { id?: string; parent_id?: string | null; type?: number } | undefined) => {
    if (thread?.id && thread.parent_id && THREAD_TYPES.has(thread.type ?? -1)) threadParents.set(thread.id, thread.parent_id);
  };

  const responder: GuardResponder = {
    async warn(message, warning) {
      let hidden: 'hidden' | 'not_hidden' | 'warn' = 'warn';
      if (warning.channel.mode === 'hide') {
        hidden = await rest.delete(`/channels/${message.channelId}/messages/${message.messageId}`).then(
          () => 'hidden' as const,
          (error: unknown) => {
            logger.info({ err: error, channel: message.channelId }, 'guard could not delete the message (Manage Messages?)');
            return 'not_hidden' as const;
          },
        );
      }
      const reply = toDiscordMessage(guardWarning(warning.channel, warning.findings, hidden, warning.scam));
      await rest.post(`/channels/${message.channelId}/messages`, {
        body: {
          ...reply,
          // A deleted message can no longer be replied to: the warning is then posted plainly.
          ...(hidden === 'hidden' ? {} : { message_reference: { message_id: message.messageId, fail_if_not_exists: false } }),
        },
      });
      return hidden === 'hidden' ? 'hidden' : hidden === 'not_hidden' ? 'warned_not_hidden' : 'warned';
    },
    async quotaNotice(_message, channel, why) {
      await rest.post(`/channels/${channel.channelId}/messages`, { body: toDiscordMessage(quotaNotice(channel, why)) });
    },
  };

  return {
    /** A raw gateway packet: READY gives the bot's own id, messages go to the guard. */
    handle(packet: { t?: string | null; d?: unknown }): void {
      if (packet.t === 'READY') botUserId = (packet.d as { user?: { id?: string } }).user?.id;
      if (packet.t === 'THREAD_CREATE' || packet.t === 'THREAD_UPDATE') rememberThread(packet.d as ThreadPayload);
      if (packet.t === 'GUILD_CREATE' || packet.t === 'THREAD_LIST_SYNC')
        (packet.d as { threads?: ThreadPayload[] }).threads?.forEach(rememberThread);
      if (packet.t !== 'MESSAGE_CREATE' && packet.t !== 'MESSAGE_UPDATE') return;
      const message = packet.d as GatewayMessage;
      if (!message.id || !message.channel_id || !message.guild_id) return;
      if (message.author?.id && message.author.id === botUserId) return;
      const guarded: GuardedMessage = {
        platform: 'discord',
        workspaceId: message.guild_id,
        channelId: message.channel_id,
        parentChannelId: threadParents.get(message.channel_id),
        messageId: message.id,
        posterId: message.author?.id ?? message.webhook_id ?? 'unknown',
        // Attachments are files on Discord's CDN, not links a person follows: only text and embeds.
        parts: [message.content ?? '', ...messageParts({ embeds: (message.embeds ?? []).map(withoutMedia) }, { images: false })],
        // Judged as a message with `/guard messages on` (a partial update without content is not judged again).
        ...(message.content ? { text: message.content } : {}),
      };
      void guard.submit(guarded, responder).catch((error: unknown) => logger.warn({ err: error }, 'guard submit failed'));
    },
  };
}
