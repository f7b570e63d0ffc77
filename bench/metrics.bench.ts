import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/rows.js';
import { createMetrics } from '../src/platform/metrics.js';
import { percentile, postJson, startBenchService } from './lib.js';

/**
 * `GET /metrics` with a service holding 10k API keys and 1M link clicks (issue 48: a scrape
 * ≤ 50 ms), seeded with generate_series, beside `GET /healthz/live` (no database) in the same
 * run. Scrapes are sequential over HTTP, as Prometheus sends them. BENCH_DATABASE_URL selects
 * PostgreSQL; BENCH_SCRAPES the number of scrapes (default 200).
 */
const KEYS = 10_000;
const LINKS = 1_000;
const CLICK_MINUTES = 1_000; // LINKS × CLICK_MINUTES rows of one click each: 1M clicks
const scrapes = Number(process.env.BENCH_SCRAPES ?? 200);
const TOKEN = 'bench-metrics-token-0123456789';

export async function run(): Promise<void> {
  // The million-row seed takes longer than the service's 10 s statement timeout on PostgreSQL.
  const service = await startBenchService({ METRICS_TOKEN: TOKEN, DB_STATEMENT_TIMEOUT_MS: '600000' });
  const { base, runtime } = service;
  try {
    const seeding = performance.now();
    const [account] = rowsOf<{ account_id: number }>(await runtime.db.execute(sql`select account_id from api_keys order by id limit 1`));
    const accountId = account!.account_id;
    await runtime.db.execute(sql`
      insert into api_keys (account_id, name, prefix, key_hash)
      select ${accountId}, 'bench ' || g, 'aik_bench', 'bench-hash-' || g from generate_series(1, ${KEYS}) g`);
    await runtime.db.execute(sql`
      insert into short_links (account_id, code, url, url_hash)
      select ${accountId}, 'z' || lpad(g::text, 4, '0'), 'https://example.com/bench/' || g, 'bench-url-' || g
      from generate_series(1, ${LINKS}) g`);
    await runtime.db.execute(sql`
      insert into link_click_counts (link_id, minute, referrer_host, agent_class, is_bot, clicks)
      select l.id, timestamptz '2026-11-01 00:00:00+00' + m * interval '1 minute', '', 'desktop', false, 1
      from short_links l cross join generate_series(1, ${CLICK_MINUTES}) m
      where l.code like 'z%'`);
    const [counts] = rowsOf<{ keys: number; clicks: number }>(
      await runtime.db.execute(
        sql`select (select count(*) from api_keys)::int as keys, (select coalesce(sum(clicks), 0) from link_click_counts)::int as clicks`,
      ),
    );
    console.log(
      `\n## /metrics scrape (${runtime.databaseKind}, ${counts!.keys} keys, ${counts!.clicks} clicks, seeded in ${Math.round((performance.now() - seeding) / 1000)} s)`,
    );

    // PGlite seeds in this thread: the keep-alive connection of the sign-up was closed meanwhile.
    await fetch(`${base}/healthz/live`).catch(() => undefined);
    // Traffic first, so the scrape carries the series a working instance has (routes, statuses, operations).
    await postJson(base, '/api/v1/subscriptions', { api: 'harmful-url-detection' }, { 'x-api-key': service.apiKey });
    for (let i = 0; i < 200; i++) {
      await postJson(base, '/api/v1/url/detect', { url: `https://example${i % 7}.com/path` }, { 'x-api-key': service.apiKey });
      await fetch(`${base}/api/v1/keys/${i}`, { method: 'DELETE' });
      await fetch(`${base}/nope/${i}`);
    }

    const time = async (path: string, headers: Record<string, string> = {}) => {
      const started = performance.now();
      const res = await fetch(base + path, { headers });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body.slice(0, 200)}`);
      return { ms: performance.now() - started, bytes: body.length };
    };
    const auth = { authorization: `Bearer ${TOKEN}` };
    for (let i = 0; i < 20; i++) await time('/metrics', auth); // warm-up
    const load = loadavg().map((value) => value.toFixed(1));
    const runs = { healthz: [] as number[], metrics: [] as number[] };
    let bytes = 0;
    // Interleaved, so a busy moment of the machine falls on both.
    for (let i = 0; i < scrapes; i++) {
      runs.healthz.push((await time('/healthz/live')).ms);
      const scrape = await time('/metrics', auth);
      runs.metrics.push(scrape.ms);
      bytes = scrape.bytes;
    }
    // The registry's own work, without HTTP: what a scrape costs the service's thread.
    const inProcess: number[] = [];
    for (let i = 0; i < scrapes; i++) {
      const started = performance.now();
      await runtime.metrics.scrape();
      inProcess.push(performance.now() - started);
    }
    const line = (label: string, values: number[]) =>
      `${label.padEnd(28)} p50 ${percentile(values, 50).toFixed(2)} ms  p99 ${percentile(values, 99).toFixed(2)} ms  max ${Math.max(...values).toFixed(2)} ms`;
    console.log(`load ${load.join(' ')}, ${scrapes} scrapes of ${Math.round(bytes / 1024)} KB each`);
    console.log(line('GET /healthz/live', runs.healthz));
    console.log(line('GET /metrics', runs.metrics));
    console.log(line('scrape in process', inProcess));
    const p99 = percentile(runs.metrics, 99);
    console.log(`target: /metrics p99 ≤ 50 ms: ${p99 <= 50 ? 'met' : 'NOT met'} (${p99.toFixed(2)} ms)`);
    perRequestCost();
  } finally {
    await service.close();
  }
}

/**
 * What the metrics add to one API call, without HTTP or the machine's load in the figure: a
 * request's series (cached children: a lookup, an increment, an observation) and the executor's
 * outcome count, each timed over a million calls, beside the CPU time a call costs in total
 * (api-path: 500–1,300 µs on this machine).
 */
function perRequestCost(): void {
  const metrics = createMetrics();
  try {
    const calls = 1_000_000;
    const nsPer = (work: (i: number) => void) => {
      for (let i = 0; i < 10_000; i++) work(i);
      const started = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) work(i);
      return Number(process.hrtime.bigint() - started) / calls;
    };
    const request = nsPer((i) => metrics.request('POST', '/api/v1/url/detect', 200, (i % 50) / 10_000));
    const operation = nsPer(() => metrics.operation('harmful-url-detection', 'ok'));
    const timer = nsPer(() => void performance.now());
    console.log(
      `per API call: request series ${request.toFixed(0)} ns, operation outcome ${operation.toFixed(0)} ns, ` +
        `the two clock reads ${(2 * timer).toFixed(0)} ns (${calls} calls each)`,
    );
  } finally {
    metrics.close();
  }
}
