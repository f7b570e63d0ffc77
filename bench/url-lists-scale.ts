import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createRuntime } from '../src/runtime.js';

const FEEDS = 4;
export const PER_FEED = Number(process.env.BENCH_URL_ENTRIES ?? 2_000_000) / FEEDS;
/** The made-up name of synthetic entry i (feed f holds i in [f·PER_FEED, (f+1)·PER_FEED)). */
export const word = (i: number) => `${((i * 2654435761) >>> 0).toString(36)}${['bet', 'shop', 'login', 'cam'][i % 4]}`;
const UMBRELLA = new URL('../../shared/data/url-lists/clean-umbrella-top-100k-2026-07-24.txt.gz', import.meta.url);

/** Synthetic feed bodies (hosts, domains, adblock, URLs), gzip, in the shapes public lists use. */
function feedBodies(): Record<string, Buffer> {
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
const here = dirname(fileURLToPath(import.meta.url));

interface Restart {
  entries: number;
  model: boolean;
  loadMs: number;
  loadCpuMs: number;
  rss: number;
  heapUsed: number;
  arrayBuffers: number;
  listed: number;
  lookup: { meanUs: number; p50Us: number; p99Us: number; perSecond: number };
  classify: { meanUs: number; p50Us: number; p99Us: number; perSecond: number };
}

/** A restart in a fresh process (bench/url-lists-restart.ts): its memory is the lists', not the refresh's garbage. */
function restart(env: Record<string, string>): Promise<Restart> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', join(here, 'url-lists-restart.ts')],
      { env: { ...process.env, ...env }, maxBuffer: 1 << 20, timeout: 600_000 },
      (error, stdout) => {
        if (error) return reject(error);
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Restart);
      },
    );
  });
}

const speed = (f: Restart['lookup']) =>
  `mean ${f.meanUs.toFixed(1)} µs, p50 ${f.p50Us.toFixed(1)} µs, p99 ${f.p99Us.toFixed(1)} µs, ${f.perSecond.toLocaleString()}/s`;

/**
 * Issue 19 scale: 2 million feed entries downloaded, parsed, stored and loaded (index +
 * lexical model) in-process on PGlite while the event loop's delay is watched (a request
 * waits at most that long); then a restart in a fresh process, beside the same restart with
 * no feed stored (the baseline): load time, memory the lists take, lookup and classification.
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
  const emptyDir = mkdtempSync(join(tmpdir(), 'aih-bench-nolists-'));
  const feeds = `h=adult:hosts:${base}/hosts.gz,d=gambling:domains:${base}/domains.gz,a=phishing:adblock:${base}/adblock.gz,u=malware:urls:${base}/urls.gz,top=clean:domains:${base}/clean.gz`;
  const config = loadConfig({ DATA_DIR: dataDir, URL_LIST_FEEDS: feeds });
  const logger = createLogger('info', pino.destination('/dev/null'));
  let runtime = await createRuntime(config, { logger });
  global.gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  // CPU the process burnt between two 10 ms ticks: how long the loop was held, whatever the
  // machine's load (wall-clock delay also counts the time other processes had the cores; zlib's
  // thread-pool work on the other core counts here too, so this errs high).
  let cpuTick = process.cpuUsage();
  let heldCpuMs = 0;
  const ticker = setInterval(() => {
    const spent = process.cpuUsage(cpuTick);
    cpuTick = process.cpuUsage();
    heldCpuMs = Math.max(heldCpuMs, (spent.user + spent.system) / 1000);
  }, 10);
  const load = loadavg()[0] ?? 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  const results = await runtime.urlDetection.refreshFeeds();
  const refreshMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  delay.disable();
  clearInterval(sampler);
  clearInterval(ticker);
  const model = runtime.urlDetection.engine.model?.info;
  console.log(
    `refresh (download, parse, store, index, train): ${(refreshMs / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU; ${results?.filter((r) => r.ok).length}/${results?.length} feeds; model trained in ${model?.trainedMs} ms`,
  );
  console.log(
    `  event loop delay while it ran: max ${(delay.max / 1e6).toFixed(0)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms, mean ${(delay.mean / 1e6).toFixed(1)} ms wall (load average ${load.toFixed(1)} on ${cpus().length} cores); at most ${heldCpuMs.toFixed(0)} ms of CPU between two 10 ms ticks`,
  );
  console.log(`  RSS ${mb(rssBefore)} before the refresh (the bench's generated feed bodies included), peak ${mb(rssPeak)}`);
  await runtime.close();
  await (await createRuntime(loadConfig({ DATA_DIR: emptyDir, URL_LIST_FEEDS: feeds }), { logger })).close();

  const lists = await restart({ DATA_DIR: dataDir, URL_LIST_FEEDS: feeds });
  const none = await restart({ DATA_DIR: emptyDir, URL_LIST_FEEDS: feeds });
  console.log(
    `restart to ready, fresh process (${lists.entries.toLocaleString()} entries indexed, saved model ${lists.model ? 'loaded' : 'missing'}):`,
  );
  console.log(
    `  with the lists ${(lists.loadMs / 1000).toFixed(1)} s wall (${(lists.loadCpuMs / 1000).toFixed(1)} s CPU); baseline, no feed stored: ${(none.loadMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `  memory: RSS ${mb(lists.rss)} vs ${mb(none.rss)} without lists → the lists take ${mb(lists.rss - none.rss)}; JS heap + buffers ${mb(lists.heapUsed + lists.arrayBuffers)} vs ${mb(none.heapUsed + none.arrayBuffers)}`,
  );
  console.log(`list lookup (canonicalize + ≤ 60 expressions; ${lists.listed.toLocaleString()} of 20,000 probes listed):`);
  console.log(`  with ${lists.entries.toLocaleString()} entries: ${speed(lists.lookup)}`);
  console.log(`  baseline, team lists only (${none.entries.toLocaleString()}): ${speed(none.lookup)}`);
  console.log(`full classification in process (lists, rules, model; uncached):`);
  console.log(`  with the lists and their model: ${speed(lists.classify)}`);
  console.log(`  baseline, no feeds and no model: ${speed(none.classify)}`);
  server.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(emptyDir, { recursive: true, force: true });
}
