import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { measureHttp, postJson, signUp, startBenchService } from './lib.js';

/**
 * The hot path under the CPU profiler, only while the load runs (not start-up or sign-ups):
 * `npx tsx bench/profile-hot-path.ts [detect|shorten] [keys] [out.cpuprofile]`, then
 * `npx tsx bench/cpu-profile-summary.ts out.cpuprofile` says where the time went.
 * BENCH_DATABASE_URL selects PostgreSQL, as for `npm run bench`; PROFILE_SECONDS the length.
 */
const route = process.argv[2] === 'shorten' ? 'shorten' : 'detect';
const keyCount = Number(process.argv[3] ?? 1);
const out = process.argv[4] ?? `hot-path-${route}.cpuprofile`;
const service = await startBenchService();
const apiKeys = [service.apiKey];
while (apiKeys.length < keyCount) apiKeys.push(await signUp(service.base));
for (const key of apiKeys) await postJson(service.base, '/api/v1/subscriptions', { api: 'harmful-url-detection' }, { 'x-api-key': key });
const body = route === 'shorten' ? { url: 'https://example.com/article/[<id>]?ref=profile' } : { url: 'https://casino-king.xyz/event' };

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.start');
const figures = await measureHttp(`service /url/${route}, ${keyCount} key(s)`, `${service.base}/api/v1/url/${route}`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
  body: JSON.stringify(body),
  uniqueIds: route === 'shorten',
  apiKeys: keyCount > 1 ? apiKeys : undefined,
  durationSeconds: Number(process.env.PROFILE_SECONDS ?? 5),
});
const { profile } = await session.post('Profiler.stop');
writeFileSync(out, JSON.stringify(profile));
console.log(JSON.stringify(figures));
await service.close();
