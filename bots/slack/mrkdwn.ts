/**
 * Slack's text formatting, decoded once at the door. Slack escapes `&`, `<`, `>` as `&amp;`,
 * `&lt;`, `&gt;` in every text field, and wraps links and mentions in angle brackets:
 * `<https://…>`, `<https://…|label>`, `<@U…>`, `<#C…|name>`, `<!here>`, `<!subteam^S…|@team>`,
 * `<!date^…|fallback>`. What the commands see is the text as the user saw it.
 */

const TOKEN = /<([^<>]*)>/g;

function unescapeEntities(text: string): string {
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** True when a link's label is the address itself (Slack's auto-link of a typed `example.com`). */
function labelIsAddress(url: string, label: string): boolean {
  const bare = (value: string) =>
    value
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
      .replace(/^mailto:/i, '')
      .replace(/\/+$/, '');
  return bare(url) === bare(label);
}

function decodeToken(inner: string, links: LinkAs): string {
  const [target = '', ...rest] = inner.split('|');
  const label = rest.length > 0 ? unescapeEntities(rest.join('|')) : undefined;
  if (target.startsWith('@')) return label ? (label.startsWith('@') ? label : `@${label}`) : target;
  if (target.startsWith('#')) return label ? `#${label}` : target;
  if (target.startsWith('!')) {
    const [kind = ''] = target.slice(1).split('^');
    if (label) return label;
    return kind === 'here' || kind === 'channel' || kind === 'everyone' ? `@${kind}` : '';
  }
  const url = unescapeEntities(target);
  if (!label || links === 'url' || labelIsAddress(url, label)) return url.replace(/^mailto:/i, '');
  return label;
}

/** How a labelled link reads: its label (a message's visible text) or its URL (a command's argument). */
export type LinkAs = 'label' | 'url';

/**
 * A Slack text as its reader sees it: entities decoded, a link as its URL (or as its label
 * when the label is other text and `links` is `label`), mentions as `@name`/`#channel`.
 * Decoded once: `&amp;lt;` (a user who typed `&lt;`) stays `&lt;`.
 */
export function decodeSlackText(text: string, links: LinkAs = 'label'): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(TOKEN)) {
    out += unescapeEntities(text.slice(last, match.index)) + decodeToken(match[1] ?? '', links);
    last = match.index + match[0].length;
  }
  return out + unescapeEntities(text.slice(last));
}

/** The http(s) targets of the link markup in a Slack text, decoded. */
export function slackTextUrls(text: string): string[] {
  const urls: string[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const target = unescapeEntities((match[1] ?? '').split('|')[0] ?? '');
    if (/^https?:\/\//i.test(target)) urls.push(target);
  }
  return urls;
}

/** Keys whose value is a link a reader can follow (not images: `image_url`, `thumb_url`). */
const LINK_KEYS = new Set(['url', 'title_link', 'from_url', 'original_url', 'author_link']);
/** Keys whose string value is formatted text that may hold link markup. */
const TEXT_KEYS = new Set(['text', 'pretext', 'footer', 'title', 'value']);

/**
 * Every URL a Slack message carries, in order and once each: its text, and its `attachments`
 * and `blocks` (a bot's message often has none in `text`: buttons, unfurls, section links).
 */
export function slackMessageUrls(message: { text?: string; attachments?: unknown; blocks?: unknown }): string[] {
  const found: string[] = [];
  const add = (url: string) => {
    if (/^https?:\/\//i.test(url) && !found.includes(url)) found.push(url);
  };
  for (const url of slackTextUrls(message.text ?? '')) add(url);
  const walk = (node: unknown, depth: number): void => {
    if (depth > 12 || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((item) => walk(item, depth + 1));
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string') {
        if (LINK_KEYS.has(key)) add(unescapeEntities(value));
        else if (TEXT_KEYS.has(key)) slackTextUrls(value).forEach(add);
      } else {
        walk(value, depth + 1);
      }
    }
  };
  walk([message.attachments, message.blocks], 0);
  return found;
}
