import { boundedCache } from '../../src/bounded-cache.js';

export interface RateLimitOptions {
  /** Commands a user may run per window. */
  max: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitOptions = { max: 10, windowMs: 60_000 };

/**
 * Per-user command limit (fixed window), kept in memory: it protects the account's quota from
 * one user's loop, not the service (the quota does that), so per-instance counting is enough.
 */
export function createCommandRateLimiter(options: RateLimitOptions = DEFAULT_RATE_LIMIT) {
  const windows = boundedCache<string, { count: number; resetAt: number }>(50_000);
  return {
    /** Counts one command; returns the seconds to wait when over the limit, else 0. */
    take(key: string, now = Date.now()): number {
      const window = windows.get(key);
      if (!window || window.resetAt <= now) {
        windows.set(key, { count: 1, resetAt: now + options.windowMs });
        return 0;
      }
      if (window.count >= options.max) return Math.max(1, Math.ceil((window.resetAt - now) / 1000));
      window.count += 1;
      return 0;
    },
  };
}
