import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import type { ApiId } from '../src/platform/catalog.js';
import { executeOperation, type Operation } from '../src/platform/execute.js';
import type { Quota, QuotaLease } from '../src/platform/quota.js';

/** A counter per API in memory, as the executor sees `Subscriptions` through its `Quota` seam. */
function fakeQuota(start: Partial<Record<ApiId, number>>, options: { refundFails?: boolean; settleFails?: boolean } = {}) {
  const left = new Map(Object.entries(start) as Array<[ApiId, number]>);
  const refunds: ApiId[] = [];
  const settles: ApiId[] = [];
  const quota: Quota = {
    async reserve(_accountId, api) {
      const remaining = left.get(api);
      if (remaining === undefined) throw new AppError('SUBSCRIPTION_REQUIRED', `'${api}' 구독이 필요합니다.`);
      if (remaining <= 0) throw new AppError('QUOTA_EXCEEDED', '한도를 모두 사용했습니다.', { remaining: 0 }, 60);
      left.set(api, remaining - 1);
      const lease: QuotaLease = {
        api,
        remaining: remaining - 1,
        monthlyQuota: 10,
        renewsAt: new Date('2026-12-01T00:00:00+09:00'),
        holdId: '',
        settledWithResult() {},
        async settle() {
          if (options.settleFails) throw new AppError('UNAVAILABLE', '호출을 기록하지 못했습니다.');
          settles.push(api);
        },
        async refund() {
          if (options.refundFails) throw new Error('database down');
          refunds.push(api);
          left.set(api, (left.get(api) ?? 0) + 1);
          lease.remaining += 1;
        },
      };
      return lease;
    },
  };
  return { quota, left, refunds, settles };
}

const logged: Array<{ msg: string; api?: string }> = [];
const logger = createLogger('error', { write: (line: string) => void logged.push(JSON.parse(line)) });
const caller = { account: { id: 1, email: 'a@example.com' }, logger, requestId: 'test' };
const schema = z.object({ n: z.number() });

function operation(
  run: Operation<typeof schema, { n: number }>['run'],
  isFree?: (output: { n: number }) => boolean,
): Operation<typeof schema, { n: number }> {
  return { api: 'url-shortener', schema, run, ...(isFree ? { isFree } : {}) };
}

describe('executeOperation: one way to charge', () => {
  it("hands the operation the caller's signal only when it asks (a door may make it then)", async () => {
    const { quota } = fakeQuota({ 'url-shortener': 3 });
    let made = 0;
    const lazy = {
      ...caller,
      get signal() {
        made++;
        return AbortSignal.abort();
      },
    };
    await executeOperation(
      quota,
      operation(async (_ctx, input) => input),
      lazy,
      { n: 1 },
    );
    expect(made).toBe(0);
    const aborted = await executeOperation(
      quota,
      operation(async (ctx) => ({ n: ctx.signal?.aborted ? 1 : 0 })),
      lazy,
      { n: 1 },
    );
    expect([aborted.output.n, made]).toEqual([1, 1]);
  });

  it('validates before charging: a 400 costs nothing', async () => {
    const { quota, left } = fakeQuota({ 'url-shortener': 3 });
    await expect(
      executeOperation(
        quota,
        operation(async (_ctx, input) => input),
        caller,
        { n: 'x' },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(left.get('url-shortener')).toBe(3);
  });

  it("charges the operation's call, records it before answering, and answers the counter after it", async () => {
    const { quota, left, settles } = fakeQuota({ 'url-shortener': 3 });
    const result = await executeOperation(
      quota,
      operation(async (_ctx, input) => input),
      caller,
      { n: 1 },
    );
    expect(result).toMatchObject({ output: { n: 1 }, quota: { api: 'url-shortener', remaining: 2, monthlyQuota: 10 } });
    expect(left.get('url-shortener')).toBe(2);
    expect(settles).toEqual(['url-shortener']);
  });

  it('answers 503 and gives every charge back when a charge cannot be recorded', async () => {
    const { quota, left, refunds } = fakeQuota({ 'url-shortener': 3 }, { settleFails: true });
    await expect(
      executeOperation(
        quota,
        operation(async (_ctx, input) => input),
        caller,
        { n: 1 },
      ),
    ).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect(refunds).toEqual(['url-shortener']);
    expect(left.get('url-shortener')).toBe(3);
  });

  it('refunds every charge of a failed run, the extra ones taken with ctx.charge included', async () => {
    const { quota, left, refunds } = fakeQuota({ 'url-shortener': 3, 'harmful-url-detection': 3 });
    const failing = operation(async (ctx) => {
      await ctx.charge('harmful-url-detection');
      throw new AppError('UPSTREAM_ERROR', '업스트림 오류');
    });
    await expect(executeOperation(quota, failing, caller, { n: 1 })).rejects.toMatchObject({ code: 'UPSTREAM_ERROR' });
    expect(refunds.sort()).toEqual(['harmful-url-detection', 'url-shortener']);
    expect([left.get('url-shortener'), left.get('harmful-url-detection')]).toEqual([3, 3]);
  });

  it('keeps and records the charge an error says was earned (a harmful verdict) and refunds the rest', async () => {
    const { quota, left, settles } = fakeQuota({ 'url-shortener': 3, 'harmful-url-detection': 3 });
    const harmful = operation(async (ctx) => {
      const charged = await ctx.charge('harmful-url-detection');
      throw new AppError('HARMFUL_URL', '유해한 URL', { remaining: charged.remaining }).earns('harmful-url-detection');
    });
    await expect(executeOperation(quota, harmful, caller, { n: 1 })).rejects.toMatchObject({
      code: 'HARMFUL_URL',
      extra: { remaining: 2 },
    });
    expect([left.get('url-shortener'), left.get('harmful-url-detection')]).toEqual([3, 2]);
    expect(settles).toEqual(['harmful-url-detection']);
  });

  it('a failed refund is logged and never replaces the real error', async () => {
    const { quota } = fakeQuota({ 'url-shortener': 3 }, { refundFails: true });
    logged.length = 0;
    const failing = operation(async () => {
      throw new AppError('UPSTREAM_TIMEOUT', '시간 초과');
    });
    await expect(executeOperation(quota, failing, caller, { n: 1 })).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    expect(logged).toEqual([expect.objectContaining({ msg: 'quota refund failed', api: 'url-shortener' })]);
  });

  it('gives back the call of a free answer and reports the counter after the refund', async () => {
    const { quota, left } = fakeQuota({ 'url-shortener': 3 });
    const result = await executeOperation(
      quota,
      operation(
        async (_ctx, input) => input,
        (output) => output.n === 0,
      ),
      caller,
      { n: 0 },
    );
    expect(result.quota.remaining).toBe(3);
    expect(left.get('url-shortener')).toBe(3);
  });

  it('passes 403 and 429 through without running the operation', async () => {
    let ran = 0;
    const counting = operation(async (_ctx, input) => (ran++, input));
    await expect(executeOperation(fakeQuota({}).quota, counting, caller, { n: 1 })).rejects.toMatchObject({
      code: 'SUBSCRIPTION_REQUIRED',
    });
    await expect(executeOperation(fakeQuota({ 'url-shortener': 0 }).quota, counting, caller, { n: 1 })).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      retryAfterSeconds: 60,
    });
    expect(ran).toBe(0);
  });
});
