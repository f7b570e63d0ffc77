import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChannelNotifier } from '../bots/notifier.js';
import { loadConfig } from '../src/config.js';
import { findCarrier } from '../src/operations/delivery/carriers.js';
import { startFakeChannels, type FakeChannels } from './fakes/chat-channels.js';
import { ev, startFakeTracker, type FakeEvent, type FakeTracker } from './fakes/tracker-server.js';
import { startWebhookReceiver, verifySignature, type FakeWebhookReceiver, type WebhookDelivery } from './fakes/webhook-receiver.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

/**
 * Issue 38 on the real runtime (PGlite), the tracker fake running the real GraphQL schema:
 * carrier detection with parallel lookups under the shared rate limit, remembered corrections,
 * the history-based estimate, stalled-parcel alerts on an injected clock, and daily digests.
 */
const TRACK = '/api/v1/delivery/track';
const WATCH = '/api/v1/delivery/watch';
const CJ = 'kr.cjlogistics';
const LOTTE = 'kr.lotte';
const HANJIN = 'kr.hanjin';
const ILYANG = 'kr.ilyanglogis';
const LOGEN = 'kr.logen';
const HOUR = 3600_000;
const START = new Date('2026-11-23T10:00:00+09:00'); // a Monday morning in Seoul
const PER_SECOND = 10;
let now = START;
/** The limiter's own time: a month further on for each test, so every test starts with free slots (the frozen clock never lets them drain). */
let limiterOffset = 0;
let slept: number[] = [];
let tracker: FakeTracker;
let receiver: FakeWebhookReceiver;
let channels: FakeChannels;
let app: TestApp;
let user: TestUser;
let serial = 0;

/** A 12-digit number with the mod-7 check digit (CJ, Lotte and Hanjin's shared format), unique to this run. */
function number(): string {
  const body = `6${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 10000).padStart(4, '0')}${String(++serial).padStart(3, '0')}`;
  return body + String(Number(BigInt(body) % 7n));
}
const iso = (date: Date) =>
  new Date(date.getTime() + 9 * HOUR)
    .toISOString()
    .replace('Z', '+09:00')
    .replace(/\.\d{3}/, '');
const at = (hoursAgo: number) => iso(new Date(now.getTime() - hoursAgo * HOUR));
const advance = (hours: number) => void (now = new Date(now.getTime() + hours * HOUR));
const signed = (delivery: WebhookDelivery, secret: string) =>
  verifySignature(secret, delivery.headers['x-signature'] as string, delivery.raw, Math.floor(now.getTime() / 1000));
const cycle = () => app.runtime.watchPoller.runCycle({ accountIds: [user.accountId] });
const moving = (): FakeEvent[] => [ev(at(20), 'AT_PICKUP', '집화처리', '성수'), ev(at(1), 'IN_TRANSIT', '간선하차', '곤지암Hub')];

beforeAll(async () => {
  tracker = await startFakeTracker();
  receiver = await startWebhookReceiver();
  channels = await startFakeChannels({ slackToken: 'xoxb-test', discordToken: 'discord-test' });
  const env = {
    DELIVERY_TRACKER_URL: tracker.url,
    WEBHOOK_ALLOW_INSECURE: '1',
    SLACK_BOT_TOKEN: 'xoxb-test',
    SLACK_API_URL: channels.slackApiUrl,
  };
  app = await startTestApp(env, {
    clock: () => now,
    delivery: {
      rateLimit: {
        perSecond: PER_SECOND,
        maxWaitMs: 5000,
        bucket: `parcels-${process.pid}-${Date.now()}`,
        clock: () => new Date(now.getTime() + limiterOffset),
        sleep: async (ms) => void slept.push(ms),
      },
    },
    watches: { notifier: createChannelNotifier(loadConfig({ ...env, LOG_LEVEL: 'silent' })) },
  });
  user = await app.signUp();
  expect((await app.post('/api/v1/subscriptions', { api: 'delivery-tracking' }, user.apiKey)).status).toBe(201);
});
afterAll(async () => {
  await app.close();
  await Promise.all([tracker.close(), receiver.close(), channels.close()]);
});
beforeEach(async () => {
  now = START;
  limiterOffset += 30 * 24 * HOUR;
  slept = [];
  for (const watch of await app.runtime.watches.list(user.accountId)) await app.runtime.watches.remove(user.accountId, { id: watch.id });
});

