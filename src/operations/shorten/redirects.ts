import { LRUCache } from 'lru-cache';
import type { ClickInfo, ClickRecorder } from './clicks.js';
import type { LinkStore } from './links.js';
import { CODE_PATTERN } from './shorten.schema.js';

type Target = { linkId: number; url: string };

/**
 * Resolves short codes for the redirect, the hottest path of the service: an in-process LRU
 * answers repeat codes without the database. Links never change, so hits live until evicted;
 * unknown codes are remembered briefly so a scan of random codes does not hammer the database.
 */
export function createRedirects(links: LinkStore, clicks: ClickRecorder, options: { maxEntries?: number } = {}) {
  const cache = new LRUCache<string, Target | false>({ max: options.maxEntries ?? 100_000 });
  const MISS_TTL_MS = 10_000;

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

    recordClick(click: ClickInfo): void {
      clicks.record(click);
    },
  };
}

export type Redirects = ReturnType<typeof createRedirects>;
