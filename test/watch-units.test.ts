import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createChannelNotifier } from '../bots/notifier.js';
import { loadConfig } from '../src/config.js';
import { nextPollDelayMs, retryDelayMs } from '../src/jobs/backoff.js';
import { nextPollAt, pollScheduleOf } from '../src/jobs/poll-schedule.js';
import { cadenceOf } from '../src/jobs/watch-cron.js';
import { parseDuration, parseQuietHours } from '../src/config.js';
import { detectChange, eventKey } from '../src/jobs/changes.js';
import { channelMessage, webhookPayload } from '../src/jobs/notice.js';
import { analyzeDelivery } from '../src/operations/delivery/analysis.js';
import { findCarrier } from '../src/operations/delivery/carriers.js';
import { createHolidayCalendar } from '../src/operations/delivery/holidays.js';
import { stateOf, type Progress, type TrackingResult } from '../src/operations/delivery/tracking-result.js';
import { createWebhookSender, signatureHeader } from '../src/operations/delivery-watch/webhook-sender.js';
import { checkWebhookUrl } from '../src/operations/delivery-watch/webhook-url.js';
import { startFakeChannels } from './fakes/chat-channels.js';
import { startWebhookReceiver, verifySignature } from './fakes/webhook-receiver.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const noon = new Date('2026-11-23T12:00:00+09:00');