describe('the carrier found from the number', () => {
  it('asks the top candidates in parallel, each in its own slot of the rate limit, and answers the one that knows the parcel', async () => {
    const id = number();
    // Only Lotte knows it; CJ (ranked first) answers slowly, so asking one after another would show in the arrival times.
    tracker.parcel(LOTTE, id, { events: moving() });
    tracker.parcel(CJ, id, { error: 'NOT_FOUND', delayMs: 1500 });
    const res = await app.post(TRACK, { track_id: id }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.carrier).toMatchObject({ id: LOTTE, name_ko: '롯데택배' });
    expect(res.body.carrier_candidates).toBeUndefined(); // one carrier knew it
    const asked = [CJ, LOTTE, HANJIN].map((carrier) => tracker.lookups(carrier, id));
    expect(asked.map((requests) => requests.length)).toEqual([1, 1, 1]);
    const arrivals = asked.map((requests) => requests[0]!.at);
    expect(Math.max(...arrivals) - Math.min(...arrivals)).toBeLessThan(1500); // in parallel: none waited for CJ's answer
    // Three upstream calls, three consecutive slots of the shared limiter (0, 100, 200 ms at 10/s).
    expect([0, ...slept].sort((a, b) => a - b)).toEqual([0, 100, 200]);

    // The misses are remembered: asking again costs no upstream call (Lotte from the cache, CJ and Hanjin known not to have it).
    const again = await app.post(TRACK, { carrier_id: 'auto', track_id: id }, user.apiKey);
    expect(again.body.carrier.id).toBe(LOTTE);
    expect([CJ, LOTTE, HANJIN].map((carrier) => tracker.lookups(carrier, id).length)).toEqual([1, 1, 1]);
  });

  it('lists the ranked candidates when several know the number, and with the 404 when none does', async () => {
    const both = number();
    tracker.parcel(CJ, both, { events: moving() });
    tracker.parcel(HANJIN, both, { events: [ev(at(5), 'AT_PICKUP', '집하', '부산')] });
    const res = await app.post(TRACK, { track_id: both }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.carrier.id).toBe(CJ);
    const candidates = res.body.carrier_candidates as Array<{ id: string; confidence: number; found: boolean | null; rule: string }>;
    expect(candidates.slice(0, 3).map((c) => [c.id, c.found])).toEqual([
      [CJ, true],
      [LOTTE, false],
      [HANJIN, true],
    ]);
    expect(candidates[0]!.confidence).toBeGreaterThan(candidates[1]!.confidence);
    expect(candidates[0]!.rule).toBe('inferred');

    const none = number();
    const missing = await app.post(TRACK, { track_id: none }, user.apiKey);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toContain('CJ대한통운, 롯데택배, 한진택배에서 이 운송장 번호를 찾지 못했습니다');
    expect(missing.body.carrier_candidates.slice(0, 3).map((c: { found: boolean }) => c.found)).toEqual([false, false, false]);
  });

  it('remembers a carrier named for a number (a correction) and asks it first the next time', async () => {
    const id = number();
    tracker.parcel(CJ, id, { events: moving() });
    tracker.parcel(HANJIN, id, { events: [ev(at(3), 'IN_TRANSIT', '간선상차', '대전HUB')] });
    const named = await app.post(TRACK, { carrier_id: '한진', track_id: id }, user.apiKey);
    expect(named.body.carrier.id).toBe(HANJIN);
    const cjBefore = tracker.lookups(CJ, id).length;
    const res = await app.post(TRACK, { track_id: id }, user.apiKey);
    expect(res.body.carrier.id).toBe(HANJIN);
    expect(res.body.carrier_candidates).toBeUndefined();
    expect(tracker.lookups(CJ, id).length).toBe(cjBefore); // the guess was not asked again
    // Another account has its own memory: detection as usual.
    const other = await app.signUp();
    await app.post('/api/v1/subscriptions', { api: 'delivery-tracking' }, other.apiKey);
    expect((await app.post(TRACK, { track_id: id }, other.apiKey)).body.carrier.id).toBe(CJ);
  });
});

