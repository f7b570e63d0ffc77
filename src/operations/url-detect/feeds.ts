import { gunzipSync } from 'node:zlib';
import { entryExpression } from './expressions.js';
import { HARM_CATEGORIES, type HarmCategory } from './list-index.js';

export const FEED_FORMATS = ['hosts', 'domains', 'urls'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export interface FeedSpec {
  name: string;
  category: HarmCategory;
  format: FeedFormat;
  url: string;
}

/**
 * Public feeds fetched by `npm run lists:update` when `URL_LIST_FEEDS` is not set: URLhaus
 * (malware URLs online now) and the Université Toulouse Capitole (UT1) category lists.
 * UT1's adult list has millions of entries; add it explicitly if the database can hold it.
 */
export const DEFAULT_FEEDS: readonly FeedSpec[] = [
  { name: 'urlhaus', category: 'malware', format: 'urls', url: 'https://urlhaus.abuse.ch/downloads/text_online/' },
  { name: 'ut1-gambling', category: 'gambling', format: 'domains', url: ut1('gambling') },
  { name: 'ut1-phishing', category: 'phishing', format: 'domains', url: ut1('phishing') },
  { name: 'ut1-malware', category: 'malware', format: 'domains', url: ut1('malware') },
];

function ut1(list: string): string {
  return `https://raw.githubusercontent.com/olbat/ut1-blacklists/master/blacklists/${list}/domains`;
}

/**
 * Parses `URL_LIST_FEEDS`: entries separated by commas or new lines, each
 * `name=category:format:url` (the name may be left out: `category:format:url`).
 */
export function parseFeedSpecs(text: string | undefined): FeedSpec[] {
  if (!text) return [...DEFAULT_FEEDS];
  return text
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part, index) => {
      const match = /^(?:([a-z0-9_-]+)=)?([a-z]+):([a-z]+):(https?:\/\/\S+)$/i.exec(part);
      const category = match?.[2]?.toLowerCase() as HarmCategory | undefined;
      const format = match?.[3]?.toLowerCase() as FeedFormat | undefined;
      if (!match || !category || !format || !HARM_CATEGORIES.includes(category) || !FEED_FORMATS.includes(format)) {
        throw new Error(
          `URL_LIST_FEEDS: '${part}' is not 'name=category:format:url' (category ${HARM_CATEGORIES.join('|')}, format ${FEED_FORMATS.join('|')})`,
        );
      }
      return { name: match[1] ?? `feed-${index + 1}`, category, format, url: match[4] ?? '' };
    });
}

/** The expressions of a feed body (gzip is recognised by its magic bytes). */
export function parseFeed(body: Buffer, format: FeedFormat): Set<string> {
  const text = (body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body).toString('utf8');
  const expressions = new Set<string>();
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/\s#.*$/, '').trim();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    let entry: string | undefined = line;
    if (format === 'hosts') {
      const [address, host] = line.split(/\s+/);
      // Only sinkholed entries are blocklist lines; `127.0.0.1 localhost` and friends are not.
      entry = address && /^(0\.0\.0\.0|127\.0\.0\.1|::1?|::)$/.test(address) && host && !/^(localhost|local|broadcasthost|0\.0\.0\.0)$/.test(host) ? host : undefined;
    } else if (format === 'domains') {
      entry = line.split(/\s+/)[0];
    }
    const expression = entry ? entryExpression(entry) : undefined;
    if (expression) expressions.add(expression);
  }
  return expressions;
}
