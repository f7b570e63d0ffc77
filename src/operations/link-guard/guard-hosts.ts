import { createHash } from 'node:crypto';

/** A URL's host, lower-cased; empty when it is no URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** The host itself or a subdomain of an allowed host. */
export function isAllowed(host: string, allowed: readonly string[]): boolean {
  return host !== '' && allowed.some((entry) => host === entry || host.endsWith(`.${entry}`));
}

/** A host typed by a person (`example.com`, `https://example.com/x`, `<https://…|…>`), lower-cased; undefined when it is none. */
export function normaliseHost(input: string): string | undefined {
  const trimmed = input.trim().replace(/^<|>$/g, '').split('|')[0]!.trim();
  const candidate = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  if (!URL.canParse(candidate)) return undefined;
  const host = new URL(candidate).hostname.toLowerCase().replace(/\.$/, '');
  return /^[a-z0-9.-]+\.[a-z0-9-]{2,}$/.test(host) || /^\[[0-9a-f:]+\]$/.test(host) ? host : undefined;
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
