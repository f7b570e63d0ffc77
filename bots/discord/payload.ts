import { downloadImage } from '../commands/download.js';
import { localeOf } from '../commands/texts.js';
import type { ImageSource, Invocation, RawOptions } from '../commands/types.js';

/** The parts of an interaction payload the door reads (Discord API v10). */
export interface DiscordInteraction {
  id: string;
  application_id: string;
  type: number;
  token: string;
  guild_id?: string;
  channel_id?: string;
  /** The channel the interaction happened in (a thread's type is 10, 11 or 12, with its `parent_id`). */
  channel?: { id: string; type?: number; parent_id?: string | null };
  /** MESSAGE_COMPONENT: the message whose button was clicked. */
  message?: { id: string; embeds?: Array<{ title?: string }> };
  locale?: string;
  member?: { user?: { id: string }; permissions?: string };
  user?: { id: string };
  data?: {
    name: string;
    type?: number;
    target_id?: string;
    /** MESSAGE_COMPONENT: the clicked button's id. */
    custom_id?: string;
    options?: DiscordOption[];
    resolved?: {
      attachments?: Record<string, DiscordAttachment>;
      messages?: Record<string, DiscordMessagePayload>;
    };
  };
}

/** A message as interactions and `GET /channels/:id/messages` give it. */
export interface DiscordMessagePayload {
  id?: string;
  channel_id?: string;
  content?: string;
  author?: { id: string; bot?: boolean };
  attachments?: DiscordAttachment[];
  embeds?: Array<{ url?: string }>;
  /** The thread started from this message. */
  thread?: { id: string };
}

interface DiscordOption {
  name: string;
  type: number;
  value?: string | number | boolean;
  options?: DiscordOption[];
}

export interface DiscordAttachment {
  url: string;
  content_type?: string;
  size?: number;
}

export const PING = 1;
export const APPLICATION_COMMAND = 2;
export const CHAT_INPUT = 1;
export const MESSAGE_COMMAND = 3;
/** Announcement, public and private threads. */
export const THREAD_TYPES = new Set([10, 11, 12]);
export const CHANNEL_MESSAGE = 4;
export const DEFERRED_CHANNEL_MESSAGE = 5;
const SUB_COMMAND = 1;
const ATTACHMENT = 11;
const MANAGE_GUILD = 1n << 5n;
const MANAGE_CHANNELS = 1n << 4n;
const ADMINISTRATOR = 1n << 3n;

/** Who invoked the interaction, where, and whether they may manage the server. */
export function invocationOf(interaction: DiscordInteraction): Invocation {
  const userId = interaction.member?.user?.id ?? interaction.user?.id ?? 'unknown';
  return {
    platform: 'discord',
    workspaceId: interaction.guild_id,
    channelId: interaction.channel_id,
    threadParentId:
      interaction.channel && THREAD_TYPES.has(interaction.channel.type ?? -1) ? (interaction.channel.parent_id ?? undefined) : undefined,
    userId,
    locale: localeOf(interaction.locale),
    requestId: interaction.id,
    canManage: async () => {
      const bits = BigInt(interaction.member?.permissions ?? '0');
      return (bits & MANAGE_GUILD) !== 0n || (bits & ADMINISTRATOR) !== 0n;
    },
    // `member.permissions` are the member's permissions in the interaction's channel.
    canManageChannel: async () => {
      const bits = BigInt(interaction.member?.permissions ?? '0');
      return (bits & MANAGE_CHANNELS) !== 0n || (bits & ADMINISTRATOR) !== 0n;
    },
  };
}

/** Option values by name; a subcommand becomes `sub`; the attachment becomes an image source. */
export function readOptions(data: NonNullable<DiscordInteraction['data']>): { raw: RawOptions; image?: ImageSource } {
  const raw: RawOptions = {};
  let options = data.options ?? [];
  const sub = options.find((option) => option.type === SUB_COMMAND);
  if (sub) {
    raw.sub = sub.name;
    options = sub.options ?? [];
  }
  let image: ImageSource | undefined;
  for (const option of options) {
    if (option.type === ATTACHMENT) {
      const attachment = data.resolved?.attachments?.[String(option.value)];
      if (attachment) image = attachmentImage(attachment);
      continue;
    }
    raw[option.name] = option.value;
  }
  return { raw, image };
}

export function attachmentImage(attachment: DiscordAttachment): ImageSource {
  return () => downloadImage(attachment.url);
}
