import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import type { CanonicalUrl } from '../canonicalize.js';
import { canonicalizeUrl } from '../canonicalize.js';

/**
 * List entries and URLs meet as "expressions" (Safe Browsing style, extended):
 * - `host/`            a domain entry: the host and every subdomain;
 * - `=host/`           a host entry (hosts files): that host only (`www.` is the same host);
 * - `host/path/`       a URL entry: that page and the pages under it (`site/en` covers
 *                      `site/en/` and `site/en/x`, never `site/english`);
 * - `host/path?query`  a URL entry with a query: that URL exactly.
 * A URL is looked up under every expression an entry for it could have.
 */
export type EntryKind = 'domain' | 'host' | 'url';

/** Path segments looked at for folder entries: phishing-kit paths are rarely deeper. */
const MAX_FOLDERS = 10;
const MAX_HOST_SUFFIXES = 5;

/** Every expression under which a list entry could name this URL (≤ 5 hosts × ≤ 12 paths, plus the exact host). */
export function lookupExpressions(url: CanonicalUrl): string[] {
  const paths = pathPrefixes(url);
  const out: string[] = [];
  for (const host of hostSuffixes(url)) for (const path of paths) out.push(host + path);
  out.push(`=${stripWww(url.host)}/`);
  return out;
}

/** True when the expression names a whole host or domain rather than a page. */
export function isWholeHostExpression(expression: string): boolean {
  return expression.indexOf('/') === expression.length - 1;
}

/** The host an expression names (`=host/`, `host/`, `host/path…`). */
export function expressionHost(expression: string): string {
  const slash = expression.indexOf('/');
  return expression.startsWith('=') ? expression.slice(1, slash) : expression.slice(0, slash === -1 ? undefined : slash);
}

function hostSuffixes(url: CanonicalUrl): string[] {
  if (url.ipVersion) return [url.host];
  const labels = url.host.split('.');
  const hosts = [url.host];
  const start = Math.max(1, labels.length - MAX_HOST_SUFFIXES);
  for (let i = start; i < labels.length - 1 && hosts.length < MAX_HOST_SUFFIXES; i++) hosts.push(labels.slice(i).join('.'));
  return [...new Set(hosts)];
}

function pathPrefixes(url: CanonicalUrl): string[] {
  const paths: string[] = [];
  if (url.query !== undefined) paths.push(`${url.path}?${url.query}`);
  const segments = url.path.split('/').slice(1).filter(Boolean);
  let prefix = '/';
  paths.push(prefix);
  for (const segment of segments.slice(0, MAX_FOLDERS)) {
    prefix += `${segment}/`;
    paths.push(prefix);
  }
  return paths;
}

function stripWww(host: string): string {
  return host.startsWith('www.') && host.split('.').length > 2 ? host.slice(4) : host;
}

/**
 * A host as list authors write it, normalized: BOM, case, trailing dots, `*.` and leading-dot
 * wildcards, `:port`, brackets, Unicode names (to punycode). Undefined when it is no host name.
 */
export function normalizeHost(raw: string): { host: string; wildcard: boolean } | undefined {
  let text = raw
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();
  let wildcard = false;
  if (text.startsWith('*.')) [text, wildcard] = [text.slice(2), true];
  else if (text.startsWith('.')) [text, wildcard] = [text.slice(1), true];
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    const ip = text.slice(1, end);
    return end > 0 && isIP(ip) === 6 ? { host: ip, wildcard } : undefined;
  }
  text = text.replace(/:\d{1,5}$/, '').replace(/\.+$/, '');
  if (!text || text.includes('*') || /[\s/@?#]/.test(text)) return undefined;
  if (isIP(text)) return { host: text, wildcard };
  const ascii = /^[\x21-\x7e]+$/.test(text) ? text : domainToASCII(text);
  if (!ascii || !ascii.includes('.') || !/^[a-z0-9_.-]+$/.test(ascii) || /\.\.|^\./.test(ascii)) return undefined;
  // A bare top-level label or a dotted number that is not an address is no host.
  if (/^[0-9.]+$/.test(ascii)) return undefined;
  return { host: ascii, wildcard };
}

/**
 * The expression of one list entry: a bare name is a domain entry (or a host entry when
 * `bareHost` is 'host', as in hosts files); anything with a path, a scheme or a query is a
 * URL entry. Undefined for what is neither (comments, garbage, mid-name wildcards).
 */
export function entryExpression(entry: string, bareHost: 'domain' | 'host' = 'domain'): string | undefined {
  const text = entry.replace(/^\uFEFF/, '').trim();
  if (!text || text.startsWith('#')) return undefined;
  const slash = text.search(/[/?]/);
  if (!/^https?:\/\//i.test(text) && (slash === -1 || /^[/?]*$/.test(text.slice(slash)))) {
    const name = normalizeHost(slash === -1 ? text : text.slice(0, slash));
    if (!name) return undefined;
    return bareHost === 'host' && !name.wildcard ? `=${stripWww(name.host)}/` : `${name.host}/`;
  }
  return urlExpression(/^https?:\/\//i.test(text) ? text : `http://${text}`);
}

function urlExpression(text: string): string | undefined {
  const hostPart = /^https?:\/\/([^/?#]*)/i.exec(text)?.[1] ?? '';
  const name = normalizeHost(hostPart.replace(/^.*@/, ''));
  if (!name) return undefined;
  let url: CanonicalUrl;
  try {
    url = canonicalizeUrl(text.replace(hostPart, name.host.includes(':') ? `[${name.host}]` : name.host));
  } catch {
    return undefined;
  }
  if (url.query !== undefined && url.query !== '') return `${url.host}${url.path}?${url.query}`;
  const path = url.path.endsWith('/') ? url.path : `${url.path}/`;
  return `${url.host}${path}`;
}
