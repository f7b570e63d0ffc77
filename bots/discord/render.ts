import { clip } from '../commands/texts.js';
import type { Reply } from '../commands/types.js';

const COLORS: Record<Reply['tone'], number> = { ok: 0x2eb67d, warn: 0xecb22e, error: 0xe01e5a, info: 0x36c5f0 };

/** Discord's message flag for "only the caller sees it". */
export const EPHEMERAL = 1 << 6;

/** On every message the bot sends: nothing in it may ping a user, a role, @everyone or @here. */
export const NO_MENTIONS = { parse: [] as [] };

export interface DiscordMessage {
  content?: string;
  embeds: Array<Record<string, unknown>>;
  components?: Array<Record<string, unknown>>;
  flags?: number;
  allowed_mentions: { parse: [] };
}

/** A Reply as one embed (title, description, up to 25 fields, footer), within Discord's limits. */
export function toDiscordMessage(reply: Reply): DiscordMessage {
  const embed: Record<string, unknown> = { title: clip(reply.title || ' ', 256), color: COLORS[reply.tone] };
  if (reply.text) embed.description = clip(reply.text, 4096);
  const fields = (reply.fields ?? []).map((field) => ({ name: field.name, value: field.value, inline: field.inline }));
  if (reply.quote) {
    // The passage quoted, under its source's name, with the link back to it.
    const url =
      reply.quote.url && /^https?:\/\//i.test(reply.quote.url) ? `\n<${reply.quote.url.replace(/[<>\s]/g, encodeURIComponent)}>` : '';
    const quoted = clip(reply.quote.text, 1000 - url.length)
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n');
    fields.unshift({ name: `📄 ${reply.quote.source ?? '-'}`, value: `${quoted}${url}`, inline: false });
  }
  if (fields.length) {
    embed.fields = fields
      .slice(0, 25)
      .map((field) => ({ name: clip(field.name || '-', 256), value: clip(field.value || '-', 1024), inline: field.inline ?? false }));
  }
  if (reply.context) embed.footer = { text: clip(reply.context, 2048) };
  // The question is the embed's title: a 👎 reads it from the message it was clicked on (custom ids hold 100 characters).
  const components = reply.feedback
    ? [
        {
          type: 1,
          components: [
            { type: 2, style: 2, custom_id: FEEDBACK_UP, emoji: { name: '👍' } },
            { type: 2, style: 2, custom_id: FEEDBACK_DOWN, emoji: { name: '👎' } },
          ],
        },
      ]
    : undefined;
  // Nobody gets pinged by what a user typed into a command.
  return { embeds: [embed], ...(components ? { components } : {}), allowed_mentions: NO_MENTIONS };
}

export const FEEDBACK_UP = 'kb_feedback:up';
export const FEEDBACK_DOWN = 'kb_feedback:down';
