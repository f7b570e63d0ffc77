import type { CanonicalUrl } from './canonicalize.js';
import { canonicalizeUrl } from './canonicalize.js';

/**
 * Safe Browsing's lookup expressions of a canonical URL: up to 5 host suffixes times up to
 * 6 path prefixes (at most 30 strings). A list entry `example.com/` then covers every URL
 * on example.com and its subdomains, `example.com/ads/` a folder, `example.com/a.exe` a file.
 */
export function lookupExpressions(url: CanonicalUrl): string[] {
  const hosts = hostSuffixes(url);
  const paths = pathPrefixes(url);
  const out: string[] = [];
  for (const host of hosts) for (const path of paths) out.push(host + path);
  return out;
}

/** The expressions whose entry sits on the host alone (`host/`), i.e. whole-domain entries. */
export function isWholeHostExpression(expression: string): boolean {
  return expression.indexOf('/') === expression.length - 1;
}

function hostSuffixes(url: CanonicalUrl): string[] {
  if (url.ipVersion) return [url.host];
  const labels = url.host.split('.');
  const hosts = [url.host];
  // Start from the last five labels and drop leading ones; never the bare top-level label.
  const start = Math.max(1, labels.length - 5);
  for (let i = start; i < labels.length - 1 && hosts.length < 5; i++) hosts.push(labels.slice(i).join('.'));
  return [...new Set(hosts)];
}

function pathPrefixes(url: CanonicalUrl): string[] {
  const paths: string[] = [];
  if (url.query !== undefined) paths.push(`${url.path}?${url.query}`);
  paths.push(url.path);
  const segments = url.path.split('/').slice(1, -1);
  let prefix = '/';
  const folders = [prefix];
  for (const segment of segments) {
    if (folders.length >= 4) break;
    prefix += `${segment}/`;
    folders.push(prefix);
  }
  for (const folder of folders) if (!paths.includes(folder)) paths.push(folder);
  return paths;
}

/**
 * The list expression for a feed or team entry: a bare domain becomes `domain/`, a URL its
 * canonical `host/path[?query]`. Undefined for what is neither (comments, garbage).
 */
export function entryExpression(entry: string): string | undefined {
  const text = entry.trim();
  if (!text || text.startsWith('#')) return undefined;
  if (/^https?:\/\//i.test(text)) {
    try {
      const url = canonicalizeUrl(text);
      return `${url.host}${url.path}${url.query !== undefined ? `?${url.query}` : ''}`;
    } catch {
      return undefined;
    }
  }
  const [hostPart = '', ...rest] = text.replace(/^\*\./, '').split('/');
  const host = hostPart.replace(/\.$/, '').toLowerCase();
  if (!/^[a-z0-9.-]+$/.test(host) || !host.includes('.') || host.startsWith('.')) return undefined;
  if (rest.length === 0 || rest.join('/') === '') return `${host}/`;
  return entryExpression(`http://${text}`);
}
