import { safeRequest, type AddressLookup, type AddressPolicy } from '../../../net/safe-request.js';
import { canonicalizeUrl, type CanonicalUrl } from '../canonicalize.js';
import { shortenerOf } from './shorteners.js';
import { boundedCache } from '../../../bounded-cache.js';

/**
 * Following a public shortener's redirects to see where a short link leads (issue 31 item 3).
 * Only links of known shorteners are followed, and only while the next hop is a shortener too:
 * the target itself is never requested (its address is in the `Location` header), so the
 * service does not visit harmful sites. At most 5 hops and 3 s in all; `HEAD` first, then a
 * small `GET` (some shorteners answer `HEAD` with 405 or 200, or redirect with a page); every
 * hop goes through `safeRequest` (address checked after DNS, the checked address connected to).
 */

export interface Expansion {
  /** Every URL of the chain, the short link first and the last address reached last. */
  chain: string[];
  /** True when the chain ended at an address that is not a shortener (the target). */
  complete: boolean;
  /** Why the target could not be told (Korean, shown in the verdict). */
  failure?: string;
}

export interface ShortLinkExpander {
  /** True for a link this expander follows (a known shortener, a path beyond its root). */
  follows(url: CanonicalUrl): boolean;
  expand(url: CanonicalUrl): Promise<Expansion>;
}

export interface ExpanderOptions {
  shorteners: ReadonlySet<string>;
  maxHops?: number;
  totalMs?: number;
  /** Production: public addresses only. Tests inject a policy that lets their loopback fake be reached. */
  policy?: AddressPolicy;
  resolve?: AddressLookup;
  cacheSize?: number;
  /** How long an expansion is reused (failures: a tenth of it). */
  cacheMs?: number;
}

const MAX_HOPS = 5;
const TOTAL_MS = 3000;
/** A shortener's redirect page is small; a meta refresh sits in its head. */
const MAX_BODY_BYTES = 16 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function createShortLinkExpander(options: ExpanderOptions): ShortLinkExpander {
  const cacheMs = options.cacheMs ?? 60 * 60 * 1000;
  const cache = boundedCache<string, Expansion>(options.cacheSize ?? 10_000, { ttl: cacheMs });
  const pending = new Map<string, Promise<Expansion>>();

  function follows(url: CanonicalUrl): boolean {
    return shortenerOf(url.host, options.shorteners) !== undefined && url.path.length > 1;
  }

  async function walk(start: CanonicalUrl): Promise<Expansion> {
    const signal = AbortSignal.timeout(options.totalMs ?? TOTAL_MS);
    const chain = [start.href];
    const seen = new Set(chain);
    let current = start.href;
    for (let hop = 0; hop < (options.maxHops ?? MAX_HOPS); hop++) {
      let next: string | undefined;
      try {
        next = await nextHop(new URL(current), signal);
      } catch (error) {
        return { chain, complete: false, failure: failureText(error, signal, options.totalMs ?? TOTAL_MS) };
      }
      if (next === undefined) return { chain, complete: false, failure: '단축 URL 서비스가 목적지를 알려주지 않았습니다' };
      let target: CanonicalUrl;
      try {
        target = canonicalizeUrl(next);
      } catch {
        return { chain, complete: false, failure: '목적지가 http(s) 주소가 아닙니다' };
      }
      if (seen.has(target.href)) return { chain, complete: false, failure: '단축 URL이 같은 주소를 맴돕니다(리디렉션 순환)' };
      chain.push(target.href);
      seen.add(target.href);
      if (!shortenerOf(target.host, options.shorteners)) return { chain, complete: true };
      current = target.href;
    }
    return { chain, complete: false, failure: `리디렉션이 ${options.maxHops ?? MAX_HOPS}번을 넘습니다` };
  }

  /** The next address of a hop: a redirect's `Location`, else a small GET's redirect or meta refresh. */
  async function nextHop(url: URL, signal: AbortSignal): Promise<string | undefined> {
    const common = { signal, maxBodyBytes: MAX_BODY_BYTES, policy: options.policy, resolve: options.resolve };
    const head = await safeRequest(url, { ...common, method: 'HEAD' });
    const fromHead = locationOf(head.status, head.headers.location, url);
    if (fromHead) return fromHead;
    const get = await safeRequest(url, { ...common, method: 'GET' });
    return locationOf(get.status, get.headers.location, url) ?? metaRefresh(get.body.toString('utf8'), url);
  }

  return {
    follows,
    async expand(url) {
      const cached = cache.get(url.href);
      if (cached) return cached;
      // Concurrent checks of one link share one walk.
      let walking = pending.get(url.href);
      if (!walking) {
        walking = walk(url).finally(() => pending.delete(url.href));
        pending.set(url.href, walking);
      }
      const result = await walking;
      cache.set(url.href, result, { ttl: result.failure ? cacheMs / 10 : cacheMs });
      return result;
    },
  };
}

function locationOf(status: number, location: string | undefined, base: URL): string | undefined {
  if (!REDIRECTS.has(status) || !location) return undefined;
  try {
    return new URL(location, base).href;
  } catch {
    return undefined;
  }
}

/** `<meta http-equiv="refresh" content="0; url=…">` in a redirect page (read from a capped body). */
function metaRefresh(html: string, base: URL): string | undefined {
  const tag = /<meta[^>]{0,200}http-equiv\s*=\s*["']?refresh["']?[^>]{0,400}>/i.exec(html)?.[0];
  const target = tag && /content\s*=\s*["']?\s*\d*\s*;?\s*url\s*=\s*['"]?([^"'>\s]+)/i.exec(tag)?.[1];
  if (!target) return undefined;
  try {
    return new URL(target, base).href;
  } catch {
    return undefined;
  }
}

function failureText(error: unknown, signal: AbortSignal, totalMs: number): string {
  if (signal.aborted) return `${totalMs / 1000}초 안에 목적지를 확인하지 못했습니다`;
  const code = (error as { code?: string }).code;
  if (code === 'EFORBIDDENADDRESS') return '단축 URL이 내부망·예약 주소로 이어져 따라가지 않았습니다';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return '단축 URL 서비스의 주소를 찾지 못했습니다(오프라인이거나 없는 서비스)';
  return '단축 URL 서비스에 연결하지 못했습니다';
}

/** The chain as the reason shows it: `han.gl/AbCd → cjlogisticss.com/8hzuf0`. */
export function describeChain(chain: readonly string[]): string {
  // Queries stay out of the reason (they may carry the recipient's data).
  return chain
    .map((href) =>
      href
        .replace(/^https?:\/\//, '')
        .replace(/^www\./, '')
        .replace(/[?#].*$/, '')
        .slice(0, 60),
    )
    .join(' → ');
}
