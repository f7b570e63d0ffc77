import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isForbiddenAddress } from '../src/net/address-policy.js';
import { safeRequest, type AddressLookup, type AddressPolicy } from '../src/net/safe-request.js';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { buildDetectionLists } from '../src/operations/url-detect/lists/detection-lists.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { createShortLinkExpander, type ExpanderOptions } from '../src/operations/url-detect/expansion/short-links.js';
import { shortenerHosts } from '../src/operations/url-detect/expansion/shorteners.js';
import { startFakeShortener, type FakeShortener } from './fakes/shortener-server.js';

/**
 * Short links judged by where they lead (issue 31 item 3), against a local fake shortener that
 * answers under the real shorteners' names through an injected resolver. The only way a test
 * reaches 127.0.0.1 is the explicit policy below; the production default refuses it.
 */
const LOOPBACK_FOR_THE_FAKE: AddressPolicy = { isForbidden: (address) => address !== '127.0.0.1' && isForbiddenAddress(address) };

/** Shortener names point at the fake; `c11.kr` (in the private-hop test) at an inside address. */
const resolve: AddressLookup = async (hostname) => {
  if (hostname === 'c11.kr') return [{ address: '10.0.0.7', family: 4 }];
  if (hostname === 'zrr.kr')
    return [
      { address: '127.0.0.1', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ];
  return [{ address: '127.0.0.1', family: 4 }];
};

let fake: FakeShortener;
const at = (host: string, path: string) => `http://${host}:${fake.port}${path}`;

beforeAll(async () => {
  fake = await startFakeShortener();
  fake.routes.set('/AbCd', { kind: 'redirect', location: at('t.ly', '/xyz'), setCookie: true });
  fake.routes.set('/xyz', { kind: 'get-only', location: 'http://www.cjlogisticss.com/8hzuf0?to=010-1234' });
  fake.routes.set('/clean', { kind: 'redirect', status: 301, location: 'https://www.example-shop.co.kr/event/winter' });
  fake.routes.set('/meta', { kind: 'meta', location: 'http://bmk.ilogensn.com/kr' });
  fake.routes.set('/loop-a', { kind: 'redirect', location: at('buly.kr', '/loop-b') });
  fake.routes.set('/loop-b', { kind: 'redirect', location: at('han.gl', '/loop-a') });
  fake.routes.set('/slow', { kind: 'slow' });
  fake.routes.set('/huge', { kind: 'huge' });
  fake.routes.set('/to-private', { kind: 'redirect', location: at('c11.kr', '/next') });
  fake.routes.set('/to-rebind', { kind: 'redirect', location: at('zrr.kr', '/next') });
  for (let i = 0; i < 7; i++) fake.routes.set(`/hop${i}`, { kind: 'redirect', location: at('t.ly', `/hop${i + 1}`) });
});

afterAll(() => fake.close());

function expander(extra: Partial<ExpanderOptions> = {}) {
  return createShortLinkExpander({ shorteners: shortenerHosts(undefined), policy: LOOPBACK_FOR_THE_FAKE, resolve, ...extra });
}

async function engineWith(extra: Partial<ExpanderOptions> = {}) {
  const lists = await buildDetectionLists([{ name: 'kisa', category: 'phishing', entries: ['cjlogisticss.com/'] }], { model: false });
  return createUrlEngine({ ...lists, expander: expander(extra) });
}

describe('short-link expansion', () => {
  it('follows HEAD redirects and a GET-only hop, judges the target, and names the chain in Korean (without the query)', async () => {
    const engine = await engineWith();
    const verdict = await engine.classify(at('han.gl', '/AbCd'));
    expect(verdict).toMatchObject({ isMalicious: true, category: 'phishing' });
    expect(verdict.reason).toContain(`han.gl:${fake.port}/AbCd → t.ly:${fake.port}/xyz → cjlogisticss.com/8hzuf0`);
    expect(verdict.reason).not.toContain('010-1234');
    // The target itself was never requested; HEAD first, GET only where HEAD told nothing; no cookie sent back.
    const seen = fake.requests.filter((r) => r.path === '/AbCd' || r.path === '/xyz').map((r) => `${r.method} ${r.path}`);
    expect(seen).toEqual(['HEAD /AbCd', 'HEAD /xyz', 'GET /xyz']);
    expect(fake.requests.every((r) => r.cookie === undefined)).toBe(true);
  });

  it('caches expansions: a second check of the same link sends nothing', async () => {
    const links = expander();
    const url = canonicalizeUrl(at('han.gl', '/clean'));
    const first = await links.expand(url);
    const count = fake.requests.length;
    expect(await links.expand(url)).toEqual(first);
    expect(fake.requests.length).toBe(count);
    expect(first).toMatchObject({ complete: true, chain: [url.href, 'https://www.example-shop.co.kr/event/winter'] });
  });

  it('a clean target says so; a meta refresh in a small page is followed', async () => {
    const engine = await engineWith();
    const clean = await engine.classify(at('bit.ly', '/clean'));
    expect(clean.isMalicious).toBe(false);
    expect(clean.reason).toContain('example-shop.co.kr/event/winter');
    expect((await expander().expand(canonicalizeUrl(at('me2.kr', '/meta')))).chain.at(-1)).toBe('http://bmk.ilogensn.com/kr');
  });

  it('loops, more than 5 hops, a slow shortener and an endless answer end with "could not be checked"', async () => {
    const links = expander({ totalMs: 300 });
    const loop = await links.expand(canonicalizeUrl(at('han.gl', '/loop-a')));
    expect(loop).toMatchObject({ complete: false, failure: expect.stringContaining('순환') });
    const long = await links.expand(canonicalizeUrl(at('t.ly', '/hop0')));
    expect(long).toMatchObject({ complete: false, failure: expect.stringContaining('5번') });
    expect(long.chain).toHaveLength(6);
    const slow = await links.expand(canonicalizeUrl(at('han.gl', '/slow')));
    expect(slow).toMatchObject({ complete: false, failure: expect.stringContaining('확인하지 못했습니다') });
    const huge = await expander().expand(canonicalizeUrl(at('han.gl', '/huge')));
    expect(huge).toMatchObject({ complete: false, failure: expect.stringContaining('목적지를 알려주지 않았습니다') });
    // The reader stopped at its 16 KB cap; the fake's socket buffers hold a few hundred KB at most.
    expect(fake.hugeBytesSent).toBeLessThan(8 * 1024 * 1024);

    const engine = await engineWith({ totalMs: 300 });
    const verdict = await engine.classify(at('han.gl', '/slow'));
    expect(verdict.isMalicious).toBe(false);
    expect(verdict.reason).toContain('단축 URL의 목적지는 확인하지 못했습니다');
  });

  it('never connects to a private address: a hop resolving inside, or to one public and one metadata address, is refused', async () => {
    const links = expander();
    const inside = await links.expand(canonicalizeUrl(at('han.gl', '/to-private')));
    expect(inside).toMatchObject({ complete: false, failure: expect.stringContaining('내부망') });
    expect(inside.chain.at(-1)).toBe(at('c11.kr', '/next'));
    const rebind = await links.expand(canonicalizeUrl(at('han.gl', '/to-rebind')));
    expect(rebind.failure).toContain('내부망');
  });

  it('the production policy refuses loopback and literal private addresses before any byte is sent', async () => {
    const before = fake.requests.length;
    const production = createShortLinkExpander({ shorteners: shortenerHosts(undefined), resolve });
    expect((await production.expand(canonicalizeUrl(at('han.gl', '/AbCd')))).failure).toContain('내부망');
    await expect(
      safeRequest(new URL('http://169.254.169.254/latest/meta-data'), {
        method: 'GET',
        signal: AbortSignal.timeout(1000),
        maxBodyBytes: 10,
      }),
    ).rejects.toMatchObject({ code: 'EFORBIDDENADDRESS' });
    expect(fake.requests.length).toBe(before);
  });

  it('follows only known shorteners with a path; URL_EXPAND_SHORTENERS adds hosts', () => {
    const links = expander();
    expect(links.follows(canonicalizeUrl('https://han.gl/AbCd'))).toBe(true);
    expect(links.follows(canonicalizeUrl('https://han.gl/'))).toBe(false);
    expect(links.follows(canonicalizeUrl('https://www.cjlogisticss.com/8hzuf0'))).toBe(false);
    expect(shortenerHosts('go.example , s.example').has('s.example')).toBe(true);
    expect(() => shortenerHosts('not a host')).toThrow('URL_EXPAND_SHORTENERS');
  });
});
