import { ev, startFakeTracker } from '../test/fakes/tracker-server.js';
import { measureHttp, percentile, postJson, report, startBareServer, startBenchService } from './lib.js';

/**
 * Parcel tracking: a cached lookup over HTTP (key auth, quota, cache read) beside a bare
 * node:http server answering the same bytes; then how many upstream calls the cache and the
 * in-process coalescing save under a burst of identical lookups of a parcel not yet cached.
 * The upstream is the fake Delivery Tracker (100 ms per answer), in this process.
 */
export async function run(): Promise<void> {
  const tracker = await startFakeTracker();
  const service = await startBenchService({ DELIVERY_TRACKER_URL: tracker.url });
  const { base, apiKey, runtime } = service;
  const headers = { 'content-type': 'application/json', 'x-api-key': apiKey };
  await postJson(base, '/api/v1/subscriptions', { api: 'delivery-tracking' }, { 'x-api-key': apiKey });
  const events = [
    ev('2026-11-19T20:00:00+09:00', 'AT_PICKUP', '집화처리', '성수', '상품 인수'),
    ev('2026-11-20T03:10:00+09:00', 'IN_TRANSIT', '간선하차', '곤지암Hub', '간선하차'),
    ev('2026-11-20T18:02:00+09:00', 'IN_TRANSIT', '간선상차', '곤지암Hub', '간선상차'),
  ];

  // 1. Cached lookups.
  tracker.parcel('kr.cjlogistics', '111122223333', { events, delayMs: 100 });
  const body = JSON.stringify({ carrier_id: 'kr.cjlogistics', track_id: '111122223333' });
  const sample = await postJson(base, '/api/v1/delivery/track', JSON.parse(body), { 'x-api-key': apiKey });
  const bytes = JSON.stringify(sample);
  const bare = await startBareServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(bytes);
    });
  });
  const before = runtime.delivery.tracking.stats();
  const cached = await measureHttp('service POST /delivery/track (cached)', `${base}/api/v1/delivery/track`, {
    method: 'POST',
    headers,
    body,
  });
  const baseline = await measureHttp('bare node:http same JSON', bare.url, { method: 'POST', headers, body });
  const after = runtime.delivery.tracking.stats();
  report(`Cached parcel lookup (32 connections, 5 s, ${runtime.databaseKind})`, [cached], baseline);
  console.log(
    `lookups served by the cache: ${after.cacheHits - before.cacheHits}, upstream lookups during the run: ${after.upstreamCalls - before.upstreamCalls} (${after.upstreamRequests - before.upstreamRequests} requests)`,
  );
  await bare.close();

  // 2. A burst of identical lookups of a parcel nobody looked up yet.
  for (const burst of [50, 200]) {
    const trackId = `9${burst}${Date.now() % 1_000_000}`;
    tracker.parcel('kr.cjlogistics', trackId, { events, delayMs: 100 });
    const start = runtime.delivery.tracking.stats();
    const upstreamBefore = tracker.lookups('kr.cjlogistics', trackId).length;
    const latencies: number[] = [];
    const answers = await Promise.all(
      Array.from({ length: burst }, async () => {
        const began = performance.now();
        const res = await fetch(`${base}/api/v1/delivery/track`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ carrier_id: 'kr.cjlogistics', track_id: trackId }),
        });
        await res.arrayBuffer();
        latencies.push(performance.now() - began);
        return res.status;
      }),
    );
    const end = runtime.delivery.tracking.stats();
    const upstream = tracker.lookups('kr.cjlogistics', trackId).length - upstreamBefore;
    const coalesced = end.coalesced - start.coalesced;
    const hits = end.cacheHits - start.cacheHits;
    console.log(
      `\n## Burst of ${burst} identical lookups (upstream answers in 100 ms)\n` +
        `answered 200: ${answers.filter((s) => s === 200).length}/${burst}; upstream calls: ${upstream} (without cache and coalescing: ${burst}); ` +
        `saved by coalescing: ${coalesced}, by the cache: ${hits}; p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`,
    );
  }

  // 3. Long histories: the upstream serves 20 events a page, and each page takes a rate-limit slot.
  console.log('\n## Uncached lookups by history length (upstream answers in 100 ms per request; 20 events a page)');
  for (const length of [3, 20, 45, 120]) {
    const trackId = `8${length}${Date.now() % 1_000_000}`;
    const history = Array.from({ length }, (_, i) =>
      ev(new Date(Date.parse('2026-11-10T00:00:00Z') + i * 3600_000).toISOString(), 'IN_TRANSIT', '간선', `허브${i}`),
    );
    tracker.parcel('kr.cjlogistics', trackId, { events: history, delayMs: 100 });
    const start = runtime.delivery.tracking.stats();
    const began = performance.now();
    const res = await postJson(
      base,
      '/api/v1/delivery/track',
      { carrier_id: 'kr.cjlogistics', track_id: trackId },
      { 'x-api-key': apiKey },
    );
    const ms = performance.now() - began;
    const requests = runtime.delivery.tracking.stats().upstreamRequests - start.upstreamRequests;
    console.log(
      `${String(length).padStart(4)} events: ${(res as { progresses: unknown[] }).progresses.length} answered, ${requests} upstream requests (rate-limit slots), ${ms.toFixed(0)} ms`,
    );
  }

  await service.close();
  await tracker.close();
}
