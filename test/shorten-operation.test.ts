import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import { createShortenOperation, type ShortenDeps } from '../src/operations/shorten/shorten.js';
import type { UrlVerdict } from '../src/operations/url-detect/checker.js';
import type { ApiId } from '../src/platform/catalog.js';
import { executeOperation } from '../src/platform/execute.js';
import type { Quota } from '../src/platform/quota.js';

/**
 * The shortener run directly, with fakes of its declared seams (link store, redirect cache,
 * safety checker, quota): the `check_harmful` charging rules in milliseconds. The HTTP happy
 * path and the database live in shorten.int.test.ts.
 */
function setup(verdict: UrlVerdict, counters: Partial<Record<ApiId, number>>) {
  const left = new Map(Object.entries(counters) as Array<[ApiId, number]>);
  const quota: Quota = {
    async reserve(_accountId, api) {
      const remaining = left.get(api);
      if (remaining === undefined) throw new AppError('SUBSCRIPTION_REQUIRED', `'${api}' API 구독이 필요합니다.`);
      left.set(api, remaining - 1);
      const lease = {
        api,
        remaining: remaining - 1,
        monthlyQuota: 100,
        renewsAt: new Date('2026-12-01T00:00:00+09:00'),
        holdId: '',
        settledWithResult() {},
        settle: async () => {},
        refund: async () => void left.set(api, (left.get(api) ?? 0) + 1),
      };
      return lease;
    },
  };
  const remembered: string[] = [];
  const deps: ShortenDeps = {
    links: {
      getOrCreate: async (accountId, url) => ({ link: { id: 7, accountId, code: 'aZ3k9', url, createdAt: new Date() }, created: true }),
      createLimited: async (accountId, url, limits) => ({ id: 8, accountId, code: 'bY4m2', url, createdAt: new Date(), ...limits }),
    },
    redirects: { remember: (code) => void remembered.push(code) },
    urlChecker: { check: async () => verdict },
    shortUrlBase: 'https://hub.example.kr/s',
  };
  const run = (input: unknown) =>
    executeOperation(
      quota,
      createShortenOperation(deps),
      { account: { id: 1, email: 'a@example.com' }, logger: createLogger('silent'), requestId: 't' },
      input,
    );
  return { run, left, remembered };
}

const clean: UrlVerdict = { isMalicious: false, category: 'clean', reason: '알려진 위험 신호가 없습니다.' };
const gambling: UrlVerdict = { isMalicious: true, category: 'gambling', reason: '도박 사이트 목록에 있습니다.' };

describe('url-shortener operation', () => {
  it('answers domain data only: the door adds success, api and remaining', async () => {
    const { run, remembered } = setup(clean, { 'url-shortener': 10 });
    const { output, quota } = await run({ url: 'https://example.com/a' });
    expect(output).toEqual({ short_url: 'https://hub.example.kr/s/aZ3k9', code: 'aZ3k9', url: 'https://example.com/a' });
    expect(quota).toMatchObject({ api: 'url-shortener', remaining: 9 });
    expect(remembered).toEqual(['aZ3k9']);
  });

  it("check_harmful charges the detection counter and shows it as safe with that counter's remaining", async () => {
    const { run, left } = setup(clean, { 'url-shortener': 10, 'harmful-url-detection': 5 });
    const { output } = await run({ url: 'https://example.com/a', check_harmful: true });
    expect(output.safety_check).toEqual({ is_malicious: false, category: 'safe', reason: clean.reason, remaining: 4 });
    expect([left.get('url-shortener'), left.get('harmful-url-detection')]).toEqual([9, 4]);
  });

  it('a harmful URL is 422: the verdict keeps its detection charge, the shortener call is refunded', async () => {
    const { run, left, remembered } = setup(gambling, { 'url-shortener': 10, 'harmful-url-detection': 5 });
    const refused = await run({ url: 'https://casino.example/', check_harmful: true }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'HARMFUL_URL', status: 422, extra: { is_malicious: true, category: 'gambling', remaining: 4 } });
    expect([left.get('url-shortener'), left.get('harmful-url-detection')]).toEqual([10, 4]);
    expect(remembered).toEqual([]);
  });

  it('check_harmful without the detection subscription is 403 naming it, and nothing is charged', async () => {
    const { run, left } = setup(clean, { 'url-shortener': 10 });
    const refused = await run({ url: 'https://example.com/a', check_harmful: true }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'SUBSCRIPTION_REQUIRED' });
    expect((refused as AppError).message).toContain('harmful-url-detection');
    expect(left.get('url-shortener')).toBe(10);
  });
});
