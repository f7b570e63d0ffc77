import { isForbiddenAddress } from '../src/net/address-policy.js';
import type { AddressPolicy } from '../src/net/safe-request.js';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { createShortLinkExpander } from '../src/operations/url-detect/expansion/short-links.js';
import { shortenerHosts } from '../src/operations/url-detect/expansion/shorteners.js';
import { startFakeShortener } from '../test/fakes/shortener-server.js';

/**
 * `npm run bench url-short-links`: p50/p99 of one short-link expansion (two hops, HEAD then GET on
 * the second) through a local fake shortener, uncached, beside a plain local HTTP round trip as
 * the baseline (same run, same machine): read the ratio on a busy machine.
 */
const LOOPBACK: AddressPolicy = { isForbidden: (address) => address !== '127.0.0.1' && isForbiddenAddress(address) };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

export async function run(): Promise<void> {
  console.log('\n## short-link expansion (local fake shortener)');
  const fake = await startFakeShortener();
  const at = (host: string, path: string) => `http://${host}:${fake.port}${path}`;
  fake.routes.set('/a', { kind: 'redirect', location: at('t.ly', '/b') });
  fake.routes.set('/b', { kind: 'get-only', location: 'http://www.cjlogisticss.com/8hzuf0' });
  const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
  const rounds = 200;
  const plain: number[] = [];
  const expansions: number[] = [];
  for (let i = 0; i < rounds; i++) {
    let started = performance.now();
    await fetch(`http://127.0.0.1:${fake.port}/a`, { method: 'HEAD', redirect: 'manual' });
    plain.push(performance.now() - started);
    // A new expander each round: nothing cached.
    const expander = createShortLinkExpander({ shorteners: shortenerHosts(undefined), policy: LOOPBACK, resolve });
    started = performance.now();
    const result = await expander.expand(canonicalizeUrl(at('han.gl', '/a')));
    expansions.push(performance.now() - started);
    if (!result.complete) throw new Error(`expansion failed: ${result.failure}`);
  }
  await fake.close();
  const p50 = percentile(expansions, 0.5);
  const p99 = percentile(expansions, 0.99);
  const base = percentile(plain, 0.5);
  console.log(
    `  expansion (2 hops, 3 requests): p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms; one plain local HEAD p50 ${base.toFixed(2)} ms (expansion ×${(p50 / Math.max(base, 0.001)).toFixed(1)})`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
