import type { types } from '@slack/bolt';
import { clip } from '../commands/texts.js';
import type { Reply } from '../commands/types.js';

type KnownBlock = types.KnownBlock;

/**
 * Slack's mrkdwn treats these three as markup: user text is escaped, so `<!channel>`,
 * `<!here>`, `<!everyone>`, `<@U…>` and `<!subteam^…>` show as typed and never notify anyone.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * `plain_text` is not parsed for mentions, but a word joiner after a `<` that opens one makes
 * sure no client or future format change ever reads user text there as a ping.
 */
export function plainText(text: string): string {
  return text.replace(/<(?=[!@#])/g, '<\u2060');
}

/** A Reply as a Block Kit message: a header, the text, fields two by two, a context line. */
export function toSlackMessage(reply: Reply): { text: string; blocks: KnownBlock[] } {
  const blocks: KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: clip(plainText(reply.title || ' '), 150), emoji: true } },
  ];
  if (reply.text) blocks.push({ type: 'section', text: { type: 'mrkdwn', text: clip(escapeMrkdwn(reply.text), 3000) } });
  if (reply.quote) {
    const quoted = reply.quote.text
      .split('\n')
      .map((line) => `> ${escapeMrkdwn(line)}`)
      .join('\n');
    blocks.push({ type: 'section', text: { type: 'mrkdwn', text: clip(quoted, 3000) } });
    const source = sourceLink(reply.quote.source, reply.quote.url);
    if (source) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: clip(`📄 ${source}`, 2900) }] });
  }
  const fields = reply.fields ?? [];
  // Section fields: at most 10 per block, each under 2,000 characters.
  for (let start = 0; start < fields.length && start < 40; start += 10) {
    blocks.push({
      type: 'section',
      fields: fields.slice(start, start + 10).map((field) => ({
        type: 'mrkdwn' as const,
        text: clip(`*${escapeMrkdwn(field.name)}*\n${escapeMrkdwn(field.value)}`, 1990),
      })),
    });
  }
  if (reply.context) blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: clip(escapeMrkdwn(reply.context), 2900) }] });
  if (reply.feedback) {
    // The question rides in the buttons' value (≤ 2,000, as the chatbot's question): a 👎 stores it and nothing else.
    const value = clip(reply.feedback.question, 2000);
    blocks.push({
      type: 'actions',
      block_id: 'kb_feedback',
      elements: [
        { type: 'button', action_id: FEEDBACK_UP, text: { type: 'plain_text', text: '👍', emoji: true }, value },
        { type: 'button', action_id: FEEDBACK_DOWN, text: { type: 'plain_text', text: '👎', emoji: true }, value },
      ],
    });
  }
  // The notification fallback is mrkdwn too: escaped like the blocks (issue 33: it once pinged a channel).
  const fallback = [reply.title, reply.text].filter(Boolean).join('\n');
  return { text: clip(escapeMrkdwn(fallback), 3000), blocks };
}

export const FEEDBACK_UP = 'kb_feedback_up';
export const FEEDBACK_DOWN = 'kb_feedback_down';

/** A source's name as a link (`<url|name>`, the name escaped, the URL only http(s) and without markup characters). */
function sourceLink(source: string | null | undefined, url: string | null | undefined): string | undefined {
  const name = source ? escapeMrkdwn(source).replace(/\|/g, '¦') : undefined;
  const safeUrl = url && /^https?:\/\//i.test(url) ? url.replace(/[<>|\s]/g, encodeURIComponent) : undefined;
  if (safeUrl) return `<${safeUrl}|${name ?? escapeMrkdwn(safeUrl)}>`;
  return name;
}
