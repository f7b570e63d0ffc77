import { isIP } from 'node:net';
import { domainToUnicode } from 'node:url';
import { parse as parseDomain } from 'tldts';
import { fieldError, type AppError } from '../../errors.js';

/** A URL in Safe Browsing's canonical form, with the parts the rules look at. */
export interface CanonicalUrl {
  /** `scheme://host[:port]/path[?query]`, fragment dropped: the cache key and the answer's `url`. */
  href: string;
  scheme: 'http' | 'https';
  /** Lower-case ASCII host (punycode for IDN), no brackets around IPv6. */
  host: string;
  /** The same host in Unicode, for homoglyph and Korean-word checks. */
  hostUnicode: string;
  /** Explicit non-default port, or ''. */
  port: string;
  /** Safe Browsing path: `..` resolved, runs of `/` collapsed, escaped; starts with `/`. */
  path: string;
  /** Query without `?`, or undefined when the URL has none. */
  query: string | undefined;
  /** Path and query fully percent-decoded and lower-cased: what the word rules read. */
  decodedText: string;
  ipVersion: 0 | 4 | 6;
  /** `user@` or `user:pass@` was present (a classic way to hide the real host). */
  hasUserinfo: boolean;
  /** Registrable domain (`tldts`, ICANN suffixes), or undefined for IPs and bare suffixes. */
  domain: string | undefined;
  /** The registrable domain without its public suffix (`naver` of `naver.com`). */
  domainLabel: string;
  publicSuffix: string;
  /** Labels left of the registrable domain (`a.b` of `a.b.naver.com`). */
  subdomain: string;
}

const MAX_UNESCAPE_ROUNDS = 8;

/**
 * Canonicalizes the way Safe Browsing does (WHATWG parsing already lower-cases the host,
 * converts IDN to punycode, normalizes IPv4 number forms, drops default ports and resolves
 * dot segments); on top: repeated unescaping, collapsed slashes, trimmed host dots and
 * Safe Browsing's re-escaping. Anything but an absolute http(s) URL is a 400 naming `url`.
 */
export function canonicalizeUrl(raw: string): CanonicalUrl {
  const cleaned = raw.trim().replace(/[\t\r\n]/g, '');
  if (!/^https?:\/\//i.test(cleaned) || !URL.canParse(cleaned)) {
    throw invalidUrl('http:// 또는 https://로 시작하는 올바른 URL이 아닙니다.');
  }
  const url = new URL(cleaned);
  const hostRaw = url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.{2,}/g, '.')
    .replace(/^\.+|\.+$/g, '');
  if (!hostRaw) throw invalidUrl('호스트가 없는 URL입니다.');
  const ipVersion = isIP(hostRaw) as 0 | 4 | 6;

  const scheme = url.protocol === 'https:' ? 'https' : 'http';
  const path = escapeSafeBrowsing(collapseSlashes(resolveDots(fullyUnescape(url.pathname))));
  const query = url.search ? escapeSafeBrowsing(fullyUnescape(url.search.slice(1))) : undefined;
  const hostForHref = ipVersion === 6 ? `[${hostRaw}]` : hostRaw;
  const href = `${scheme}://${hostForHref}${url.port ? `:${url.port}` : ''}${path}${query !== undefined ? `?${query}` : ''}`;

  const parsed = ipVersion ? undefined : parseDomain(hostRaw);
  const domain = parsed?.domain ?? undefined;
  return {
    href,
    scheme,
    host: hostRaw,
    hostUnicode: ipVersion ? hostRaw : domainToUnicode(hostRaw) || hostRaw,
    port: url.port,
    path,
    query,
    decodedText: fullyUnescape(url.pathname + url.search).toLowerCase(),
    ipVersion,
    hasUserinfo: url.username !== '' || url.password !== '',
    domain,
    domainLabel: parsed?.domainWithoutSuffix ?? '',
    publicSuffix: parsed?.publicSuffix ?? '',
    subdomain: parsed?.subdomain ?? '',
  };
}

/** Percent-decodes until nothing changes; malformed sequences are left as they are. */
export function fullyUnescape(text: string): string {
  let current = text;
  for (let round = 0; round < MAX_UNESCAPE_ROUNDS; round++) {
    const next = current.replace(/(%[0-9a-fA-F]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        // Not valid UTF-8 as a whole: decode byte by byte as Latin-1 so the text still advances.
        return run.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      }
    });
    if (next === current) return current;
    current = next;
  }
  return current;
}

function resolveDots(path: string): string {
  const out: string[] = [];
  const segments = path.split('/');
  segments.forEach((segment, index) => {
    if (segment === '..') out.length > 1 && out.pop();
    else if (segment !== '.' || index === segments.length - 1) out.push(segment === '.' ? '' : segment);
  });
  const joined = out.join('/');
  return joined.startsWith('/') ? joined : `/${joined}`;
}

function collapseSlashes(path: string): string {
  return path.replace(/\/{2,}/g, '/');
}

/** Safe Browsing escapes bytes <= 0x20, >= 0x7f, `#` and `%` as `%XX` (upper-case hex). */
function escapeSafeBrowsing(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    out +=
      byte <= 0x20 || byte >= 0x7f || byte === 0x23 || byte === 0x25
        ? `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
        : String.fromCharCode(byte);
  }
  return out;
}

function invalidUrl(reason: string): AppError {
  return fieldError('url', { ko: reason, en: 'Not a valid absolute http(s) URL.' });
}
