import { parse as parseHost } from 'tldts';
import { MESSAGE_RULES, type MessageRules } from './message-rules.js';

/** At most this many distinct URLs are taken from one message (the API checks no more). */
export const MAX_URLS = 20;
/** Longer text is read only up to here: the scan stays linear and bounded. */
export const MAX_SCAN_CHARS = 20_000;
/** Longer candidates are not links anyone clicks (and the detector refuses them). */
const MAX_URL_LENGTH = 2048;

export interface ExtractedUrls {
  /** Absolute `http(s)` URLs in order of appearance, de-duplicated, at most the limit. */
  urls: string[];
  /** How many distinct URLs were found before the limit. */
  found: number;
}

/** RFC 3986 characters: anything else (Hangul, spaces, full-width marks) ends a URL. */
const URL_CHARS = String.raw`[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]`;
const SCHEME_URL = new RegExp(String.raw`https?://${URL_CHARS}+`, 'gi');
/** A host without a scheme, not inside a word, an e-mail or a number (`v1.2.3`). */
const BARE_HOST = new RegExp(
  String.raw`(?<![A-Za-z0-9@._%+\-/])((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9-]{0,62})(:\d{1,5})?([/?#]${URL_CHARS}*)?`,
  'g',
);
/** An IPv4 address counts without a scheme only with a port or a path (else it is a number). */
const BARE_IPV4 = new RegExp(String.raw`(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?:(:\d{1,5})([/?#]${URL_CHARS}*)?|([/?#]${URL_CHARS}*))`, 'g');
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

/**
 * Every URL a person would see in the parts of one message (its text, a Slack label, a Discord
 * embed's url…): plain, Slack `<url|label>`, Markdown links, bare hosts with a path, and the
 * ways people defang or mangle links (`hxxp`, `[.]`, `[dot]`, spaces around dots, full-width
 * characters, Hangul glued on either side). Pure and bounded: at most `limit` URLs.
 */
export function extractUrls(parts: string | readonly string[], limit = MAX_URLS, rules: MessageRules = MESSAGE_RULES): ExtractedUrls {
  const seen = new Set<string>();
  const urls: string[] = [];
  let budget = MAX_SCAN_CHARS;
  for (const part of typeof parts === 'string' ? [parts] : parts) {
    if (budget <= 0) break;
    const text = part.slice(0, budget);
    budget -= text.length;
    for (const url of urlsInText(text, rules)) {
      if (seen.has(url)) continue;
      seen.add(url);
      if (urls.length < limit) urls.push(url);
    }
  }
  return { urls, found: seen.size };
}

/** The URLs of one text in order of appearance (with repeats). */
function urlsInText(text: string, rules: MessageRules): string[] {
  const work = defang(unwrapMarkup(text.normalize('NFKC')), rules);
  const found: Array<{ at: number; url: string }> = [];
  for (const match of work.matchAll(SCHEME_URL)) {
    const url = absoluteUrl(trimTail(withHangulPath(work, match[0], match.index)));
    if (url) found.push({ at: match.index, url });
  }
  // What was found with a scheme, and e-mail addresses, are blanked (same length) before looking for bare hosts.
  const spaces = (match: string) => ' '.repeat(match.length);
  const rest = work.replace(SCHEME_URL, spaces).replace(EMAIL, spaces);
  for (const match of rest.matchAll(BARE_HOST)) {
    const [, host = '', port, path] = match;
    const tail = trimTail(withHangulPath(rest, `${port ?? ''}${path ?? ''}`, match.index + host.length));
    if (!isBareLink(host, tail, rules)) continue;
    const url = absoluteUrl(`http://${host}${tail}`);
    if (url) found.push({ at: match.index, url });
  }
  for (const match of rest.matchAll(BARE_IPV4)) {
    const [whole, ip = ''] = match;
    if (!ip.split('.').every((octet) => Number(octet) <= 255)) continue;
    const url = absoluteUrl(`http://${ip}${trimTail(whole.slice(ip.length))}`);
    if (url) found.push({ at: match.index, url });
  }
  return found.sort((a, b) => a.at - b.at).map((entry) => entry.url);
}

const HANGUL_SEGMENT = /[\uAC00-\uD7A3][A-Za-z0-9\-._~%@/\uAC00-\uD7A3]*/y;

/**
 * `gourl.kr/사건조회KM`: Korean smishing puts Hangul in short links' paths, and phones link it.
 * Hangul right after a `/` continues the path (to the next space); Hangul after any other
 * character ends the URL (`http://x.kr/a클릭`).
 */
function withHangulPath(text: string, candidate: string, start: number): string {
  if (!candidate.endsWith('/')) return candidate;
  HANGUL_SEGMENT.lastIndex = start + candidate.length;
  return candidate + (HANGUL_SEGMENT.exec(text)?.[0] ?? '');
}

/** Slack's `<url|label>` / `<url>` and its HTML escapes, and Markdown's `[label](url)`: the URL and the label apart. */
function unwrapMarkup(text: string): string {
  return text
    .replace(/<([^<>|\s]{1,2048})(?:\|([^<>]{0,2048}))?>/g, (_, url: string, label?: string) => ` ${url} ${label ?? ''} `)
    .replace(/&lt;|&gt;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/\]\(/g, '] (');
}

