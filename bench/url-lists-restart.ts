import { pino } from 'pino';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { createRuntime } from '../src/runtime.js';
import { percentile } from './lib.js';
import { PER_FEED, word } from './url-lists-scale.js';

/**
 * One restart, in a process of its own (so its memory is the restart's, not the refresh's
 * garbage): `DATA_DIR` and `URL_LIST_FEEDS` from the environment. Prints one JSON line:
 * load time, memory after a full GC, and list-lookup and classification speed.
 */
const config = loadConfig({ ...process.env, URL_LIST_REFRESH: 'off' });
const logger = createLogger('info', pino.destination('/dev/null'));
global.gc?.();
const before = process.memoryUsage();
const started = performance.now();
const cpu = process.cpuUsage();
const runtime = await createRuntime(config, { logger });
const loadMs = performance.now() - started;
const used = process.cpuUsage(cpu);
global.gc?.();
await new Promise((resolve) => setTimeout(resolve, 200));
global.gc?.();
const after = process.memoryUsage();
const engine = runtime.urlDetection.engine;

// Half the probes are on a list (a page under a subdomain of the `domains` feed's entries), half on none.
const probes = Array.from({ length: 20_000 }, (_, i) =>
  i % 2 ? `https://sub.${word(PER_FEED + i * 7)}.xyz/page/${i}` : `https://example-${i}.org/page/${i}`,
);
const time = (fn: (url: string) => unknown) => {
  for (const url of probes.slice(0, 2000)) fn(url);
  const samples = probes.map((url) => {
    const t = process.hrtime.bigint();
    fn(url);
    return Number(process.hrtime.bigint() - t) / 1000;
  });
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { meanUs: mean, p50Us: percentile(samples, 50), p99Us: percentile(samples, 99), perSecond: Math.round(1e6 / mean) };
};
const listed = probes.filter((url) => engine.listCheck(url)).length;
const lookup = time((url) => engine.listCheck(url));
const classify = time((url) => engine.classifyRules(`${url}?n=${Math.random()}`));
console.log(
  JSON.stringify({
    entries: engine.listSize,
    model: engine.model !== undefined,
    loadMs,
    loadCpuMs: (used.user + used.system) / 1000,
    rss: after.rss,
    rssAtStart: before.rss,
    heapUsed: after.heapUsed,
    arrayBuffers: after.arrayBuffers,
    external: after.external,
    listed,
    lookup,
    classify,
  }),
);
await runtime.close();