describe('poll backoff', () => {
  const schedule = { cadenceMs: 10 * MIN, maxIntervalMs: 2 * HOUR, quietHours: { start: 22, end: 7 } };
  const old = 3 * HOUR; // past the young first hour
  const base = { stateId: 'in_transit' as const, customs: false, ageMs: old, schedule };
  it('polls a young watch and a parcel out for delivery at the cadence, and backs off a quiet one up to WATCH_MAX_INTERVAL', () => {
    expect(nextPollDelayMs({ ...base, now: noon, quietPolls: 5, ageMs: 20 * MIN })).toBe(10 * MIN);
    expect([0, 1, 2, 3, 5, 10].map((quietPolls) => nextPollDelayMs({ ...base, now: noon, quietPolls }) / MIN)).toEqual([
      10, 20, 40, 80, 120, 120,
    ]);
    expect(nextPollDelayMs({ ...base, now: noon, quietPolls: 4, stateId: 'out_for_delivery' })).toBe(10 * MIN);
    expect(nextPollDelayMs({ ...base, now: noon, quietPolls: 0, customs: true })).toBe(2 * HOUR); // 3 h for customs, bounded by the maximum
    expect(nextPollDelayMs({ ...base, now: noon, quietPolls: 9, schedule: { ...schedule, maxIntervalMs: 30 * MIN } })).toBe(30 * MIN);
  });
  it('follows a seconds cadence (WATCH_CRON with a seconds field)', () => {
    const fast = { cadenceMs: 5000, maxIntervalMs: 60_000, quietHours: null };
    expect([0, 1, 2, 3, 4, 9].map((quietPolls) => nextPollDelayMs({ ...base, schedule: fast, now: noon, quietPolls }) / 1000)).toEqual([
      5, 10, 20, 40, 60, 60,
    ]);
    expect(nextPollDelayMs({ ...base, schedule: fast, now: noon, quietPolls: 3, ageMs: 1000 })).toBe(5000);
  });
  it('slows quiet parcels in the quiet hours up to the maximum or the end of the quiet hours, and not when they are off', () => {
    const night = new Date('2026-11-23T23:30:00+09:00');
    expect(nextPollDelayMs({ ...base, now: night, quietPolls: 1 })).toBe(2 * HOUR);
    expect(nextPollDelayMs({ ...base, now: new Date('2026-11-23T06:15:00+09:00'), quietPolls: 1 })).toBe(45 * MIN); // until 07:00
    expect(nextPollDelayMs({ ...base, now: night, quietPolls: 0 })).toBe(10 * MIN); // just changed: not quiet
    expect(nextPollDelayMs({ ...base, now: night, quietPolls: 1, schedule: { ...schedule, quietHours: null } })).toBe(20 * MIN);
    expect(nextPollDelayMs({ ...base, now: new Date('2026-11-23T07:00:00+09:00'), quietPolls: 1 })).toBe(20 * MIN);
  });
  it('reads the cadence of WATCH_CRON, durations and quiet hours', () => {
    expect(cadenceOf('*/5 * * * * *')).toBe(5000);
    expect(cadenceOf('*/10 * * * *')).toBe(10 * MIN);
    expect(cadenceOf('0 9-18 * * 1-5')).toBe(HOUR);
    expect(['90s', '30m', '2h', '1h30m', 'soon', '0s'].map(parseDuration)).toEqual([
      90_000,
      30 * MIN,
      2 * HOUR,
      90 * MIN,
      undefined,
      undefined,
    ]);
    expect(['22-7', '0-6', 'off', '7-7', '25-3'].map(parseQuietHours)).toEqual([
      { start: 22, end: 7 },
      { start: 0, end: 6 },
      null,
      undefined,
      undefined,
    ]);
    expect(() => loadConfig({ WATCH_MAX_INTERVAL: 'soon' })).toThrow(/WATCH_MAX_INTERVAL/);
    expect(() => loadConfig({ WATCH_QUIET_HOURS: '22:00-07:00' })).toThrow(/WATCH_QUIET_HOURS/);
    expect(loadConfig({ WATCH_MAX_INTERVAL: '45m', WATCH_QUIET_HOURS: 'off' })).toMatchObject({
      WATCH_MAX_INTERVAL: 45 * MIN,
      WATCH_QUIET_HOURS: null,
    });
    expect(loadConfig({})).toMatchObject({ WATCH_MAX_INTERVAL: 2 * HOUR, WATCH_QUIET_HOURS: { start: 22, end: 7 } });
    expect(pollScheduleOf({ WATCH_CRON: '*/5 * * * * *', WATCH_MAX_INTERVAL: 60_000, WATCH_QUIET_HOURS: null })).toEqual({
      cadenceMs: 5000,
      maxIntervalMs: 60_000,
      quietHours: null,
    });
    // Due at the tick `delay` after this one: half a cadence early, so a poll that ends after its tick does not slip one tick.
    expect(nextPollAt(noon, 10 * MIN, schedule).getTime() - noon.getTime()).toBe(5 * MIN);
  });
  it('retries failed notices after 1, 2, 4 … minutes, at most 2 hours apart', () => {
    expect([1, 2, 3, 4, 7, 8, 20].map((n) => retryDelayMs(n) / MIN)).toEqual([1, 2, 4, 8, 64, 120, 120]);
  });
});

const carrier = findCarrier('kr.cjlogistics')!;
const step = (time: string, id: Progress['status']['id'], text: string, place: string): Progress => ({
  time,
  status: { id, text },
  location: { name: place },
  description: `${text} 처리`,
});
const pickup = step('2026-11-23T09:00:00+09:00', 'at_pickup', '집화처리', '성수');
const trunk = step('2026-11-23T11:00:00+09:00', 'in_transit', '간선상차', '곤지암Hub');
const result = (progresses: Progress[], state = progresses.at(-1)!.status.id): TrackingResult => ({
  carrier,
  state: stateOf(state),
  progresses,
});
const calendar = createHolidayCalendar();

