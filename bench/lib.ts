import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createRequestListener } from '../api/http-server.js';
import { loadConfig } from '../src/config.js';
import { createLogger, logDestination } from '../src/logger.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../src/runtime.js';

const execFileAsync = promisify(execFile);
const loadScript = fileURLToPath(new URL('./load.ts', import.meta.url));

/**
 * Shared tools of `npm run bench`: an HTTP load run (autocannon) and a bare `node:http`
 * baseline measured in the same run, so figures are read as ratios on this machine.
 */

export interface HttpFigures {
  label: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
  /** The unexpected statuses and their counts ("503×12"), so a failing run says how it failed. */
  statuses?: string;
  /** Processor time the load generator spent (its own process): on a 2-core machine it competes with the server. */
  loadCpuMicros?: number;
}

export interface LoadOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** Status codes that count as success besides 2xx (e.g. 302 for redirects). */
  expectStatus?: number;
  /** Replace `[<id>]` in the body with a unique id per request (e.g. distinct URLs to shorten). */
  uniqueIds?: boolean;
  /** Requests take turns with these `X-API-Key`s (many accounts instead of one). */
  apiKeys?: string[];
}

/**
 * Runs autocannon in a child process, so the load generator does not share the event loop
 * (or the core) with the server under test.
 */
export async function measureHttp(label: string, url: string, options: LoadOptions = {}): Promise<HttpFigures> {
  const load = {
    url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    uniqueIds: options.uniqueIds,
    apiKeys: options.apiKeys,
    connections: options.connections ?? 32,
    duration: options.durationSeconds ?? 5,
  };
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', loadScript, JSON.stringify(load)], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const result = JSON.parse(stdout) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats?: Record<string, { count: number }>;
    loadCpuMicros: number;
  };
  const expected = options.expectStatus ? (result.statusCodeStats?.[String(options.expectStatus)]?.count ?? 0) : 0;
  return {
    label,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx - expected,
    statuses: Object.entries(result.statusCodeStats ?? {})
      .filter(([status]) => !status.startsWith('2') && status !== String(options.expectStatus))
      .map(([status, { count }]) => `${status}×${count}`)
      .join(' '),
    loadCpuMicros: result.loadCpuMicros,
  };
}

/**
 * Processor time (µs) used so far by this machine's PostgreSQL processes, from /proc (0 where
 * there is none): with the load generator's and the server's own, it tells which of the three
 * a run's time went to.
 */
export function postgresCpuMicros(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks * 10_000; // USER_HZ is 100 on Linux
}

/** A bare node:http server answering every request with the given status, headers and body. */
export async function startBareServer(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(answer).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The bare baseline of the harmful-URL benches: reads the body, answers a detection's JSON. */
export function startBareDetectServer(): ReturnType<typeof startBareServer> {
  return startBareServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: true,
          is_malicious: true,
          category: 'gambling',
          reason: '불법 도박 위험이 있는 URL입니다.',
          api: 'harmful-url-detection',
          remaining: 1,
        }),
      );
    });
  });
}

/** Prints one figure line per run and the ratio of the first to the baseline (the last). */
export function report(title: string, runs: HttpFigures[], baseline: HttpFigures): void {
  console.log(`\n## ${title}`);
  for (const run of [...runs, baseline]) {
    console.log(
      `${run.label.padEnd(34)} ${String(run.requestsPerSecond).padStart(7)} req/s  p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms` +
        (run.errors || run.non2xx ? `  errors ${run.errors} unexpected-status ${run.non2xx} (${run.statuses})` : ''),
    );
  }
  for (const run of runs) {
    console.log(`ratio ${run.label} / ${baseline.label}: ${(run.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}`);
  }
}

/** Percentile of a list of numbers (ms), for in-process timings. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export interface BenchService {
  base: string;
  runtime: Runtime;
  /** An API key of a fresh account with a practically unlimited quota. */
  apiKey: string;
  close(): Promise<void>;
}

/**
 * The service as in production, for a benchmark: file-backed PGlite in a temporary directory
 * (or BENCH_DATABASE_URL), request logging at info into /dev/null (buffered, as production
 * writes stdout: src/logger.ts), the real HTTP server.
 */
export async function startBenchService(env: Record<string, string> = {}, options: RuntimeOptions = {}): Promise<BenchService> {
  const dataDir = mkdtempSync(join(tmpdir(), 'aih-bench-'));
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: base,
    DEFAULT_QUOTA: '100000000',
    // Benchmarks sign up many accounts from 127.0.0.1.
    SIGNUP_MAX_PER_ADDRESS: '1000000',
    LOGIN_MAX_PER_ADDRESS: '1000000',
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    ...env,
  });
  const runtime = await createRuntime(config, {
    logger: createLogger('info', logDestination(process.env.BENCH_LOG ?? '/dev/null')),
    ...options,
  });
  server.on('request', createRequestListener(runtime));
  return {
    base,
    runtime,
    apiKey: await signUp(base),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** POST JSON to the running service; returns the parsed answer. */
export async function postJson(base: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return res.json();
}

/** A fresh account's API key on the running service. */
export async function signUp(base: string): Promise<string> {
  const credentials = { email: `bench-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`, password: 'bench password' };
  await postJson(base, '/api/v1/auth/register', credentials);
  const { token } = await postJson(base, '/api/v1/auth/login', credentials);
  const { api_key: apiKey } = await postJson(base, '/api/v1/keys', {}, { authorization: `Bearer ${token}` });
  if (typeof apiKey !== 'string') throw new Error('bench sign-up got no API key (was the registration or log-in refused?)');
  return apiKey;
}
