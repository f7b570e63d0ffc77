import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { quotaHolds, shortLinks, subscriptions } from '../db/schema.js';
import { AppError } from '../src/errors.js';
import { createLinkStore } from '../src/operations/shorten/links.js';
import { createSubscriptions } from '../src/platform/subscriptions.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * A short link and the call that made it commit in one statement (src/operations/shorten/links.ts),
 * so no crash between them can leave a link nobody paid for (the kill -9 case itself:
 * test/quota-crash.e2e.test.ts). Here the crash is the recovery that gives back a dead
 * instance's holds, run at the two moments that matter.
 */
describe('a short link and its charge', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ DEFAULT_QUOTA: '100' });
  });
  afterAll(() => app.close());

  /** An instance of its own (no lease ahead), whose holds a recovery may give back as a dead one's. */
  function instance(instanceId: number) {
    return createSubscriptions(app.runtime.db, {
      defaultQuota: 100,
      instanceId,
      clock: () => new Date(),
      audit: app.runtime.platform.audit,
    });
  }

  async function stored(accountId: number) {
    const [row] = await app.runtime.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.accountId, accountId), eq(subscriptions.api, 'url-shortener')));
    const [links] = await app.runtime.db
      .select({ n: sql<number>`count(*)::int` })
      .from(shortLinks)
      .where(eq(shortLinks.accountId, accountId));
    return { used: 100 - row!.remaining, links: links!.n };
  }

  it('is charged once the link exists, even when its instance dies before settling', async () => {
    const user = await app.signUp();
    const dying = instance(991_001);
    const lease = await dying.reserve(user.accountId, 'url-shortener');
    const links = createLinkStore(app.runtime.db);
    const { created } = await links.getOrCreate(user.accountId, 'https://example.com/exactly-once', lease.holdId);
    expect(created).toBe(true);
    // The instance dies here, before its executor settles: another gives its holds back.
    await instance(991_002).startRecovery();
    expect(await stored(user.accountId)).toEqual({ used: 1, links: 1 });
  });

  it('makes no link for a call whose hold was given back, and answers 503', async () => {
    const user = await app.signUp();
    const lease = await instance(991_003).reserve(user.accountId, 'url-shortener');
    // This instance was taken for dead while the call ran: its hold is given back.
    await app.runtime.db.delete(quotaHolds).where(eq(quotaHolds.id, Number(lease.holdId)));
    await app.runtime.db
      .update(subscriptions)
      .set({ remaining: sql`${subscriptions.remaining} + 1` })
      .where(and(eq(subscriptions.accountId, user.accountId), eq(subscriptions.api, 'url-shortener')));
    const links = createLinkStore(app.runtime.db);
    const refused = await links.getOrCreate(user.accountId, 'https://example.com/unpaid', lease.holdId).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('UNAVAILABLE');
    expect(await stored(user.accountId)).toEqual({ used: 0, links: 0 });
  });

  it('answers an existing link without a second charge of its own', async () => {
    const user = await app.signUp();
    const first = await app.post('/api/v1/url/shorten', { url: 'https://example.com/twice' }, user.apiKey);
    const second = await app.post('/api/v1/url/shorten', { url: 'https://example.com/twice' }, user.apiKey);
    expect(second.body.code).toBe(first.body.code);
    // (What a busy instance leased ahead is still the customer's: the usage it shows counts it in.)
    expect(await app.remaining(user.apiKey, 'url-shortener')).toBe(98);
    expect((await stored(user.accountId)).links).toBe(1);
  });
});