describe('change detection and notices', () => {
  const seen = { lastStateId: 'at_pickup', lastEventKey: eventKey(pickup), seenEvents: 1, stallNotified: false, stallNotifiedAt: null };
  it('finds nothing new in the same events, and the new events after the last seen one', () => {
    const same = result([pickup]);
    expect(detectChange(seen, same, analyzeDelivery(same, noon, calendar)).kind).toBe('none');
    const moved = result([pickup, trunk]);
    const change = detectChange(seen, moved, analyzeDelivery(moved, noon, calendar));
    expect(change).toMatchObject({
      kind: 'updated',
      newEvents: [trunk],
      next: { lastStateId: 'in_transit', lastEventKey: eventKey(trunk), seenEvents: 2 },
    });
    const message = channelMessage({
      watchId: 7,
      carrierId: carrier.id,
      trackId: '123',
      result: moved,
      analysis: analyzeDelivery(moved, noon, calendar),
      change,
      aiAnalysis: null,
    });
    expect(message.text).toBe('📦 CJ대한통운 123 · 상품이동중\n• 11/23 11:00 간선상차 — 곤지암Hub · 간선상차 처리');
  });
  it('tells each event once when the upstream reorders events of the same minute or answers stale (#33 item 7)', () => {
    // Two scans in the same minute: the upstream lists them in either order from one answer to the next.
    const unload = step('2026-11-23T11:00:00+09:00', 'in_transit', '간선하차', '곤지암Hub');
    const told = detectChange(seen, result([pickup, trunk, unload]), analyzeDelivery(result([pickup, trunk, unload]), noon, calendar));
    expect(told).toMatchObject({ kind: 'updated', newEvents: [trunk, unload] });
    const flipped = result([pickup, unload, trunk]);
    expect(detectChange(told.next, flipped, analyzeDelivery(flipped, noon, calendar)).kind).toBe('none');
    // A stale answer (a lagging replica or cache) lacks the newest event: nothing to tell, and the next full answer neither.
    const stale = result([pickup, trunk]);
    const afterStale = detectChange(told.next, stale, analyzeDelivery(stale, noon, calendar));
    expect(afterStale.kind).toBe('none');
    const again = result([pickup, trunk, unload]);
    expect(detectChange(afterStale.next, again, analyzeDelivery(again, noon, calendar)).kind).toBe('none');
    // A real new event after the flip is still told, alone.
    const out = step('2026-11-23T15:00:00+09:00', 'out_for_delivery', '배달출발', '역삼');
    const next = result([pickup, unload, trunk, out]);
    expect(detectChange(told.next, next, analyzeDelivery(next, noon, calendar))).toMatchObject({ kind: 'updated', newEvents: [out] });
  });

  it('tells a delivered parcel with the final event and a stalled one once', () => {
    const done = result([pickup, trunk, step('2026-11-24T14:00:00+09:00', 'delivered', '배달완료', '역삼')]);
    const change = detectChange(seen, done, analyzeDelivery(done, noon, calendar));
    expect(change.kind).toBe('delivered');
    const input = {
      watchId: 7,
      carrierId: carrier.id,
      trackId: '123',
      result: done,
      analysis: analyzeDelivery(done, noon, calendar),
      change,
      aiAnalysis: null,
    };
    expect(webhookPayload(input)).toMatchObject({
      event: 'delivery.delivered',
      watch_id: 7,
      state: { id: 'delivered', text: '배송완료' },
      ai_analysis: null,
    });
    expect(channelMessage(input).text.split('\n')).toEqual([
      '✅ CJ대한통운 123 배송이 완료되었습니다.',
      '• 11/24 14:00 배달완료 — 역삼 · 배달완료 처리',
      '이 운송장의 변경 알림을 마칩니다.',
    ]);

    const later = new Date('2026-11-27T12:00:00+09:00');
    const quiet = result([pickup, trunk]);
    const seenTrunk = {
      lastStateId: 'in_transit',
      lastEventKey: eventKey(trunk),
      seenEvents: 2,
      stallNotified: false,
      stallNotifiedAt: null,
    };
    const stalled = detectChange(seenTrunk, quiet, analyzeDelivery(quiet, later, calendar));
    expect(stalled).toMatchObject({ kind: 'stalled', next: { stallNotified: true } });
    expect(detectChange(stalled.next, quiet, analyzeDelivery(quiet, later, calendar)).kind).toBe('none');
  });
});

