import { LRUCache } from 'lru-cache';

type CacheOptions<K extends {}, V extends {}> = Omit<LRUCache.OptionsBase<K, V, unknown>, 'max' | 'maxSize' | 'sizeCalculation'>;

/**
 * A least-recently-used cache of at most `entries` entries that grows as it fills. lru-cache's
 * `max` allocates every slot up front: the runtime's caches, sized for peak load, held half a
 * million slots and took ~230 ms of every start (and of every test runtime) before anything was
 * cached. Counted through `maxSize` at one per entry, the bound is the same and nothing is
 * allocated before it is used.
 */
export function boundedCache<K extends {}, V extends {}>(entries: number, options: CacheOptions<K, V> = {}): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, maxSize: entries, sizeCalculation: () => 1 });
}