describe('arrival estimate', () => {
  it('answers low with why on thin history, and uses the history once watched parcels were delivered', async () => {
    // 대신택배: no test records its history, so it stays thin on a PostgreSQL database shared by the files.
    const first = number();
    tracker.parcel('kr.daesin', first, { events: moving() });
    const thin = await app.post(TRACK, { carrier_id: 'kr.daesin', track_id: first, ai: 1 }, user.apiKey);
    expect(thin.body.estimated_arrival).toMatchObject({ confidence: 'low', samples: 0 });
    expect(thin.body.estimated_arrival.basis).toContain('최소 10건 필요');
    expect(thin.body.ai_analysis).toContain('예상 도착');

    // Twelve watched 일양로지스 parcels (a carrier no other test file watches: on PostgreSQL the history outlives a file) go from a hub scan at 09:00 to delivery the next day at 15:00 (30 h).
    const before = await app.runtime.delivery.history.count();
    for (let i = 0; i < 12; i++) {
      const id = number();
      const events = [ev(at(1), 'IN_TRANSIT', '간선하차', '곤지암Hub')];
      tracker.parcel(ILYANG, id, { events });
      await app.runtime.watches.create(
        { id: user.accountId },
        { carrierId: ILYANG, trackId: id },
        { channel: { platform: 'slack', channelId: 'C-HIST' } },
      );
      tracker.parcel(ILYANG, id, { events: [...events, ev(iso(new Date(now.getTime() + 29 * HOUR)), 'DELIVERED', '배달완료', '강남')] });
    }
    advance(30);
    await cycle();
    expect(await app.runtime.delivery.history.count()).toBe(before + 24); // two durations per step, no number, no account

    now = new Date('2026-11-26T10:00:00+09:00'); // Thursday: a new parcel scanned at the hub an hour ago
    const id = number();
    tracker.parcel(ILYANG, id, { events: [ev(at(1), 'IN_TRANSIT', '간선하차', '곤지암Hub')] });
    const res = await app.post(TRACK, { carrier_id: ILYANG, track_id: id }, user.apiKey);
    expect(res.body.estimated_arrival).toMatchObject({ date: '2026-11-27', earliest: '2026-11-27', latest: '2026-11-27' });
    expect(res.body.estimated_arrival.samples).toBeGreaterThanOrEqual(12);
    expect(res.body.estimated_arrival.basis).toContain('일양로지스의 과거 배송');
  });
});

/** Ten delivered parcels of this carrier whose in-transit hub scan moved on 4 hours later: its stall line is the 24-hour floor. */
async function quickHistory(carrierId: string) {
  for (let i = 0; i < 10; i++) {
    await app.runtime.delivery.history.recordDelivered({
      carrier: findCarrier(carrierId)!,
      state: { id: 'delivered', text: '배송완료' },
      progresses: [
        {
          time: '2026-11-02T09:00:00+09:00',
          status: { id: 'in_transit', text: '간선하차' },
          location: { name: '곤지암Hub' },
          description: '',
        },
        {
          time: '2026-11-02T13:00:00+09:00',
          status: { id: 'out_for_delivery', text: '배송출발' },
          location: { name: '강남' },
          description: '',
        },
        { time: '2026-11-02T17:00:00+09:00', status: { id: 'delivered', text: '배송완료' }, location: { name: '강남' }, description: '' },
      ],
    });
  }
}

describe('stalled-parcel alerts', () => {
  it('tells a webhook once when no event comes for longer than the 24-hour floor, then again only after it moved', async () => {
    const id = number();
    const events = [ev(at(1), 'IN_TRANSIT', '간선하차', '곤지암Hub')];
    tracker.parcel(HANJIN, id, { events });
    // A history where this step normally moves on within hours: the line is the 24-hour floor (Hanjin: the file's other tests wrote other carriers).
    await quickHistory(HANJIN);
    const created = await app.post(WATCH, { carrier_id: HANJIN, track_id: id, webhook_url: `${receiver.url}/stall` }, user.apiKey);
    expect(created.status).toBe(201);
    const stalled = () => receiver.to('/stall').filter((d) => d.body.event === 'delivery.stalled');
    for (const hours of [6, 6, 6, 4]) {
      advance(hours); // 23 hours after the scan: normal still
      await cycle();
    }
    expect(stalled()).toHaveLength(0);
    advance(2); // 25 hours: past the line
    await cycle();
    expect(stalled()).toHaveLength(1);
    const [told] = stalled();
    expect(signed(told!, created.body.webhook_secret)).toBe(true);
    expect(told!.body).toMatchObject({
      event: 'delivery.stalled',
      track_id: id,
      state: { id: 'in_transit' },
      stalled: { normal_hours: 24, carrier_tel: '+8215880011' },
    });
    expect(told!.body.stalled.hours_without_event).toBeGreaterThanOrEqual(25);
    expect(told!.body.recommend_message).toEqual(expect.any(String));
    for (let i = 0; i < 8; i++) {
      advance(2); // still stuck, within one more period: nothing more
      await cycle();
    }
    expect(stalled()).toHaveLength(1);
    // It moves (an update), then stalls again: a second stall notice after another period.
    now = new Date('2026-11-25T09:00:00+09:00'); // Wednesday morning, 23 working hours after the notice
    await cycle();
    expect(stalled()).toHaveLength(1);
    tracker.parcel(HANJIN, id, { events: [...events, ev(at(0.2), 'IN_TRANSIT', '간선상차', '대전HUB')] });
    advance(2); // a quiet parcel is polled at least every 2 hours (WATCH_MAX_INTERVAL)
    await cycle();
    expect(receiver.to('/stall').filter((d) => d.body.event === 'delivery.updated')).toHaveLength(1);
    advance(26);
    await cycle();
    expect(stalled()).toHaveLength(2);
  });

  it('holds a stall notice in quiet hours and sends it when they end', async () => {
    await quickHistory(LOGEN);
    now = new Date('2026-11-23T21:30:00+09:00');
    const id = number();
    tracker.parcel(LOGEN, id, { events: [ev(at(0.5), 'IN_TRANSIT', '간선하차', '곤지암Hub')] });
    await app.post(WATCH, { carrier_id: LOGEN, track_id: id, webhook_url: `${receiver.url}/quiet` }, user.apiKey);
    now = new Date('2026-11-24T23:30:00+09:00'); // 26 hours later: past the 24-hour line, but 23:30 in Seoul
    expect(await cycle()).toMatchObject({ claimed: 1, notified: 0 });
    // Held, not missed: the watch is looked at again when the quiet hours end (07:00 in Seoul).
    expect((await app.runtime.watches.list(user.accountId)).find((w) => w.track_id === id)?.next_poll_at).toBe('2026-11-24T22:00:00.000Z');
    now = new Date('2026-11-25T06:30:00+09:00');
    await cycle();
    expect(receiver.to('/quiet')).toHaveLength(0);
    now = new Date('2026-11-25T07:05:00+09:00');
    await cycle();
    expect(receiver.to('/quiet').map((d) => d.body.event)).toEqual(['delivery.stalled']);
  });
});

