import { isIP } from 'node:net';
import { parse as parseDomain } from 'tldts';

/** Hashed feature space of the lexical model: 2^20 buckets keep collisions rare at 8 MB a class. */
export const FEATURE_BITS = 20;
/** Bumped whenever `hostFeatures` changes: a model saved with other features is retrained, not misread. */
export const FEATURE_VERSION = 2;
const FEATURE_MASK = (1 << FEATURE_BITS) - 1;

/** A feature of a host: its bucket and the text it stands for (for the Korean reason). */
export interface HostFeatures {
  ids: Uint32Array;
  /** Human-readable name of each feature, same order as `ids`. */
  names: string[];
}

/**
 * What the model reads of a host: character 3- to 5-grams of the part its owner chose (left
 * of the public suffix, private suffixes such as `vercel.app` included), its labels as words,
 * the suffix, and coarse shape (label count, length, digits, hyphens, punycode, IP).
 * The path is left to the rules: the clean reference lists carry hosts only, so path grams
 * would teach "has a path" rather than "is harmful".
 */
export function hostFeatures(host: string): HostFeatures {
  const names: string[] = [];
  if (isIP(host)) {
    names.push('#ip');
    return finish(names);
  }
  const parsed = parseDomain(host, { allowPrivateDomains: true });
  const suffix = parsed.publicSuffix ?? host.slice(host.lastIndexOf('.') + 1);
  const own = host.endsWith(`.${suffix}`) ? host.slice(0, -suffix.length - 1) : host;
  // The platform of a shared-hosting name (github.io, r2.dev) is no evidence either way: its
  // phishing pages fill the lists while its honest pages are too many and too small for any
  // top-sites list, so only the part the owner chose is read.
  if (!parsed.isPrivate) names.push(`.${suffix}`);
  const labels = own.split('.');
  const registrable = labels[labels.length - 1] ?? '';
  names.push(`#labels:${Math.min(labels.length, 5)}`, `#len:${bucket(registrable.length, [4, 6, 8, 11, 15, 20, 30])}`);
  const digits = (registrable.match(/\d/g) ?? []).length;
  names.push(`#digits:${bucket(digits, [0, 1, 3, 6])}`, `#hyphens:${bucket((registrable.match(/-/g) ?? []).length, [0, 1, 2])}`);
  if (own.includes('xn--')) names.push('#punycode');
  // Shape read together with the suffix: a long, digit-laden name means one thing under .com,
  // another under .xyz; pronounceability (vowel share, longest consonant run) marks made-up names.
  const tld = parsed.isPrivate ? '#shared' : `.${suffix}`;
  const letters = registrable.replace(/[^a-z]/g, '');
  const vowels = (letters.match(/[aeiouy]/g) ?? []).length;
  const run = Math.max(0, ...(letters.match(/[^aeiouy]+/g) ?? []).map((r) => r.length));
  names.push(
    `#tld-len:${tld}:${bucket(registrable.length, [5, 8, 12, 18])}`,
    `#tld-digits:${tld}:${bucket(digits, [0, 2])}`,
    `#tld-labels:${tld}:${Math.min(labels.length, 4)}`,
    `#vowels:${bucket(letters.length === 0 ? 0 : Math.round((vowels / letters.length) * 10), [1, 2, 3, 4, 5])}`,
    `#consonants:${bucket(run, [2, 3, 4, 5])}`,
  );
  for (const label of labels) if (label) names.push(`w:${label}`);
  const text = `^${registrable}$`;
  for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= text.length; i++) names.push(text.slice(i, i + n));
  // Subdomain labels weigh less as grams: a few words each.
  for (const label of labels.slice(0, -1)) {
    const sub = `<${label}>`;
    for (let i = 0; i + 4 <= sub.length; i++) names.push(`s:${sub.slice(i, i + 4)}`);
  }
  return finish(names);
}

function finish(names: string[]): HostFeatures {
  const unique = [...new Set(names)];
  const ids = new Uint32Array(unique.length);
  unique.forEach((name, i) => (ids[i] = fnv1a(name) & FEATURE_MASK));
  return { ids, names: unique };
}

function bucket(value: number, edges: number[]): string {
  const index = edges.findIndex((edge) => value <= edge);
  return index === -1 ? `>${edges[edges.length - 1]}` : `≤${edges[index]}`;
}

/** 32-bit FNV-1a of a feature name: its bucket (the message model hashes its features the same way). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
