import {
  measureHttp,
  postgresCpuMicros,
  postJson,
  report,
  signUp,
  startBareDetectServer,
  startBenchService,
  type HttpFigures,
} from './lib.js';

/**
 * The charged API path alone, for issue-sized before/after runs: `POST /url/detect` and
 * `POST /url/shorten` with one key and with 32 keys (32 connections), beside a bare node:http
 * server answering JSON in the same run. `npm run bench api-path` (part of `npm run bench`);
 * BENCH_ROUTES=detect or shorten runs one route, BENCH_DATABASE_URL selects PostgreSQL,
 * BENCH_SECONDS the length of each run (default 5).
 * Targets (issue #17): detect ≥ 0.25 of bare on PostgreSQL, ≥ 0.15 on PGlite, p99 ≤ 20 ms;
 * shorten ≥ 0.10 on PostgreSQL.
 */
const wanted = (process.env.BENCH_ROUTES ?? '').split(',').filter(Boolean);
const routes = (['detect', 'shorten'] as const).filter((route) => wanted.length === 0 || wanted.includes(route));
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 5);

export async function run(): Promise<void> {
  const service = await startBenchService();
  const { base } = service;
  const apiKeys = [service.apiKey];
  while (apiKeys.length < 32) apiKeys.push(await signUp(base));
  for (const key of apiKeys) await postJson(base, '/api/v1/subscriptions', { api: 'harmful-url-detection' }, { 'x-api-key': key });

  const bare = await startBareDetectServer();

  const bodies = {
    detect: { body: JSON.stringify({ url: 'https://casino-king.xyz/event' }), uniqueIds: false },
    shorten: { body: JSON.stringify({ url: 'https://example.com/article/[<id>]?ref=bench' }), uniqueIds: true },
  };
  const runs: HttpFigures[] = [];
  const cpu: string[] = [];
  /** Runs one load and notes this process's CPU time per answered request (robust on a busy machine). */
  async function measured(label: string, url: string, options: Parameters<typeof measureHttp>[2]): Promise<HttpFigures> {
    const start = process.cpuUsage();
    const database = postgresCpuMicros();
    const figures = await measureHttp(label, url, options);
    const used = process.cpuUsage(start);
    const requests = figures.requestsPerSecond * (options?.durationSeconds ?? 5);
    const perRequest = (micros: number) => String(Math.round(micros / requests)).padStart(4);
    cpu.push(
      `${label.padEnd(34)} ${perRequest(used.user + used.system)} µs CPU per request in the server, ` +
        `${perRequest(figures.loadCpuMicros ?? 0)} in the load generator, ${perRequest(postgresCpuMicros() - database)} in PostgreSQL`,
    );
    return figures;
  }
  const bareOptions = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: bodies.detect.body,
    durationSeconds,
  };
  // The bare server before and after the service's runs, compared against their mean: on a
  // shared host one 5 s reading of it moved by a third between runs.
  const bareBefore = await measured('bare node:http JSON, before', bare.url, bareOptions);
  for (const route of routes) {
    const options = {
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
      durationSeconds,
      ...bodies[route],
    };
    // Warm-up (JIT, caches, the first leases), not reported.
    await measureHttp(`${route}, warm-up`, `${base}/api/v1/url/${route}`, { ...options, apiKeys, durationSeconds: 2 });
    runs.push(await measured(`${route}, 1 key`, `${base}/api/v1/url/${route}`, options));
    runs.push(await measured(`${route}, 32 keys`, `${base}/api/v1/url/${route}`, { ...options, apiKeys }));
  }
  const bareAfter = await measured('bare node:http JSON, after', bare.url, bareOptions);
  runs.push(bareBefore, bareAfter);
  const baseline: HttpFigures = {
    ...bareAfter,
    label: 'bare node:http JSON, mean',
    requestsPerSecond: Math.round((bareBefore.requestsPerSecond + bareAfter.requestsPerSecond) / 2),
    p50Ms: Math.max(bareBefore.p50Ms, bareAfter.p50Ms),
    p99Ms: Math.max(bareBefore.p99Ms, bareAfter.p99Ms),
  };
  const { loadavg } = await import('node:os');
  report(
    `API path (${service.runtime.databaseKind}, 32 connections, ${durationSeconds} s, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
    runs,
    baseline,
  );
  console.log(cpu.join('\n'));
  await bare.close();
  await service.close();
}
