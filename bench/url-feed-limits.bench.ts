import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';
import { FeedTooLargeError } from '../src/operations/url-detect/lists/feed-lines.js';
import { parseFeedAsync, type FeedFormat } from '../src/operations/url-detect/lists/feed-parse.js';

/**
 * `npm run bench url-feed-limits`: the event-loop delay (p99, max) while hostile feeds are parsed
 * (issue 33 item 1), beside an ordinary feed of the same size as the baseline, and the heap
 * growth of a gzip bomb. On a busy machine read the ratios, not the milliseconds.
 */
async function delayWhile(work: () => Promise<unknown>): Promise<{ p99: number; max: number; ms: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const started = performance.now();
  await work().catch((error: unknown) => {
    if (!(error instanceof FeedTooLargeError)) throw error;
  });
  const ms = performance.now() - started;
  histogram.disable();
  return { p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6, ms };
}

function line(label: string, figures: { p99: number; max: number; ms: number }, baseline?: { max: number }): void {
  const ratio = baseline ? ` (max ×${(figures.max / Math.max(baseline.max, 0.001)).toFixed(1)} of the ordinary feed)` : '';
  console.log(
    `  ${label.padEnd(44)} loop delay p99 ${figures.p99.toFixed(1)} ms, max ${figures.max.toFixed(1)} ms; parsed in ${figures.ms.toFixed(0)} ms${ratio}`,
  );
}

export async function run(): Promise<void> {
  console.log('\n## url feed limits (event-loop delay while a feed is parsed)');
  const ordinary = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `host-${i}.example`).join('\n'));
  const base = await delayWhile(() => parseFeedAsync(ordinary, 'domains'));
  line(`ordinary feed, ${(ordinary.length / 1e6).toFixed(1)} MB`, base);
  const blanks = Buffer.from(Array.from({ length: 20 }, () => `a${' '.repeat(60_000)}b #`).join('\n'));
  for (const format of ['domains', 'csv', 'adblock'] as FeedFormat[])
    line(`20 lines of 60,000 blanks (${format})`, await delayWhile(() => parseFeedAsync(blanks, format)), base);
  const long = Buffer.from(Array.from({ length: 100 }, () => `${'a'.repeat(128 * 1024)}.example`).join('\n'));
  line('100 lines of 128 KB (domains)', await delayWhile(() => parseFeedAsync(long, 'domains')), base);
  const bomb = gzipSync(Buffer.alloc(512 * 1024 * 1024), { level: 9 });
  const heapBefore = process.memoryUsage().rss;
  const bombFigures = await delayWhile(() => parseFeedAsync(bomb, 'domains', 64 * 1024 * 1024));
  line(`gzip bomb ${(bomb.length / 1e6).toFixed(1)} MB → 512 MB, cap 64 MB`, bombFigures, base);
  console.log(`  rss growth during the bomb: ${((process.memoryUsage().rss - heapBefore) / 1e6).toFixed(0)} MB (refused at the cap)`);
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
