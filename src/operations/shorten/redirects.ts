import { LRUCache } from 'lru-cache';
import type { UrlVerdict } from '../url-detect/checker.js';
import type { ClickInfo, ClickRecorder } from './clicks.js';
import type { LinkStore } from './links.js';
import { CODE_PATTERN } from './shorten.schema.js';

export type Target = { linkId: number; url: string };

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
  options: { maxEntries?: number; safety?: RedirectSafety } = {},
): Redirects {
  const cache = new LRUCache<string, Target | false>({ max: options.maxEntries ?? 100_000 });
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
      const target = { linkId: link.id, url: link.url };
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
    },
  };
}
