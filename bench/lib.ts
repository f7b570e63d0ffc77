import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';

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
}

export interface LoadOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  durationSeconds?: number;
  /** Status codes that count as success besides 2xx (e.g. 302 for redirects). */
  expectStatus?: number;
}

export async function measureHttp(label: string, url: string, options: LoadOptions = {}): Promise<HttpFigures> {
  const result = await autocannon({
    url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: options.connections ?? 32,
    duration: options.durationSeconds ?? 5,
  });
  const statusCounts = result.statusCodeStats as unknown as Record<string, { count: number }> | undefined;
  const expected = options.expectStatus ? (statusCounts?.[String(options.expectStatus)]?.count ?? 0) : 0;
  return {
    label,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx - expected,
  };
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

/** Prints one figure line per run and the ratio of the first to the baseline (the last). */
export function report(title: string, runs: HttpFigures[], baseline: HttpFigures): void {
  console.log(`\n## ${title}`);
  for (const run of [...runs, baseline]) {
    console.log(
      `${run.label.padEnd(34)} ${String(run.requestsPerSecond).padStart(7)} req/s  p50 ${run.p50Ms} ms  p99 ${run.p99Ms} ms` +
        (run.errors || run.non2xx ? `  errors ${run.errors} unexpected-status ${run.non2xx}` : ''),
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
