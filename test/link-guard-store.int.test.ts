import { chatUser } from '../bots/commands/attribution.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardOutcome, GuardResponder } from '../src/operations/link-guard/link-guard.js';
import { ownTestDatabase, startTestApp, type TestApp } from './helpers/app.js';

const DAY_MS = 24 * 60 * 60 * 1000;
let now = Date.parse('2026-11-27T00:00:00Z');
let app: TestApp;
let own: Awaited<ReturnType<typeof ownTestDatabase>>;
const checked: string[] = [];
const outcomes: GuardOutcome[] = [];

beforeAll(async () => {
  // A database of its own on PostgreSQL: the housekeeping below runs 91 days ahead, and on the
  // shared database it would delete other files' sessions and throttle windows while they run.
  own = await ownTestDatabase('guard_store');
  app = await startTestApp(own.env, {
    clock: () => new Date(now),
    // Counts the checks that reach the detector; every URL is clean.
    urlChecker: { check: async (url) => (checked.push(url), { isMalicious: false, category: 'clean', reason: '안전' }) },
    linkGuard: { observe: (event) => void outcomes.push(event) },
  });
});
afterAll(async () => {
  await app?.close();
  await own?.drop();
});

/** A workspace of this run's own: a PostgreSQL test database may keep earlier runs' rows. */
const ref = { platform: 'slack' as const, workspaceId: `T0STORE${Date.now().toString(36)}`, channelId: 'C0STORE' };
const incident = (host: string) => ({
  ...ref,
  accountId: undefined,
  posterId: 'U1',
  urlHash: 'a'.repeat(64),
  host,
  category: 'phishing',
  reason: '테스트',
  action: 'warned' as const,
});

describe('link guard storage', () => {
  it('keeps incidents 90 days: the hourly housekeeping deletes older ones', async () => {
    const store = app.runtime.linkGuard.store;
    await store.record([incident('old.example')]);
    now += 2 * DAY_MS;
    await store.record([incident('young.example')]);
    now += 89 * DAY_MS; // the first is 91 days old, the second 89
    const removed = await app.runtime.housekeeping.run();
    expect(removed.guardIncidents).toBe(1);
    expect((await store.recentIn('slack', ref.workspaceId, 10)).map((row) => row.host)).toEqual(['young.example']);
  });

  it('gives the quota notice to exactly one of many at once, and again after it is re-armed', async () => {
    await app.runtime.linkGuard.enable(ref, { locale: 'ko' }, chatUser({ platform: 'slack', userId: 'U1' }));
    const claims = await Promise.all(Array.from({ length: 8 }, () => app.runtime.linkGuard.store.claimQuotaNotice(ref)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await app.runtime.linkGuard.store.claimQuotaNotice(ref)).toBe(false);
    await app.runtime.linkGuard.enable(ref, { locale: 'ko' }, chatUser({ platform: 'slack', userId: 'U1' }));
    expect(await app.runtime.linkGuard.store.claimQuotaNotice(ref)).toBe(true);
  });

  it('keeps the allow list per workspace and platform, without repeats', async () => {
    const guard = app.runtime.linkGuard;
    expect(await guard.allow('discord', 'G0STORE', 'example.com', 'U1')).toBe(true);
    expect(await guard.allow('discord', 'G0STORE', 'example.com', 'U1')).toBe(true);
    expect(await guard.store.allowedHosts('discord', 'G0STORE')).toEqual(['example.com']);
    expect(await guard.store.allowedHosts('slack', 'G0STORE')).toEqual([]);
  });

  it('answers the same URL in a workspace from the cache for 10 minutes, free, then checks it again', async () => {
    const user = await app.signUp();
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, user.apiKey);
    const key = (await app.runtime.platform.apiKeys.authenticate(user.apiKey))!;
    const place = { platform: 'discord' as const, workspaceId: 'G0CACHE', channelId: 'C0CACHE' };
    await app.runtime.platform.workspaceLinks.link(
      place,
      { accountId: key.id, keyId: key.keyId, keyPrefix: key.keyPrefix },
      chatUser({ platform: 'discord', userId: 'U1' }),
    );
    await app.runtime.linkGuard.enable(place, { locale: 'ko' }, chatUser({ platform: 'discord', userId: 'U1' }));
    const responder: GuardResponder = { warn: async () => 'warned', quotaNotice: async () => undefined };
    const send = async (id: string) => {
      expect(
        await app.runtime.linkGuard.submit({ ...place, messageId: id, posterId: 'U1', parts: ['https://cache.example.com/a'] }, responder),
      ).toBe('queued');
      await app.runtime.linkGuard.idle();
      expect(outcomes.find((event) => event.messageId === id)?.outcome).toBe('clean');
    };
    const before = await app.remaining(user.apiKey, 'harmful-url-detection');
    await send('c1');
    now += 9 * 60_000;
    await send('c2');
    expect(checked.filter((url) => url === 'https://cache.example.com/a')).toHaveLength(1);
    expect(await app.remaining(user.apiKey, 'harmful-url-detection')).toBe(before! - 1);
    now += 2 * 60_000;
    await send('c3');
    expect(checked.filter((url) => url === 'https://cache.example.com/a')).toHaveLength(2);
    expect(await app.remaining(user.apiKey, 'harmful-url-detection')).toBe(before! - 2);
  });
});
