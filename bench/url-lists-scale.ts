import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createRuntime } from '../src/runtime.js';
import { percentile } from './lib.js';

const FEEDS = 4;
const PER_FEED = Number(process.env.BENCH_URL_ENTRIES ?? 2_000_000) / FEEDS;
const UMBRELLA = new URL('../../shared/data/url-lists/clean-umbrella-top-100k-2026-07-24.txt.gz', import.meta.url);

/** Synthetic feed bodies (hosts, domains, adblock, URLs), gzip, in the shapes public lists use. */
function feedBodies(): Record<string, Buffer> {
  const word = (i: number) => `${((i * 2654435761) >>> 0).toString(36)}${['bet', 'shop', 'login', 'cam'][i % 4]}`;
  const lines = (feed: number, format: (i: number) => string) =>
    gzipSync(Array.from({ length: PER_FEED }, (_, i) => format(feed * PER_FEED + i)).join('\n'));
  return {
    '/hosts.gz': lines(0, (i) => `0.0.0.0    ${word(i)}.com`),
    '/domains.gz': lines(1, (i) => `${word(i)}.xyz`),
    '/adblock.gz': lines(2, (i) => `||${word(i)}.top^$document,subdocument,popup`),
    '/urls.gz': lines(3, (i) => `https://${word(i)}.net/wp-content/${i}/login.php`),
    '/clean.gz': existsSync(UMBRELLA)
      ? readFileSync(UMBRELLA)
      : gzipSync(Array.from({ length: 100_000 }, (_, i) => `www.${['news', 'mail', 'docs', 'shop'][i % 4]}${i}.com`).join('\n')),
  };
}

const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

/**
 * Issue 19 scale: 2 million feed entries downloaded, stored and loaded (index + lexical model)
 * in-process on PGlite, while a timer measures how long the event loop is held up; then a
 * restart's load time, the memory the lists take, and lookup and classification speed.
 */
export async function runScale(): Promise<void> {
  console.log(`\n## Harmful-URL lists at scale (${(PER_FEED * FEEDS).toLocaleString()} entries in ${FEEDS} feeds, PGlite)`);
  const bodies = feedBodies();
  const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'application/gzip' }).end(bodies[req.url ?? ''])).listen(
    0,
    '127.0.0.1',
  );
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'aih-bench-lists-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    URL_LIST_FEEDS: `h=adult:hosts:${base}/hosts.gz,d=gambling:domains:${base}/domains.gz,a=phishing:adblock:${base}/adblock.gz,u=malware:urls:${base}/urls.gz,top=clean:domains:${base}/clean.gz`,
  });
  const logger = createLogger('info', pino.destination('/dev/null'));
  const rssBefore = process.memoryUsage().rss;
  let runtime = await createRuntime(config, { logger });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  const cpu = process.cpuUsage();
  let started = performance.now();
  const results = await runtime.urlDetection.refreshFeeds();
  const refreshMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  delay.disable();
  const model = runtime.urlDetection.engine.model?.info;
  console.log(
    `refresh (download, parse, store, index, train): ${(refreshMs / 1000).toFixed(1)} s wall, ${(cpuMs / 1000).toFixed(1)} s CPU; ${results?.filter((r) => r.ok).length}/${results?.length} feeds`,
  );
  console.log(
    `  event loop held at most ${(delay.max / 1e6).toFixed(0)} ms (p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms) while it ran; model trained in ${model?.trainedMs} ms`,
  );
  await runtime.close();

  started = performance.now();
  const loadCpu = process.cpuUsage();
  runtime = await createRuntime(config, { logger });
  const loadMs = performance.now() - started;
  const loadUsed = process.cpuUsage(loadCpu);
  const loadCpuMs = (loadUsed.user + loadUsed.system) / 1000;
  global.gc?.();
  const rss = process.memoryUsage().rss;
  const engine = runtime.urlDetection.engine;
  const heap = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  console.log(
    `restart to ready (${engine.listSize.toLocaleString()} entries indexed, saved model loaded): ${(loadMs / 1000).toFixed(1)} s wall, ${(loadCpuMs / 1000).toFixed(1)} s CPU`,
  );
  console.log(
    `  memory: process RSS ${mb(rss)} (${mb(rss - rssBefore)} over the bench's start, which includes the refresh's garbage); JS heap + buffers now ${mb(heap)}`,
  );

  const probes = Array.from({ length: 20_000 }, (_, i) =>
    i % 2 ? `https://sub.${((i * 2654435761) >>> 0).toString(36)}bet.xyz/` : `https://example-${i}.org/page/${i}`,
  );
  const time = (fn: (url: string) => unknown) => {
    for (const url of probes.slice(0, 2000)) fn(url);
    const samples = probes.map((url) => {
      const t = process.hrtime.bigint();
      fn(url);
      return Number(process.hrtime.bigint() - t) / 1000;
    });
    const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
    return `mean ${mean.toFixed(1)} µs, p50 ${percentile(samples, 50).toFixed(1)} µs, p99 ${percentile(samples, 99).toFixed(1)} µs, ${Math.round(1e6 / mean).toLocaleString()}/s`;
  };
  console.log(`list lookup (canonicalize + ≤ 60 expressions): ${time((url) => engine.listCheck(url))}`);
  console.log(`full classification (lists, rules, model; uncached): ${time((url) => engine.classifyRules(url + '?n=' + Math.random()))}`);
  await runtime.close();
  server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
