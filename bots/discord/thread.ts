import { Routes } from 'discord-api-types/v10';
import type { REST } from '@discordjs/rest';
import { MAX_THREAD_MESSAGES, type ThreadSource } from '../commands/save-thread.js';
import { THREAD_TYPES, type DiscordInteraction, type DiscordMessagePayload } from './payload.js';

/**
 * The thread of a message for "지식으로 저장" on Discord: the thread started from the message
 * (the message first), or, run inside a thread, that thread; else the message alone. Read with
 * the bot token (`GET /channels/:id/messages`, the newest 100, put in order); the link back is
 * the message's jump link.
 */
export function discordThread(rest: REST, interaction: DiscordInteraction, target: DiscordMessagePayload): ThreadSource {
  const inThread = interaction.channel && THREAD_TYPES.has(interaction.channel.type ?? -1) ? interaction.channel_id : undefined;
  const threadId = target.thread?.id ?? inThread;
  const channelId = target.channel_id ?? interaction.channel_id;
  const asThreadMessage = (message: DiscordMessagePayload) => ({
    author: message.author?.id,
    bot: Boolean(message.author?.bot),
    text: message.content ?? '',
  });
  return {
    async load() {
      if (!threadId) return [asThreadMessage(target)];
      const query = new URLSearchParams({ limit: String(Math.min(100, MAX_THREAD_MESSAGES)) });
      const fetched = (await rest.get(Routes.channelMessages(threadId), { query })) as DiscordMessagePayload[];
      const ordered = [...fetched].sort((a, b) => (BigInt(a.id ?? 0) < BigInt(b.id ?? 0) ? -1 : 1));
      // The message that started the thread lives in the parent channel: it opens the thread.
      const starter = target.thread ? [target] : [];
      return [...starter, ...ordered.filter((message) => message.id !== target.id || !target.thread)].map(asThreadMessage);
    },
    mentions: /<@!?(\d+)>/g,
    // Role and channel mentions carry ids only: they read as plain words.
    decode: (text) => text.replace(/<@&\d+>/g, '@(역할)').replace(/<#\d+>/g, '#(채널)'),
    async link() {
      if (!target.id || !channelId) return undefined;
      return `https://discord.com/channels/${interaction.guild_id ?? '@me'}/${channelId}/${target.id}`;
    },
  };
}
