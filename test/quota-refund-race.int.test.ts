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
