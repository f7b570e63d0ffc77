import { describe, expect, it } from 'vitest';
import type { Coordination } from '../db/coordination.js';
import { createKeyCache } from '../src/platform/key-cache.js';

/** A coordination whose listener can be cut off (notifications sent meanwhile are lost). */
function fakeCoordination() {
  let onMessage: (payload: string) => void = () => {};
  let connected = true;
  const coordination: Coordination = {
    instanceId: 1,
    async listen(_channel, message, ready) {
      onMessage = message;
      ready();
    },
    async notify(_channel, payload) {
      if (connected) onMessage(payload);
    },
    async close() {},
  };
  return { coordination, cut: () => (connected = false), deliver: (payload: string) => onMessage(payload) };
}

const entry = { accountId: 7, email: 'a@example.com', keyId: 3, prefix: 'aik_test' };

describe('API key cache', () => {
  it('drops a key revoked on another instance when the notice arrives', async () => {
    const { coordination, deliver } = fakeCoordination();
    const cache = createKeyCache(coordination);
    await Promise.resolve();
    cache.set('h', entry, cache.generation());
    expect(cache.get('h')).toEqual(entry);
    deliver('revoked:3');
    expect(cache.get('h')).toBeUndefined();
    await cache.close();
  });

  it('does not cache what a lookup read before a revocation arrived', async () => {
    const { coordination, deliver } = fakeCoordination();
    const cache = createKeyCache(coordination);
    await Promise.resolve();
    const generation = cache.generation(); // lookup starts, the database still says "live"
    deliver('revoked:3'); // the revocation lands while the lookup is in flight
    cache.set('h', entry, generation);
    expect(cache.get('h')).toBeUndefined();
    await cache.close();
  });

  it('stops trusting itself when its listener has heard nothing for about a second', async () => {
    const { coordination, cut, deliver } = fakeCoordination();
    let now = 1_000_000;
    const cache = createKeyCache(coordination, () => now);
    await Promise.resolve();
    cache.set('h', entry, cache.generation());
    now += 500;
    expect(cache.get('h')).toEqual(entry);
    cut(); // pings and revocations no longer arrive
    now += 500;
    expect(cache.get('h')).toBeUndefined();
    cache.set('h', entry, cache.generation());
    expect(cache.get('h')).toBeUndefined(); // nothing is cached while cut off
    deliver('ping'); // the listener is back
    cache.set('h', entry, cache.generation());
    expect(cache.get('h')).toEqual(entry);
    await cache.close();
  });
});
