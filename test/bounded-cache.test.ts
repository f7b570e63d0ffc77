import { describe, expect, it } from 'vitest';
import { boundedCache } from '../src/bounded-cache.js';

describe('boundedCache', () => {
  it('holds at most its bound, dropping the least recently used entry and telling dispose', () => {
    const dropped: string[] = [];
    const cache = boundedCache<string, number>(3, { dispose: (_value, key) => void dropped.push(key) });
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      cache.set(key, value);
    cache.get('a'); // `b` is now the least recently used
    cache.set('d', 4);
    expect([...cache.keys()].sort()).toEqual(['a', 'c', 'd']);
    expect(dropped).toEqual(['b']);
    for (let i = 0; i < 1000; i++) cache.set(`k${i}`, i);
    expect(cache.size).toBe(3);
  });

  it('keeps its time to live', () => {
    let now = 10_000;
    // ttlResolution 0: lru-cache otherwise reuses one reading of the clock for a millisecond of real time.
    const cache = boundedCache<string, number>(10, { ttl: 1000, ttlResolution: 0, perf: { now: () => now } });
    cache.set('a', 1);
    now = 10_999;
    expect(cache.get('a')).toBe(1);
    now = 11_001;
    expect(cache.get('a')).toBeUndefined();
  });
});
