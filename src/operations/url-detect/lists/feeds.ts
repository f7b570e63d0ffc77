import { FEED_FORMATS, type FeedFormat } from './feed-parse.js';
import { kisaPhishingUrl } from './feed-odcloud.js';
import { HARM_CATEGORIES, type HarmCategory } from './list-index.js';

export { FEED_FORMATS, parseFeed, parseFeedAsync, type FeedFormat, type ParsedFeed } from './feed-parse.js';

/**
 * A feed's category: a harm category, or `clean` for a popularity list (top sites) that only
 * teaches the lexical model what ordinary hosts look like. Popular is not safe: a `clean` feed
 * never allowlists anything.
 */
export type FeedCategory = HarmCategory | 'clean';
export const FEED_CATEGORIES: readonly FeedCategory[] = [...HARM_CATEGORIES, 'clean'];

export interface FeedSpec {
  name: string;
  category: FeedCategory;
  format: FeedFormat;
  url: string;
}

/** The portal's API base when `DATA_GO_KR_API_URL` is not set. */
const DATA_GO_KR_API = 'https://api.odcloud.kr/api';

const raw = (repo: string, path: string) => `https://raw.githubusercontent.com/${repo}/HEAD/${path}`;

/**
 * Feeds downloaded when `URL_LIST_FEEDS` is not set: at least one maintained public list per
 * category, each with some Korean coverage, plus a top-sites list for the lexical model.
 * Licences and terms are in the README ("Harmful-URL lists").
 */
export const DEFAULT_FEEDS: readonly FeedSpec[] = [
  { name: 'urlhaus', category: 'malware', format: 'csv', url: 'https://urlhaus.abuse.ch/downloads/csv_online/' },
  { name: 'usom', category: 'malware', format: 'domains', url: raw('elliotwutingfeng/USOM-Blocklists', 'urls.txt') },
  {
    name: 'phishing-database',
    category: 'phishing',
    format: 'domains',
    url: raw('mitchellkrogza/Phishing.Database', 'phishing-domains-ACTIVE.txt'),
  },
  { name: 'openphish', category: 'phishing', format: 'adblock', url: raw('stephenhawk8054/openphish-adblock', 'filters_init.txt') },
  { name: 'ut1-gambling', category: 'gambling', format: 'domains', url: raw('olbat/ut1-blacklists', 'blacklists/gambling/domains') },
  {
    name: 'emta-gambling',
    category: 'gambling',
    format: 'adblock',
    url: raw('elliotwutingfeng/Estonia-Blocked-Gambling-Websites', 'blocklist_ABP.txt'),
  },
  { name: 'antiporn', category: 'adult', format: 'hosts', url: raw('4skinSkywalker/Anti-Porn-HOSTS-File', 'HOSTS.txt') },
  {
    name: 'gaso-scam',
    category: 'spam',
    format: 'domains',
    url: raw('elliotwutingfeng/GlobalAntiScamOrg-blocklist', 'global-anti-scam-org-scam-urls.txt'),
  },
  // KISA's detections of phishing and smishing sites (public-data portal, data set 15109780): needs DATA_GO_KR_SERVICE_KEY.
  { name: 'kisa-phishing', category: 'phishing', format: 'odcloud', url: kisaPhishingUrl(DATA_GO_KR_API) },
  {
    name: 'umbrella-top',
    category: 'clean',
    format: 'domains',
    url: raw('Loughty/Cisco-Umbrella-Top-1M-PiHole-Whitelist', 'umbrella-top-100k.txt'),
  },
];

/** A default odcloud feed under the configured portal base (a local fake in tests). */
function withPortalBase(feed: FeedSpec, base: string | undefined): FeedSpec {
  return feed.format === 'odcloud' && base ? { ...feed, url: feed.url.replace(DATA_GO_KR_API, base.replace(/\/+$/, '')) } : { ...feed };
}

/** Feeds that can be downloaded now: odcloud feeds need the portal's service key (said once, here). */
export function usableFeeds(specs: FeedSpecs, serviceKey: string | undefined): { feeds: FeedSpec[]; notice: string | undefined } {
  if (serviceKey) return { feeds: specs.feeds, notice: undefined };
  const skipped = specs.feeds.filter((feed) => feed.format === 'odcloud').map((feed) => feed.name);
  return {
    feeds: specs.feeds.filter((feed) => feed.format !== 'odcloud'),
    notice:
      skipped.length > 0
        ? `odcloud feeds skipped (${skipped.join(', ')}): DATA_GO_KR_SERVICE_KEY is not set; get a key for data set 15109780 at data.go.kr`
        : undefined,
  };
}

export interface FeedSpecs {
  feeds: FeedSpec[];
  /** Entries that were skipped, each with why (reported at start and in the feed state). */
  problems: string[];
  /** What was added to the configured feeds, and why (said in the log at start). */
  notices?: string[];
}

/**
 * CONTRACT §5: a `URL_LIST_FEEDS` without a `clean` feed keeps the built-in clean reference (the
 * default top-sites feed). Without clean examples no learned model trains, and the detector
 * would fall back to its rules alone with nothing saying so.
 */
function withCleanReference(feeds: FeedSpec[]): { feeds: FeedSpec[]; notices: string[] } {
  if (feeds.length === 0 || feeds.some((feed) => feed.category === 'clean')) return { feeds, notices: [] };
  const reference = DEFAULT_FEEDS.filter((feed) => feed.category === 'clean' && !feeds.some((f) => f.name === feed.name));
  return {
    feeds: [...feeds, ...reference.map((feed) => ({ ...feed }))],
    notices: [
      `URL_LIST_FEEDS has no clean feed: the built-in clean reference (${reference.map((f) => f.name).join(', ')}) is kept, so the learned URL models can train; add your own 'name=clean:domains:URL' to replace it`,
    ],
  };
}

/**
 * Reads `URL_LIST_FEEDS`: entries separated by commas or new lines, each
 * `name=category:format:url` (the name may be left out). An entry that cannot be read is
 * reported and skipped; the others are still downloaded.
 */
export function parseFeedSpecs(text: string | undefined, options: { dataGoKrApiUrl?: string } = {}): FeedSpecs {
  if (!text?.trim()) return { feeds: DEFAULT_FEEDS.map((feed) => withPortalBase(feed, options.dataGoKrApiUrl)), problems: [] };
  const feeds: FeedSpec[] = [];
  const problems: string[] = [];
  text
    .split(/[,\n]/)
    .map((part) => part.trim())
    .filter(Boolean)
    .forEach((part, index) => {
      const match = /^(?:([a-z0-9_.-]+)=)?([a-z]+):([a-z]+):(https?:\/\/\S+)$/i.exec(part);
      const category = match?.[2]?.toLowerCase() as FeedCategory | undefined;
      const format = match?.[3]?.toLowerCase() as FeedFormat | undefined;
      if (!match || !category || !format) {
        problems.push(`'${part}': 'name=category:format:url' 형식이 아닙니다`);
      } else if (!FEED_CATEGORIES.includes(category)) {
        problems.push(`'${part}': 알 수 없는 분류 '${category}' (${FEED_CATEGORIES.join('|')})`);
      } else if (!FEED_FORMATS.includes(format)) {
        problems.push(`'${part}': 알 수 없는 형식 '${format}' (${FEED_FORMATS.join('|')})`);
      } else {
        feeds.push({ name: match[1] ?? `feed-${index + 1}`, category, format, url: match[4] ?? '' });
      }
    });
  return { ...withCleanReference(feeds), problems };
}
