import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createHttpServer } from '../api/http-server.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { ListIndex } from '../src/operations/url-detect/lists/list-index.js';
import { teamEntries } from '../src/operations/url-detect/lists/detection-lists.js';
import { createRuntime } from '../src/runtime.js';
import { FRESH, HOLDOUT, TUNE } from '../test/data/url-labelled.js';
import { measureHttp, percentile, report, startBareDetectServer } from './lib.js';

const URLS = [...TUNE, ...HOLDOUT, ...FRESH].map((item) => item.url);

/** Microseconds per call of `fn` over every labelled URL, repeated `rounds` times. */
function timePerUrl(rounds: number, fn: (url: string) => unknown): { meanUs: number; p50Us: number; p99Us: number; perSecond: number } {
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const url of URLS) {
      const start = process.hrtime.bigint();
      fn(url);
      samples.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
  const total = samples.reduce((a, b) => a + b, 0);
  return {
    meanUs: total / samples.length,
    p50Us: percentile(samples, 50),
    p99Us: percentile(samples, 99),
    perSecond: Math.round(1e6 / (total / samples.length)),
  };
}

function line(label: string, figures: ReturnType<typeof timePerUrl>, baselineMean?: number): void {
  const ratio = baselineMean ? `  (${(figures.meanUs / baselineMean).toFixed(1)}× URL parsing)` : '';
  console.log(
    `${label.padEnd(44)} ${String(figures.perSecond).padStart(8)} /s  mean ${figures.meanUs.toFixed(1)} µs  p50 ${figures.p50Us.toFixed(1)} µs  p99 ${figures.p99Us.toFixed(1)} µs${ratio}`,
  );
}

export async function run(): Promise<void> {
  console.log(`\n## Harmful-URL classification in process (${URLS.length} labelled URLs, no LLM)`);
  const parse = timePerUrl(20, (url) => new URL(url));
  line('baseline: new URL() only', parse);
  const engine = createUrlEngine({ index: ListIndex.build(teamEntries()) });
  timePerUrl(3, (url) => engine.classifyRules(url)); // warm-up (JIT)
  line(
    'uncached: canonicalize + lists + rules',
    timePerUrl(20, (url) => engine.classifyRules(url)),
    parse.meanUs,
  );
  for (const url of URLS) await engine.classify(url);
  const cachedSamples: number[] = [];
  for (let r = 0; r < 20; r++) {
    for (const url of URLS) {
      const start = process.hrtime.bigint();
      await engine.classify(url);
      cachedSamples.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
  const cachedMean = cachedSamples.reduce((a, b) => a + b, 0) / cachedSamples.length;
  line(
    'cached verdict (await classify)',
    {
      meanUs: cachedMean,
      p50Us: percentile(cachedSamples, 50),
      p99Us: percentile(cachedSamples, 99),
      perSecond: Math.round(1e6 / cachedMean),
    },
    parse.meanUs,
  );

  const dataDir = mkdtempSync(join(tmpdir(), 'aih-bench-url-'));
  const config = loadConfig({
    PORT: '0',
    DATA_DIR: dataDir,
    DEFAULT_QUOTA: '100000000',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  });
  const runtime = await createRuntime(config, { logger: createLogger('info', pino.destination({ dest: '/dev/null', sync: false })) });
  const server = createHttpServer(runtime).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const apiKey = await signUp(base);
  await post(base, '/api/v1/subscriptions', { api: 'harmful-url-detection' }, apiKey);

  const bare = await startBareDetectServer();
  const options = (url: string, uniqueIds = false) => ({
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ url }),
    uniqueIds,
  });
  const fresh = await measureHttp(
    'service /url/detect, new URL each',
    `${base}/api/v1/url/detect`,
    options('https://casino-[<id>].xyz/event', true),
  );
  const repeat = await measureHttp('service /url/detect, same URL', `${base}/api/v1/url/detect`, options('https://casino-king.xyz/event'));
  // 32 accounts taking turns: many customers instead of one busy one.
  const apiKeys = await Promise.all(
    Array.from({ length: 32 }, async () => {
      const key = await signUp(base);
      await post(base, '/api/v1/subscriptions', { api: 'harmful-url-detection' }, key);
      return key;
    }),
  );
  const manyAccounts = await measureHttp('service /url/detect, 32 accounts', `${base}/api/v1/url/detect`, {
    ...options('https://casino-king.xyz/event'),
    apiKeys,
  });
  // A 400 is answered after authentication but before the quota write: the door without the database write.
  const invalid = await measureHttp('service /url/detect, 400 (no charge)', `${base}/api/v1/url/detect`, {
    ...options('ftp://x'),
    expectStatus: 400,
  });
  const bareRun = await measureHttp('bare node:http JSON', bare.url, options('https://casino-king.xyz/event'));
  report(`POST /api/v1/url/detect (32 connections, 5 s, ${runtime.databaseKind})`, [fresh, repeat, manyAccounts, invalid], bareRun);
  console.log('(a 400 reaches neither the engine nor the quota: its rate is the ceiling of the door itself on this machine)');

  await bare.close();
  server.closeAllConnections();
  server.close();
  await runtime.close();
  rmSync(dataDir, { recursive: true, force: true });
}

async function post(base: string, path: string, body: unknown, apiKey?: string, token?: string): Promise<any> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(apiKey ? { 'x-api-key': apiKey } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  return res.json();
}

async function signUp(base: string): Promise<string> {
  const email = `bench-url-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
  await post(base, '/api/v1/auth/register', { email, password: 'bench password 1' });
  const login = await post(base, '/api/v1/auth/login', { email, password: 'bench password 1' });
  const key = await post(base, '/api/v1/keys', { name: 'bench' }, undefined, login.token);
  return key.api_key as string;
}
