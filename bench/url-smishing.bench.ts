import { existsSync, readFileSync } from 'node:fs';
import { isForbiddenAddress } from '../src/net/address-policy.js';
import type { AddressPolicy } from '../src/net/safe-request.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { createShortLinkExpander } from '../src/operations/url-detect/expansion/short-links.js';
import { shortenerHosts } from '../src/operations/url-detect/expansion/shorteners.js';
import { buildDetectionLists, type LoadedFeed } from '../src/operations/url-detect/lists/detection-lists.js';
import { parseFeed } from '../src/operations/url-detect/lists/feed-parse.js';
import { startFakeShortener } from '../test/fakes/shortener-server.js';
import { sharedDataPath } from '../test/helpers/shared-data.js';
import { percentile } from './lib.js';
import { PER_FEED, word } from './url-lists-scale.js';

/**
 * `npm run bench url-smishing`: the Korean smishing path under production-sized lists —
 * classifications per second with KISA's feed (../shared/data/url-lists-kr, read in place) and
 * 2 M synthetic global entries loaded, the models trained on them and the top-sites list; then
 * p50/p99 of one short link judged end to end (expansion through a local fake shortener, two hops,
 * and the target's verdict), uncached. Baselines of the same run: `new URL()` alone, and a plain
 * local HEAD. Read the ratios on a busy machine.
 */
const KR = sharedDataPath('url-lists-kr/');
const UMBRELLA = sharedDataPath('url-lists/clean-umbrella-top-100k-2026-07-24.txt.gz');
const LOOPBACK: AddressPolicy = { isForbidden: (address) => address !== '127.0.0.1' && isForbiddenAddress(address) };

function globalFeeds(): LoadedFeed[] {
  const categories = ['spam', 'gambling', 'adult', 'phishing'] as const;
  const suffixes = ['com', 'xyz', 'top', 'net'];
  return categories.map((category, f) => ({
    name: `synthetic-${category}`,
    category,
    entries: Array.from({ length: PER_FEED }, (_, i) => `${word(f * PER_FEED + i)}.${suffixes[f]}`),
  }));
}

/** KISA's 2023 report URLs (the link column), then Korean clean links: what the bench classifies. */
function koreanUrls(): string[] {
  const reported = readFileSync(`${KR}kisa-phishing-2023-01-06.csv`, 'utf8')
    .split(/\r?\n/)
    .slice(1)
    .flatMap((line) => /https?:\/\/[^\s",]+/.exec(line)?.[0] ?? []);
  const clean = ['clean-kr-devblogs.txt', 'clean-kr-sites.txt'].flatMap((file) =>
    readFileSync(`${KR}${file}`, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^https?:\/\//.test(line)),
  );
  return [...reported.slice(0, 3000), ...clean];
}

function perUrl(urls: readonly string[], rounds: number, fn: (url: string) => unknown) {
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const url of urls) {
      const start = process.hrtime.bigint();
      try {
        fn(url);
      } catch {
        // A reported link that is no valid URL: a 400 in the service, timed all the same.
      }
      samples.push(Number(process.hrtime.bigint() - start) / 1000);
    }
  }
  const mean = samples.reduce((a, b) => a + b, 0) / samples.length;
  return { perSecond: Math.round(1e6 / mean), p50: percentile(samples, 50), p99: percentile(samples, 99), mean };
}

export async function run(): Promise<void> {
  console.log(
    '\n## Korean smishing: classification with KISA + 2 M global entries loaded, and a short link judged through a fake shortener',
  );
  if (!existsSync(`${KR}kisa-phishing-2022-09-11.csv`) || !existsSync(UMBRELLA)) {
    console.log('(../shared/data/url-lists-kr or the top-sites list is absent: skipped)');
    return;
  }
  const kisa: LoadedFeed = {
    name: 'kisa-smishing',
    category: 'phishing',
    entries: parseFeed(readFileSync(`${KR}kisa-phishing-2022-09-11.csv`), 'csv').entries,
  };
  const clean: LoadedFeed = { name: 'top-sites', category: 'clean', entries: parseFeed(readFileSync(UMBRELLA), 'domains').entries };
  let started = performance.now();
  const lists = await buildDetectionLists([...globalFeeds(), kisa, clean]);
  console.log(
    `  lists built: ${lists.index.size.toLocaleString()} entries, smishing model ${lists.smishing ? 'trained' : 'absent'}, ${Math.round(performance.now() - started)} ms`,
  );
  const engine = createUrlEngine(lists);
  const urls = koreanUrls();
  const parse = perUrl(urls, 5, (url) => new URL(url));
  perUrl(urls, 1, (url) => engine.classifyRules(url)); // warm-up (JIT)
  const classify = perUrl(urls, 5, (url) => engine.classifyRules(url));
  const show = (label: string, f: ReturnType<typeof perUrl>) =>
    console.log(`  ${label.padEnd(40)} ${String(f.perSecond).padStart(8)} /s  p50 ${f.p50.toFixed(1)} µs  p99 ${f.p99.toFixed(1)} µs`);
  show(`baseline: new URL() (${urls.length} URLs)`, parse);
  show('classifyRules, uncached', classify);
  console.log(`  (classification ×${(classify.mean / parse.mean).toFixed(1)} URL parsing)`);

  const fake = await startFakeShortener();
  const at = (host: string, path: string) => `http://${host}:${fake.port}${path}`;
  fake.routes.set('/a', { kind: 'redirect', location: at('t.ly', '/b') });
  fake.routes.set('/b', { kind: 'get-only', location: 'http://www.cjlogisticss.com/8hzuf0' });
  const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
  const plain: number[] = [];
  const judged: number[] = [];
  for (let i = 0; i < 200; i++) {
    started = performance.now();
    await fetch(`http://127.0.0.1:${fake.port}/a`, { method: 'HEAD', redirect: 'manual' });
    plain.push(performance.now() - started);
    // A new engine on the same lists each round: neither the verdict nor the expansion is cached.
    const expander = createShortLinkExpander({ shorteners: shortenerHosts(undefined), policy: LOOPBACK, resolve });
    const fresh = createUrlEngine({ ...lists, expander });
    started = performance.now();
    const verdict = await fresh.classify(at('han.gl', '/a'));
    judged.push(performance.now() - started);
    if (!verdict.isMalicious) throw new Error(`the fake chain's target was not condemned: ${verdict.reason}`);
  }
  await fake.close();
  const base = percentile(plain, 50);
  console.log(
    `  short link judged (2 hops, 3 requests, target classified): p50 ${percentile(judged, 50).toFixed(2)} ms, p99 ${percentile(judged, 99).toFixed(2)} ms; plain local HEAD p50 ${base.toFixed(2)} ms`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
