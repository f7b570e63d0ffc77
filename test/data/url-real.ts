import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { domainToUnicode, pathToFileURL } from 'node:url';
import { getDomain } from 'tldts';
import { expressionHost, type LoadedFeed } from '../../src/operations/url-detect/lists/detection-lists.js';
import { parseFeed, type FeedCategory, type FeedFormat } from '../../src/operations/url-detect/lists/feeds.js';
import { sharedDataPath } from '../helpers/shared-data.js';

/**
 * The real public lists in ../shared/data/url-lists, read in place (never copied into the
 * repository). Their README describes each file; this module names the files and splits them.
 */
export const REAL_LISTS_DIR = pathToFileURL(sharedDataPath('url-lists/'));

export function realListsPresent(): boolean {
  return existsSync(new URL('README.md', REAL_LISTS_DIR));
}

export interface RealFile {
  file: string;
  category: FeedCategory;
  format: FeedFormat;
}

/** The latest snapshot of each list: what a production instance would have loaded. */
export const LATEST: readonly RealFile[] = [
  { file: 'gambling-estonia-emta-abp-2025-09-03.txt', category: 'gambling', format: 'adblock' },
  { file: 'adult-antiporn-hosts-2026-03-06.txt.gz', category: 'adult', format: 'hosts' },
  { file: 'phishing-openphish-adblock-2025-04-18.txt.gz', category: 'phishing', format: 'adblock' },
  { file: 'spam-gaso-scam-2026-03-09.txt', category: 'spam', format: 'domains' },
  { file: 'malware-usom-2022-12-15.txt.gz', category: 'malware', format: 'domains' },
];

/** The older snapshot of each dated pair (USOM has one snapshot; it stays in both). */
export const OLDER: readonly RealFile[] = [
  { file: 'gambling-estonia-emta-2022-06-14.txt', category: 'gambling', format: 'domains' },
  { file: 'adult-antiporn-hosts-2023-09-11.txt.gz', category: 'adult', format: 'hosts' },
  { file: 'phishing-openphish-adblock-2024-09-27.txt.gz', category: 'phishing', format: 'adblock' },
  { file: 'spam-gaso-scam-2025-01-06.txt.gz', category: 'spam', format: 'domains' },
  { file: 'malware-usom-2022-12-15.txt.gz', category: 'malware', format: 'domains' },
];

export const CLEAN: RealFile = { file: 'clean-umbrella-top-100k-2026-07-24.txt.gz', category: 'clean', format: 'domains' };

const cache = new Map<string, LoadedFeed & { entries: string[] }>();

/** A file parsed with the service's own feed parser. */
export function readReal(spec: RealFile): LoadedFeed & { entries: string[] } {
  let feed = cache.get(spec.file);
  if (!feed) {
    const parsed = parseFeed(readFileSync(new URL(spec.file, REAL_LISTS_DIR)), spec.format);
    feed = { name: spec.file.replace(/\.txt(\.gz)?$/, ''), category: spec.category, entries: [...parsed.entries], exceptions: [...parsed.exceptions] };
    cache.set(spec.file, feed);
  }
  return feed;
}

/**
 * Ten buckets by registrable domain (private suffixes count: each github.io site is its own):
 * 0–1 are the held-out part, never looked at while tuning; 2–3 the dev test part; 4–9 train.
 */
export type Part = 'heldout' | 'dev' | 'train';

export function partOf(expression: string): Part {
  const host = expressionHost(expression);
  const domain = getDomain(host, { allowPrivateDomains: true }) ?? host;
  const bucket = (createHash('sha1').update(domain).digest()[0] ?? 0) % 10;
  return bucket < 2 ? 'heldout' : bucket < 4 ? 'dev' : 'train';
}

/** A test URL for a list expression: the host's home page, or the page the entry names. */
export function urlOf(expression: string): string {
  if (expression.startsWith('=')) return `https://${expressionHost(expression)}/`;
  const path = expression.slice(expression.indexOf('/'));
  return `https://${expressionHost(expression)}${path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path}`;
}

const KOREAN_BRANDS = /naver|kakao|daum|hanmail|coupang|toss|nonghyup|kbstar|shinhan|woori|epost|nate\.com|korea|hometax|samsung/;

/** Korean by the data README's rule: `.kr`, a Hangul IDN host, or a Korean brand named. */
export function isKorean(expression: string): boolean {
  const host = expressionHost(expression);
  return /\.kr$/.test(host) || (host.includes('xn--') && /[\uac00-\ud7a3]/.test(domainToUnicode(host))) || KOREAN_BRANDS.test(expression);
}
