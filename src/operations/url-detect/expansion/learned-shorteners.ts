import { getDomain } from 'tldts';
import type { CanonicalUrl } from '../canonicalize.js';
import type { Signal } from '../signals.js';
import { WEIGHTS } from '../rules/tables.js';
import { SHORTENERS } from './shorteners.js';

/**
 * Shorteners learned from the feeds (issue 50 item 6): Korean smishing moves to a new public
 * shortener faster than anyone edits data/shorteners.json. A shortener shows itself in the
 * reports: many distinct reported links on one registered domain, each a short opaque code
 * (`han.gl/Ab3dE`, `c11.kr/x9Kq`). Counted as the feeds are stored (one `host⇥codes` line a
 * host, kept with the feed's other chunks), decided when the lists load, used where the shipped
 * list is: a link on it hides its target (and is followed when `URL_EXPAND` is on), its host
 * teaches the smishing model nothing, and it is never read as a campaign's throw-away domain.
 */

const RULE = WEIGHTS.learnedShorteners;
/** A single path segment of letters, digits, `-`, `_` (the expression form ends in '/'). */
const CODE_PATH = new RegExp(`^/([A-Za-z0-9_-]{${RULE.minCode},${RULE.maxCode}})/$`);
/** Random codes mix cases or digits with letters; a word-like slug (`/event/`) is a page name, not a code. */
const OPAQUE = (code: string) => /[A-Za-z]/.test(code) && /[0-9A-Z]/.test(code);
/** Distinct codes remembered per host while a feed streams by: enough to decide, bounded in memory. */
const CODES_KEPT = 64;

/** Counts a feed's short-code links per host as its expressions stream by. */
export class ShortCodeCounter {
  private readonly codes = new Map<string, Set<string>>();

  /** `host/path/` of a listed page; whole hosts and queries say nothing about codes. */
  add(host: string, expression: string): void {
    const slash = expression.indexOf('/');
    if (slash < 0 || expression.includes('?') || expression.startsWith('=')) return;
    const code = CODE_PATH.exec(expression.slice(slash))?.[1];
    if (!code || !OPAQUE(code)) return;
    const bare = host.startsWith('www.') ? host.slice(4) : host;
    let seen = this.codes.get(bare);
    if (!seen) this.codes.set(bare, (seen = new Set()));
    if (seen.size < CODES_KEPT) seen.add(code);
  }

  /** `host⇥count` lines (stored with the feed). */
  finish(): string {
    return [...this.codes].map(([host, codes]) => `${host}\t${codes.size}`).join('\n');
  }
}

export interface LearnedShorteners {
  /** Registered domains learned as shorteners, the shipped ones aside. */
  hosts: ReadonlySet<string>;
  /** Short-code links the decision read (every feed's, summed). */
  links: number;
  trainedAt: string;
}

/** The shorteners the stored feeds show: a registered domain with `minLinks` distinct short codes reported. */
export function learnShorteners(counts: readonly string[], now: Date): LearnedShorteners {
  const perHost = new Map<string, number>();
  let links = 0;
  for (const text of counts) {
    for (const line of text.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const count = Number(line.slice(tab + 1));
      const host = line.slice(0, tab);
      perHost.set(host, (perHost.get(host) ?? 0) + count);
      links += count;
    }
  }
  const hosts = new Set<string>();
  // A shortener serves from its registered domain (`han.gl`); sub-domains with codes are kits' pages.
  for (const [host, count] of perHost) if (count >= RULE.minLinks && !SHORTENERS.has(host) && getDomain(host) === host) hosts.add(host);
  return { hosts, links, trainedAt: now.toISOString() };
}

/** The shortener a host is served by: shipped (data/shorteners.json) or learned from the feeds. */
export function learnedShortenerOf(host: string, learned: LearnedShorteners | undefined): string | undefined {
  const bare = host.startsWith('www.') ? host.slice(4) : host;
  return SHORTENERS.has(bare) || learned?.hosts.has(bare) ? bare : undefined;
}

/** The shipped list's "hides its target" signal (rules/structure.ts), for a learned shortener's link. */
export function learnedShortenerSignals(url: CanonicalUrl, learned: LearnedShorteners | undefined): Signal[] {
  if (!learned || !url.domain || url.path.length <= 1 || SHORTENERS.has(url.domain) || !learned.hosts.has(url.domain)) return [];
  return [
    {
      category: 'spam',
      weight: WEIGHTS.structure.shortener ?? 0,
      reason: `단축 URL이라 최종 목적지를 확인할 수 없음(신고된 링크로 알아낸 단축 URL 서비스 ${url.domain})`,
    },
  ];
}