describe('daily digest', () => {
  it('a channel with /track digest on gets one message a day listing its parcels instead of one per change', async () => {
    const channel = { platform: 'slack' as const, channelId: 'C-DIGEST' };
    const a = number();
    const b = number();
    tracker.parcel(CJ, a, { events: moving() });
    tracker.parcel(CJ, b, { events: [ev(at(2), 'AT_PICKUP', '집화처리', '성수')] });
    await app.runtime.watches.create({ id: user.accountId }, { carrierId: CJ, trackId: a }, { channel });
    expect(await app.runtime.watches.setChannelDigest(user.accountId, channel, '09:00')).toBe(1);
    await app.runtime.watches.create({ id: user.accountId }, { carrierId: CJ, trackId: b }, { channel }); // inherits the channel's digest
    tracker.parcel(CJ, b, { events: [ev(at(2), 'AT_PICKUP', '집화처리', '성수'), ev(at(0.2), 'IN_TRANSIT', '간선상차', '곤지암Hub')] });
    const posted = () => channels.to('slack', 'C-DIGEST');
    const before = posted().length;
    advance(1);
    await cycle();
    expect(posted().length).toBe(before); // a change, but no message: the digest tells it
    now = new Date('2026-11-24T09:05:00+09:00');
    await cycle();
    const digests = posted().slice(before);
    expect(digests).toHaveLength(1);
    expect(digests[0]!.text).toContain('2026-11-24 배송 현황 (2건)');
    expect(digests[0]!.text).toContain(`CJ대한통운 ${b}: 상품이동중`);
    now = new Date('2026-11-24T09:15:00+09:00');
    await cycle();
    expect(posted().length).toBe(before + 1); // once a day
    expect((await app.runtime.watches.list(user.accountId))[0]).toMatchObject({ digest_at: '09:00' });
  });

  it('a webhook watch with digest_at gets a signed delivery.digest; a bad time is 400', async () => {
    const id = number();
    tracker.parcel(CJ, id, { events: moving() });
    const bad = await app.post(WATCH, { carrier_id: CJ, track_id: id, webhook_url: `${receiver.url}/d`, digest_at: '25:00' }, user.apiKey);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('digest_at');
    const created = await app.post(
      WATCH,
      { carrier_id: CJ, track_id: id, webhook_url: `${receiver.url}/d`, digest_at: '08:30' },
      user.apiKey,
    );
    await cycle(); // 10:00 on the day it was made: 08:30 has passed, the first digest is tomorrow's
    expect(receiver.to('/d')).toHaveLength(0);
    expect(created.body.watch).toMatchObject({ digest_at: '08:30' });
    now = new Date('2026-11-24T08:40:00+09:00');
    await cycle();
    const [digest] = receiver.to('/d');
    expect(digest!.body).toMatchObject({ event: 'delivery.digest', date: '2026-11-24', watch_ids: [created.body.watch.id] });
    expect(digest!.body.parcels[0]).toMatchObject({ track_id: id, state: { id: 'in_transit' } });
    expect(signed(digest!, created.body.webhook_secret)).toBe(true);
  });
});