/** Undoes the usual ways of writing a link so that it does not link (or that OCR and phones produce). */
function defang(text: string, rules: MessageRules): string {
  const tlds = rules.extraction.bareSuffixes.filter((suffix) => !suffix.includes('.')).join('|');
  return (
    text
      .replace(/h(?:xx|XX|\*\*|tt)p(s?)(?=\s*(?:\[:\]|\(:\)|:))/gi, 'http$1')
      .replace(/\s*(?:\[:\]|\(:\))\s*/g, ':')
      .replace(/\s*[[({]\s*(?:\.|dot|점)\s*[\])}]\s*/gi, '.')
      .replace(/(?<=[A-Za-z0-9])[。｡](?=[A-Za-z0-9])/g, '.')
      // `http: //`, `https : / /`, `http;//` (OCR and careless typing).
      .replace(/\b(https?)[ \t]*[:;][ \t]*\/[ \t]*\/[ \t]*/gi, '$1://')
      // `naver . com`, `naver .com`: a space before a dot is never punctuation.
      .replace(/(?<=[A-Za-z0-9-])[ \t]+\.[ \t]*(?=[A-Za-z0-9])/g, '.')
      // `bit. ly/x`, `naver. com`: only before a common ending, so a sentence's full stop stays.
      .replace(new RegExp(String.raw`(?<=[A-Za-z0-9-])\.[ \t]+(?=(?:${tlds})(?![A-Za-z0-9-]))`, 'gi'), '.')
      .replace(DOT_READ_AS_SPACE, (whole, host: string, ending: string) => joinedHost(whole, host, `.${ending}`))
      .replace(HOST_BROKEN_AT_LINE, (whole, head: string, rest: string) => joinedHost(whole, head, rest))
      .replace(PATH_BROKEN_AT_LINE, '$1')
  );
}

/** `head` + `rest` when only the joined host ends in a known public suffix (OCR's and phones' breaks); else `whole` unchanged. */
function joinedHost(whole: string, head: string, rest: string): string {
  const host = (url: string) => url.replace(/^https?:\/\//i, '');
  return endsInSuffix(host(head)) || !endsInSuffix(host(head + rest)) ? whole : head + rest;
}

/**
 * `http://ca05.n2yd wtf/abc`, `http://ca05.n2yd. wtf`, `https://ksch93 tistory.com`: OCR read a
 * dot as a space, or a space after it, before the rest of the host (joined only when that makes
 * a known suffix).
 */
const DOT_READ_AS_SPACE =
  /(https?:\/\/[A-Za-z0-9.-]{0,252}[A-Za-z0-9-])\.?[ \t]+([A-Za-z][A-Za-z0-9-]{1,62}(?:\.[A-Za-z0-9-]{1,63})*)(?=[/?#:]|\s|$)/gi;

/** `https://www.koreaher⏎ald.com/`: a phone wrapped the host at the bubble's edge. */
const HOST_BROKEN_AT_LINE =
  /(https?:\/\/[A-Za-z0-9.-]{1,253})[ \t]*\r?\n[ \t]*(\.?[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*)(?=[/?#:]|\s|$)/gi;

/** `https://omoney.kbstar.com⏎/quics?page=1`: a phone wrapped a link just before its path (the next line starts with `/` or `?`). */
const PATH_BROKEN_AT_LINE = new RegExp(String.raw`(https?://${URL_CHARS}+)[ \t]*\r?\n[ \t]*(?=[/?][A-Za-z0-9])`, 'gi');

function endsInSuffix(host: string): boolean {
  const parsed = parseHost(host.toLowerCase());
  return parsed.isIcann === true && Boolean(parsed.domainWithoutSuffix);
}

/** Whether a host without a scheme is a link and not a word (`Mr.Kim`), a file name or a number. */
function isBareLink(host: string, tail: string, rules: MessageRules): boolean {
  const parsed = parseHost(host.toLowerCase());
  if (!parsed.isIcann || !parsed.domainWithoutSuffix || !parsed.publicSuffix) return false;
  if (tail.length > 0 || /^www\./i.test(host)) return true;
  if (rules.extraction.fileExtensionSuffixes.includes(parsed.publicSuffix)) return false;
  // A name with a digit (`cco5cc2x.tax`) is a throw-away domain, not a word written with a dot.
  return Boolean(parsed.subdomain) || /\d/.test(parsed.domainWithoutSuffix) || rules.extraction.bareSuffixes.includes(parsed.publicSuffix);
}

/** Drops what ends a sentence rather than a URL: punctuation, quotes, unbalanced brackets. */
function trimTail(candidate: string): string {
  let url = candidate;
  for (;;) {
    const last = url.at(-1);
    if (last === undefined) return url;
    if (/[.,;:!?'"*]/.test(last)) url = url.slice(0, -1);
    else if (last === ')' && count(url, '(') < count(url, ')')) url = url.slice(0, -1);
    else if (last === ']' && count(url, '[') < count(url, ']')) url = url.slice(0, -1);
    else return url;
  }
}

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/**
 * The URL as WHATWG parses it, when its host is an IP address or a dotted name ending in a
 * label with a letter (a scheme makes any such ending a link; bare hosts were checked against
 * the public suffixes already); else nothing.
 */
function absoluteUrl(candidate: string): string | undefined {
  if (candidate.length > MAX_URL_LENGTH || !URL.canParse(candidate)) return undefined;
  const url = new URL(candidate);
  if (parseHost(url.hostname).isIp) return url.href;
  const labels = url.hostname.split('.');
  const last = labels.at(-1) ?? '';
  return labels.length >= 2 && /^(?=.*[a-z])[a-z0-9-]{2,63}$/.test(last) ? url.href : undefined;
}
