import type { Coordination } from '../../db/coordination.js';
import { boundedCache } from '../bounded-cache.js';

/** Live API keys by SHA-256, so a call costs no database round trip to authenticate. */
export interface CachedKey {
  accountId: number;
  email: string;
  keyId: number;
  /** The key's display prefix (the audit log names a key by it). */
  prefix: string;
  /** Epoch ms after which the key no longer works (an expiry or a rotation's grace period), if any. */
  expiresAtMs?: number;
}

const CHANNEL = 'aih_api_keys';
/** Every instance pings the channel this often; a listener that heard nothing for STALE_MS is presumed cut off. */
const PING_MS = 300;
const STALE_MS = 900;
/** An entry is read again from the database after this long even if nothing was announced. */
const ENTRY_TTL_MS = 5 * 60_000;

/**
 * The key cache of one instance. A revocation deletes the entry here at once and is announced
 * to every other instance (PostgreSQL NOTIFY), which drops it on arrival. Notifications sent
 * while a listener is cut off are lost, so an instance that has heard nothing on the channel
 * (its own pings included) for STALE_MS stops trusting its cache and forgets it: a revoked key
 * stops everywhere within about a second, whatever happens to the connections.
 */
export function createKeyCache(coordination: Coordination, now: () => number = Date.now) {
  const byHash = boundedCache<string, CachedKey>(100_000, { ttl: ENTRY_TTL_MS, dispose: (entry) => hashById.delete(entry.keyId) });
  const hashById = new Map<number, string>();
  let lastHeard = 0;
  /** Bumped by every revocation: a lookup that began before one must not cache what it read. */
  let generation = 0;

  function heard(): void {
    lastHeard = now();
  }

  function forget(keyId: number): void {
    generation++;
    const hash = hashById.get(keyId);
    if (hash !== undefined) byHash.delete(hash);
  }

  const ping = setInterval(() => void coordination.notify(CHANNEL, 'ping').catch(() => {}), PING_MS);
  ping.unref();
  const listening = coordination
    .listen(
      CHANNEL,
      (payload) => {
        heard();
        if (payload.startsWith('revoked:')) forget(Number(payload.slice('revoked:'.length)));
      },
      () => {
        generation++;
        byHash.clear();
        heard();
      },
    )
    .catch(() => {}); // without a listener the cache is never trusted (lastHeard stays old)

  function trusted(): boolean {
    if (now() - lastHeard <= STALE_MS) return true;
    if (byHash.size > 0) {
      generation++;
      byHash.clear();
    }
    return false;
  }

  return {
    get(hash: string): CachedKey | undefined {
      return trusted() ? byHash.get(hash) : undefined;
    },
    /** The current generation: pass it to `set` with what a lookup started now reads. */
    generation: () => generation,
    set(hash: string, entry: CachedKey, readAtGeneration: number): void {
      if (readAtGeneration !== generation || !trusted()) return;
      byHash.set(hash, entry);
      hashById.set(entry.keyId, hash);
    },
    /** Drops the key here at once and tells every other instance. */
    async revoked(keyId: number): Promise<void> {
      forget(keyId);
      // If the notice cannot be sent the database is away: the others' listeners hear no pings
      // either and stop trusting their caches, so the revocation still stands within a second.
      await coordination.notify(CHANNEL, `revoked:${keyId}`).catch(() => {});
    },
    async close(): Promise<void> {
      clearInterval(ping);
      await listening;
    },
  };
}

export type KeyCache = ReturnType<typeof createKeyCache>;
