import type { Clock } from '../clock.js';

/** `last_used_at` / `last_seen_at` are conveniences: written at most once a minute per row, not per request. */
export const STAMP_RESOLUTION_MS = 60_000;

/**
 * A "last used" stamp: `stamp(id)` writes the time through `write` at most once per
 * STAMP_RESOLUTION_MS for that id, fire and forget (a failed bookkeeping write must not fail the
 * request that caused it).
 */
export function createUsageStamp(write: (id: number, at: Date) => Promise<unknown>, clock: Clock): (id: number) => void {
  const written = new Map<number, number>();
  return (id) => {
    const nowMs = clock().getTime();
    if (nowMs - (written.get(id) ?? 0) < STAMP_RESOLUTION_MS) return;
    written.set(id, nowMs);
    write(id, new Date(nowMs)).catch(() => {});
  };
}