describe('webhook URLs and signatures', () => {
  const resolveTo =
    (...addresses: string[]) =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const secure = { allowInsecure: false };
  it('accepts https to public hosts only', async () => {
    await expect(checkWebhookUrl('https://hooks.example.com/x', secure, resolveTo('93.184.216.34'))).resolves.toBeInstanceOf(URL);
    for (const [url, addresses] of [
      ['http://hooks.example.com/x', ['93.184.216.34']],
      ['https://user:pw@hooks.example.com/x', ['93.184.216.34']],
      ['https://internal.example.com/x', ['93.184.216.34', '10.1.2.3']],
      ['https://[::1]/x', []],
      ['https://127.0.0.1/x', []],
      ['https://169.254.169.254/latest', []],
      ['https://localhost/x', ['127.0.0.1']],
      ['https://nowhere.example/x', []],
      ['not a url', []],
    ] as const) {
      await expect(checkWebhookUrl(url, secure, resolveTo(...addresses)), url).rejects.toMatchObject({
        status: 400,
        extra: { field: 'webhook_url' },
      });
    }
    await expect(checkWebhookUrl('http://127.0.0.1:9/x', { allowInsecure: true })).resolves.toBeInstanceOf(URL);
  });
  it('refuses NAT64, IPv4-compatible and -mapped, multicast, broadcast and other special addresses (issue 18 item 11)', async () => {
    const refused = [
      '64:ff9b::a9fe:a9fe', // NAT64 of the metadata address 169.254.169.254
      '64:ff9b::808:808', // NAT64 of a public address: still a translator inside the network
      '64:ff9b:1::a00:1', // local-use NAT64
      '::a9fe:a9fe', // IPv4-compatible
      '::ffff:127.0.0.1',
      '::ffff:a00:1', // IPv4-mapped
      '224.0.0.1',
      '239.255.255.250',
      'ff02::1',
      'ff05::2', // multicast
      '255.255.255.255',
      '240.0.0.1', // broadcast and reserved
      '2002:a9fe:a9fe::1',
      '2001:0:4136:e378::1', // 6to4 and Teredo wrap IPv4 addresses
      '198.18.0.1',
      '192.0.0.8',
      '192.0.2.1',
      '0.1.2.3',
      'fec0::1',
      '100::1',
    ];
    for (const address of refused) {
      await expect(checkWebhookUrl('https://hooks.example.com/x', secure, resolveTo(address)), address).rejects.toMatchObject({
        status: 400,
      });
    }
    await expect(checkWebhookUrl('https://[64:ff9b::a9fe:a9fe]/x', secure), 'literal').rejects.toMatchObject({ status: 400 });
    await expect(checkWebhookUrl('https://[::ffff:a9fe:a9fe]/x', secure), 'literal').rejects.toMatchObject({ status: 400 });
    for (const address of ['93.184.216.34', '2606:4700::1111', '8.8.8.8']) {
      await expect(checkWebhookUrl('https://hooks.example.com/x', secure, resolveTo(address)), address).resolves.toBeInstanceOf(URL);
    }
    const sender = createWebhookSender({ ...secure, resolve: resolveTo('64:ff9b::a9fe:a9fe') });
    await expect(sender.send('https://nat64.example.com/x', 's', '{}')).resolves.toEqual({ ok: false, gone: false, reason: 'EPRIVATE' });
    await expect(createWebhookSender(secure).send('https://[ff02::1]/x', 's', '{}')).resolves.toMatchObject({
      ok: false,
      reason: 'refused_target',
    });
  });
  it('checks the address again at send time (DNS rebinding)', async () => {
    const sender = createWebhookSender({ ...secure, resolve: resolveTo('10.0.0.5') });
    await expect(sender.send('https://rebind.example.com/x', 's', '{}')).resolves.toEqual({ ok: false, gone: false, reason: 'EPRIVATE' });
    await expect(sender.send('http://rebind.example.com/x', 's', '{}')).resolves.toMatchObject({ ok: false, reason: 'refused_target' });
  });
  it("drains a receiver's answer only up to a cap: an endless answer is cut off (#33 item 2)", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const endless = receiver.endless('/hook');
      const sender = createWebhookSender({ allowInsecure: true, timeoutMs: 60_000 });
      await expect(sender.send(`${receiver.url}/hook`, 's', '{}')).resolves.toEqual({ ok: true });
      await endless.closed; // without the cap this never resolves (the deadline is a minute away)
      expect(endless.bytes()).toBeLessThan(16 * 1024 * 1024);
    } finally {
      await receiver.close();
    }
  });

  it('signs t.body with HMAC-SHA256 as a receiver verifies it', () => {
    const header = signatureHeader('whsec_abc', '{"a":1}', 1_790_000_000);
    expect(header).toBe(`t=1790000000,v1=${createHmac('sha256', 'whsec_abc').update('1790000000.{"a":1}').digest('hex')}`);
    expect(verifySignature('whsec_abc', header, '{"a":1}', 1_790_000_010)).toBe(true);
    expect(verifySignature('whsec_abc', header, '{"a":2}', 1_790_000_010)).toBe(false);
    expect(verifySignature('whsec_abc', header, '{"a":1}', 1_790_001_000)).toBe(false);
  });
});

