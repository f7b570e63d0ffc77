import type { UrlVerdict } from '../url-detect/checker.js';
import type { ClickInfo, ClickRecorder } from './clicks.js';
import type { LinkStore } from './links.js';
import { CODE_PATTERN } from './shorten.schema.js';
import { systemClock, type Clock } from '../../clock.js';
import { classifyAgent } from './clicks.js';
import type { FacetRecorder } from './click-facets-store.js';
import type { ShortLink } from './links.js';
import type { ShortLinkStore } from './short-link-store.js';
import { boundedCache } from '../../bounded-cache.js';

export type Target = {
  linkId: number;
  url: string;
  /** Issue 36: set when the link has an expiry or a click limit (the fast path leaves those to express). */
  limited?: true;
  expiresAt?: number;
  maxClicks?: number;
  /** A click limit found used up on this instance (it never comes back). */
  usedUp?: true;
  /** Issue 40 item 6: what a rescan found; the link stays behind the warning page. */
  harm?: { category: string; reason: string };
};

/** The redirect's target of a stored link. */
export function targetOfLink(link: ShortLink): Target {
  const target: Target = { linkId: link.id, url: link.url };
  if (link.expiresAt || link.maxClicks) {
    target.limited = true;
    if (link.expiresAt) target.expiresAt = link.expiresAt.getTime();
    if (link.maxClicks) target.maxClicks = link.maxClicks;
  }
  if (link.harmCategory) target.harm = { category: link.harmCategory, reason: link.harmReason ?? '' };
  return target;
}

/** What a click on a limited link may do: go, or a 410 because the link expired or is used up. */
export type Admission = 'go' | 'expired' | 'used_up';

/** Short codes resolved for the redirect (the HTTP door's hottest path). */
export interface Redirects {
  /** The cached target, if known: lets the HTTP door answer without awaiting anything. */
  peek(code: string): Target | false | undefined;
  resolve(code: string): Promise<Target | undefined>;
  /** A newly created link: overrides a remembered miss for its code. */
  remember(code: string, target: Target): void;
  /** The list verdict of a target that is harmful now; undefined when the redirect may go ahead. */
  warning(target: Target): UrlVerdict | undefined;
  recordClick(click: ClickInfo): void;
  /** True for bots and link previewers (isbot), which never take one of `max_clicks`. */
  isBot(userAgent: string | undefined): boolean;
  /** Issue 36: whether a click on a limited link may go; a human click takes one of `max_clicks` atomically. */
  admit(target: Target, click: { counts: boolean }): Promise<Admission>;
  /** Issue 40: a rescan found the target harmful (here or on another instance): drop the cached target. */
  forget(code: string): void;
  /** Forgets every cached target (after a lost connection to the other instances' notices). */
  forgetAll(): void;
}

/** Issue 36/40: where the redirect asks about limited links and tells about clicks. */
export interface RedirectExtras {
  limits?: Pick<ShortLinkStore, 'consumeClick' | 'usedUp'>;
  facets?: Pick<FacetRecorder, 'record'>;
  /** Called for every person's click (the rescan watches for jumps). */
  onHumanClick?: (linkId: number) => void;
  clock?: Clock;
}

/** The redirect-time safety re-check: list hits only (in memory, microseconds). */
export interface RedirectSafety {
  listCheck(url: string): UrlVerdict | undefined;
  /** Changes whenever the lists change: remembered verdicts older than it are recomputed. */
  readonly listVersion: number;
}

/**
 * Resolves short codes for the redirect, the hottest path of the service: an in-process LRU
 * answers repeat codes without the database. Links never change, so hits live until evicted;
 * unknown codes are remembered briefly so a scan of random codes does not hammer the database.
 */
export function createRedirects(
  links: LinkStore,
  clicks: ClickRecorder,
  options: { maxEntries?: number; safety?: RedirectSafety } & RedirectExtras = {},
): Redirects {
  const now = options.clock ?? systemClock;
  // User agents repeat; isbot's pattern is large, so classify each distinct one once.
  const agents = boundedCache<string, boolean>(5_000);
  const isBot = (userAgent: string | undefined): boolean => {
    if (!userAgent) return true;
    let known = agents.get(userAgent);
    if (known === undefined) agents.set(userAgent, (known = classifyAgent(userAgent).isBot));
    return known;
  };
  const cache = boundedCache<string, Target | false>(options.maxEntries ?? 100_000);
  const MISS_TTL_MS = 10_000;
  // Links outlive list updates: each target's verdict is remembered for one list version.
  const checked = new WeakMap<Target, { version: number; verdict: UrlVerdict | undefined }>();

  return {
    /** The cached target, if known: lets the HTTP door answer without awaiting anything. */
    peek(code: string): Target | false | undefined {
      return cache.get(code);
    },

    async resolve(code: string): Promise<Target | undefined> {
      if (!CODE_PATTERN.test(code)) return undefined;
      const cached = cache.get(code);
      if (cached !== undefined) return cached || undefined;
      const link = await links.findByCode(code);
      if (!link) {
        cache.set(code, false, { ttl: MISS_TTL_MS });
        return undefined;
      }
      const target = targetOfLink(link);
      cache.set(code, target);
      return target;
    },

    /** A newly created link: overrides a remembered miss for its code. */
    remember(code: string, target: Target): void {
      cache.set(code, target);
    },

    /**
     * The list verdict of a link's target when it is harmful now, e.g. added to a list after
     * the link was created; undefined when the redirect may go ahead.
     */
    warning(target: Target): UrlVerdict | undefined {
      if (target.harm) return { isMalicious: true, category: target.harm.category as UrlVerdict['category'], reason: target.harm.reason };
      const safety = options.safety;
      if (!safety) return undefined;
      const version = safety.listVersion;
      const memo = checked.get(target);
      if (memo && memo.version === version) return memo.verdict;
      let verdict: UrlVerdict | undefined;
      try {
        verdict = safety.listCheck(target.url);
      } catch {
        verdict = undefined; // a stored URL the canonicalizer refuses is not a list hit
      }
      checked.set(target, { version, verdict });
      return verdict;
    },

    recordClick(click: ClickInfo): void {
      clicks.record(click);
      if (!options.facets && !options.onHumanClick) return;
      const bot = isBot(click.userAgent);
      options.facets?.record({ linkId: click.linkId, userAgent: click.userAgent, ip: click.ip, qr: click.qr === true, isBot: bot });
      if (!bot) options.onHumanClick?.(click.linkId);
    },

    async admit(target: Target, click: { counts: boolean }): Promise<Admission> {
      if (target.expiresAt !== undefined && now().getTime() >= target.expiresAt) return 'expired';
      if (target.maxClicks === undefined) return 'go';
      if (target.usedUp) return 'used_up';
      const limits = options.limits;
      if (!limits) return 'go';
      const ok = click.counts ? await limits.consumeClick(target.linkId) : !(await limits.usedUp(target.linkId));
      if (ok) return 'go';
      target.usedUp = true;
      return 'used_up';
    },

    /** Whether the agent is a bot or a link previewer (they never take one of `max_clicks`). */
    isBot,

    forget(code: string): void {
      cache.delete(code);
    },

    forgetAll(): void {
      cache.clear();
    },
  };
}
