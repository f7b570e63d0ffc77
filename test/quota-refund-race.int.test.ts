import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * Refunds racing takes of the same key (src/platform/quota-hold-store.ts). A take locks the
 * subscription row and then its hold row; a refund must take the two in the same order, or
 * PostgreSQL breaks the cycle by aborting the refund and the customer loses the unit.
 */
describe('refunds while the same key keeps taking', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ DEFAULT_QUOTA: '1000' });
  });
  afterAll(() => app.close());

  it('gives every refunded call back: none fails, none is lost', async () => {
    const user = await app.signUp();
    const { subscriptions } = app.runtime.platform;
    const before = await app.remaining(user.apiKey, 'url-shortener');
    // Waves of calls that all fail: each wave's refunds meet the next wave's takes.
    const failures: unknown[] = [];
    for (let wave = 0; wave < 8; wave++) {
      await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          await new Promise((resolve) => setTimeout(resolve, i % 4));
          const lease = await subscriptions.reserve(user.accountId, 'url-shortener');
          await lease.refund().catch((error: unknown) => failures.push(error));
        }),
      );
    }
    expect(failures).toEqual([]);
    expect(await app.remaining(user.apiKey, 'url-shortener')).toBe(before);
  });
});

/**
 * Settles of many keys at once (src/platform/quota-hold-store.ts): a few settle statements run
 * at a time beside the takes, each counting off several hold rows. Unless every statement
 * locks hold rows in the same (account, api) order, PostgreSQL aborts one with a deadlock and
 * its calls, already done, fail with 500 (seen in `npm run bench api-path` with 32 keys).
 */
describe('answered calls of many keys settling at once', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ DEFAULT_QUOTA: '100000' });
  });
  afterAll(() => app.close());

  it('records every call: no settle statement is aborted', async () => {
    const users = await Promise.all(Array.from({ length: 12 }, () => app.signUp()));
    const { subscriptions } = app.runtime.platform;
    const failures: unknown[] = [];
    for (let wave = 0; wave < 10; wave++) {
      await Promise.all(
        Array.from({ length: 96 }, async (_, i) => {
          // Keys in a different order each wave, finishing at staggered moments.
          const user = users[(i * 7 + wave * 5) % users.length]!;
          const lease = await subscriptions.reserve(user.accountId, 'url-shortener');
          await new Promise((resolve) => setTimeout(resolve, (i * 13 + wave) % 5));
          await lease.settle().catch((error: unknown) => failures.push(error));
        }),
      );
    }
    expect(failures).toEqual([]);
    const used = await Promise.all(users.map((user) => app.remaining(user.apiKey, 'url-shortener')));
    expect(used.reduce<number>((sum, left) => sum + (100000 - left!), 0)).toBe(960);
  });
});
