import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import type { CachedTracking, TrackingCache } from '../src/operations/delivery/tracking-cache.js';
import { createTrackingService } from '../src/operations/delivery/tracking-service.js';
import type { TrackerEvent, TrackerParcel } from '../src/providers/tracker.js';

const CJ = 'kr.cjlogistics';
const TRACK_ID = '640812345670';
const IN_TRANSIT: TrackerEvent = {
  time: '2026-11-20T18:02:00+09:00',
  status: { code: 'IN_TRANSIT', name: '간선상차' },
  location: { name: '곤지암Hub' },
  description: '간선상차',
};

/** A promise the test resolves when it chooses. */
function gate<T>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the tracking service', () => {
  it('answers a lookup whose cache read outlasted the shared upstream call from that call, not from a second one', async () => {
    const upstream = gate<TrackerParcel>();
    const slowRead = gate<CachedTracking | undefined>();
    let upstreamCalls = 0;
    let reads = 0;
    const cache: TrackingCache = {
      // The first lookup finds nothing at once; the second one's read of the database is still
      // running when the first one's upstream call has ended (a loaded database).
      get: async () => (++reads === 1 ? undefined : slowRead.opened),
      put: async () => {},
    };
    const service = createTrackingService({
      tracker: {
        track: async () => {
          upstreamCalls++;
          return upstream.opened;
        },
      },
      cache,
      limiter: { acquire: async () => {} },
      logger: createLogger('silent'),
    });

    const first = service.track(CJ, TRACK_ID);
    await expect.poll(() => upstreamCalls).toBe(1);
    const second = service.track(CJ, TRACK_ID);
    await expect.poll(() => reads).toBe(2);
    upstream.open({ lastEvent: IN_TRANSIT, events: [IN_TRANSIT] });
    expect((await first).source).toBe('upstream');
    slowRead.open(undefined);

    const answer = await second;
    expect(upstreamCalls).toBe(1);
    expect(answer.source).toBe('cache');
    expect(answer.state.id).toBe('in_transit');
  });
});