describe('bots/notifier.ts', () => {
  it('posts through the Slack and Discord clients and reports a gone channel or a revoked token', async () => {
    const fake = await startFakeChannels({ slackToken: 'xoxb-good', discordToken: 'good' });
    try {
      const env = { SLACK_API_URL: fake.slackApiUrl, DISCORD_API_URL: fake.discordApiUrl, LOG_LEVEL: 'silent' };
      const notifier = createChannelNotifier(loadConfig({ ...env, SLACK_BOT_TOKEN: 'xoxb-good', DISCORD_BOT_TOKEN: 'good' }));
      expect(notifier.platforms).toEqual(['slack', 'discord']);
      await expect(notifier.post({ platform: 'slack', channelId: 'C1' }, { text: '안녕' })).resolves.toEqual({ ok: true });
      await expect(notifier.post({ platform: 'discord', channelId: '42' }, { text: 'x'.repeat(2500) })).resolves.toEqual({ ok: true });
      expect(fake.to('slack', 'C1')[0]).toMatchObject({ text: '안녕', authorization: 'Bearer xoxb-good' });
      expect(fake.to('discord', '42')[0]!.text).toHaveLength(2000);
      // An upstream's text in a notice never pings (#33 item 4); the service's own channel link stays a link.
      await notifier.post({ platform: 'slack', channelId: 'C1' }, { text: '<!channel> 배송 <@U1> <!subteam^S1> — <#C9>' });
      expect(fake.to('slack', 'C1')[1]!.text).toBe('&lt;!channel&gt; 배송 &lt;@U1&gt; &lt;!subteam^S1&gt; — <#C9>');
      fake.remove('slack', 'C1');
      await expect(notifier.post({ platform: 'slack', channelId: 'C1' }, { text: '.' })).resolves.toEqual({
        ok: false,
        gone: true,
        reason: 'channel_not_found',
      });
      const revoked = createChannelNotifier(loadConfig({ ...env, SLACK_BOT_TOKEN: 'xoxb-old', DISCORD_BOT_TOKEN: 'old' }));
      await expect(revoked.post({ platform: 'slack', channelId: 'C2' }, { text: '.' })).resolves.toMatchObject({
        ok: false,
        gone: true,
        reason: 'invalid_auth',
      });
      await expect(revoked.post({ platform: 'discord', channelId: '42' }, { text: '.' })).resolves.toMatchObject({ ok: false, gone: true });
      expect(createChannelNotifier(loadConfig(env)).platforms).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});
