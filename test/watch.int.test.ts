import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createChannelNotifier } from '../bots/notifier.js';
import { loadConfig } from '../src/config.js';
import { createWatches } from '../src/jobs/watch-module.js';
import { startFakeChannels, type FakeChannels } from './fakes/chat-channels.js';
import { startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';
import { ev, startFakeTracker, type FakeEvent, type FakeTracker } from './fakes/tracker-server.js';
import { startWebhookReceiver, verifySignature, type FakeWebhookReceiver } from './fakes/webhook-receiver.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

const PATH = '/api/v1/delivery/watch';
const CJ = 'kr.cjlogistics';
const START = new Date('2026-11-23T10:00:00+09:00'); // a Monday morning in Seoul
const HOUR = 3600_000;
let now = START;
let tracker: FakeTracker;
let channels: FakeChannels;
let receiver: FakeWebhookReceiver;
let llm: FakeOpenAI;
let app: TestApp;
let user: TestUser;
let serial = 0;
let env: Record<string, string>;
const bucket = `watch-${process.pid}-${Date.now()}`;

/** A parcel number no other run uses (the tracking cache persists on PostgreSQL). */
function number(): string {
  return `7${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 100000).padStart(5, '0')}${String(++serial).padStart(3, '0')}`;
}
const iso = (date: Date) =>
  new Date(date.getTime() + 9 * HOUR)
    .toISOString()
    .replace('Z', '+09:00')
    .replace(/\.\d{3}/, '');
const at = (hoursAgo: number) => iso(new Date(now.getTime() - hoursAgo * HOUR));
const advance = (hours: number) => void (now = new Date(now.getTime() + hours * HOUR));

/** Scripts a parcel and returns a function that appends an event (at "now" minus 10 minutes). */
function parcel(id: string, events: FakeEvent[]) {
  const list = [...events];
  tracker.parcel(CJ, id, { events: list });
  return (code: string, name: string, place: string) => {
    list.push(ev(at(1 / 6), code, name, place, `${name} 처리`));
    tracker.parcel(CJ, id, { events: list });
  };
}

async function cycle() {
  return app.runtime.watchPoller.runCycle({ accountIds: [user.accountId] });
}

beforeAll(async () => {
  tracker = await startFakeTracker();
  channels = await startFakeChannels({ slackToken: 'xoxb-test', discordToken: 'discord-test' });
  receiver = await startWebhookReceiver();
  llm = await startFakeOpenAI();
  env = {
    DELIVERY_TRACKER_URL: tracker.url,
    SLACK_BOT_TOKEN: 'xoxb-test',
    SLACK_API_URL: channels.slackApiUrl,
    DISCORD_BOT_TOKEN: 'discord-test',
    DISCORD_API_URL: channels.discordApiUrl,
    WEBHOOK_ALLOW_INSECURE: '1',
    OPENAI_BASE_URL: llm.url,
    LLM_TIMEOUT_MS: '2000',
  };
  app = await startTestApp(env, {
    llm: { retryBaseDelayMs: 1, maxRetries: 0 },
    clock: () => now,
    delivery: { rateLimit: { bucket, perSecond: 200 } },
    watches: { notifier: createChannelNotifier(loadConfig({ ...env, LOG_LEVEL: 'silent' })), poller: { batchSize: 5 } },
  });
  user = await app.signUp();
  expect((await app.post('/api/v1/subscriptions', { api: 'delivery-tracking' }, user.apiKey)).status).toBe(201);
});
afterAll(async () => {
  await app.close();
  await Promise.all([tracker.close(), channels.close(), receiver.close(), llm.close()]);
});
beforeEach(() => {
  now = START;
});
afterEach(async () => {
  for (const watch of await app.runtime.watches.list(user.accountId)) await app.runtime.watches.remove(user.accountId, { id: watch.id });
});

async function remaining(apiKey = user.apiKey): Promise<number> {
  const res = await app.get('/api/v1/usage', { 'x-api-key': apiKey });
  return res.body.usage.find((row: { api: string }) => row.api === 'delivery-tracking').remaining;
}
const del = (path: string, apiKey: string) =>
  fetch(app.url + path, { method: 'DELETE', headers: { 'x-api-key': apiKey } }).then(async (res) => ({
    status: res.status,
    body: (await res.json()) as any,
  }));

describe('POST/GET/DELETE /api/v1/delivery/watch', () => {
  it('creates a webhook watch for one call, shows the secret once, lists and removes it', async () => {
    const id = number();
    parcel(id, [ev(at(2), 'AT_PICKUP', '집화처리', '성수')]);
    const before = await remaining();
    const res = await app.post(
      PATH,
      { carrier_id: CJ, track_id: `${id.slice(0, 4)}-${id.slice(4)}`, webhook_url: `${receiver.url}/created` },
      user.apiKey,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      watch: { carrier_id: CJ, track_id: id, status: 'active', state: { id: 'at_pickup', text: '상품인수' } },
      remaining: before - 1,
    });
    expect(res.body.webhook_secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    // The creation is charged like every call, so it carries the quota headers too.
    expect(res.headers.get('ratelimit')).toMatch(new RegExp(`^"monthly";r=${before - 1};t=\\d+$`));

    const listed = await app.get(PATH, { 'x-api-key': user.apiKey });
    const mine = listed.body.watches.find((watch: { id: number }) => watch.id === res.body.watch.id);
    expect(mine).toMatchObject({ target: { type: 'webhook', url: `${receiver.url}/created` }, status: 'active' });
    expect(JSON.stringify(listed.body)).not.toContain(res.body.webhook_secret);

    const other = await app.signUp();
    expect((await del(`${PATH}/${res.body.watch.id}`, other.apiKey)).status).toBe(404);
    expect((await app.get(PATH, { 'x-api-key': other.apiKey })).body.watches).toEqual([]);
    const removed = await del(`${PATH}/${res.body.watch.id}`, user.apiKey);
    expect(removed).toEqual({ status: 200, body: { success: true, id: res.body.watch.id } });
    expect((await del(`${PATH}/${res.body.watch.id}`, user.apiKey)).status).toBe(404);
    expect((await del(`${PATH}/abc`, user.apiKey)).body.error_code).toBe('INVALID_REQUEST');
  });

  it('refuses bad input (400 naming the field, free), no key (401), no subscription (403), an unknown parcel (404, refunded), duplicates (409)', async () => {
    const id = number();
    parcel(id, [ev(at(2), 'AT_PICKUP', '집화처리', '성수')]);
    const before = await remaining();
    const bad = [
      [{ carrier_id: 'kr.nowhere', track_id: id, webhook_url: `${receiver.url}/x` }, 'carrier_id'],
      [{ carrier_id: CJ, track_id: 'abc', webhook_url: `${receiver.url}/x` }, 'track_id'],
      [{ carrier_id: CJ, track_id: id }, 'webhook_url'],
      [{ carrier_id: CJ, track_id: id, webhook_url: 'ftp://example.com/x' }, 'webhook_url'],
    ] as const;
    for (const [body, field] of bad) {
      const res = await app.post(PATH, body, user.apiKey);
      expect(res.status, field).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 400, error_code: 'INVALID_REQUEST', field });
    }
    expect((await app.post(PATH, { carrier_id: CJ, track_id: id, webhook_url: `${receiver.url}/x` })).status).toBe(401);
    const unsubscribed = await app.signUp();
    const forbidden = await app.post(PATH, { carrier_id: CJ, track_id: id, webhook_url: `${receiver.url}/x` }, unsubscribed.apiKey);
    expect(forbidden).toMatchObject({ status: 403, body: { error_code: 'SUBSCRIPTION_REQUIRED' } });
    const unknown = await app.post(PATH, { carrier_id: CJ, track_id: number(), webhook_url: `${receiver.url}/x` }, user.apiKey);
    expect(unknown.status).toBe(404);
    expect(await remaining()).toBe(before);
    expect((await app.post(PATH, { carrier_id: CJ, track_id: id, webhook_url: `${receiver.url}/dup` }, user.apiKey)).status).toBe(201);
    const duplicate = await app.post(PATH, { carrier_id: CJ, track_id: id, webhook_url: `${receiver.url}/dup` }, user.apiKey);
    expect(duplicate).toMatchObject({ status: 409, body: { error_code: 'CONFLICT' } });
    expect(await remaining()).toBe(before - 1);
    const delivered = number();
    parcel(delivered, [ev(at(2), 'DELIVERED', '배달완료', '역삼')]);
    expect((await app.post(PATH, { carrier_id: CJ, track_id: delivered, webhook_url: `${receiver.url}/x` }, user.apiKey)).status).toBe(422);
    await app.runtime.watches.remove(user.accountId, { trackId: id });
  });
});

describe('carrier names and detection for watches', () => {
  it('takes a short name or "auto" and stores the carrier found', async () => {
    const body = number().slice(0, 11);
    const id = `${body}${BigInt(body) % 7n}`; // 12 digits with the mod-7 check: CJ, then Lotte, then Hanjin
    tracker.parcel('kr.hanjin', id, { events: [ev(at(2), 'AT_PICKUP', '집하', '한진 성수')] });
    const detected = await app.post(PATH, { carrier_id: 'auto', track_id: id, webhook_url: `${receiver.url}/auto` }, user.apiKey);
    expect(detected.status).toBe(201);
    expect(detected.body.watch).toMatchObject({ carrier_id: 'kr.hanjin', track_id: id });
    const named = await app.post(PATH, { carrier_id: '한진', track_id: id, webhook_url: `${receiver.url}/auto` }, user.apiKey);
    expect(named).toMatchObject({ status: 409 });
    expect(
      (await app.post(PATH, { carrier_id: '성원', track_id: id, webhook_url: `${receiver.url}/auto` }, user.apiKey)).body,
    ).toMatchObject({ code: 400, field: 'carrier_id' });
  });
});

describe('concurrent creation (issue 18 item 13)', () => {
  it('makes one watch out of 20 identical requests at once: one 201, 409 for the rest, each refunded', async () => {
    const id = number();
    parcel(id, [ev(at(2), 'AT_PICKUP', '집화처리', '성수')]);
    const before = await remaining();
    const body = { carrier_id: CJ, track_id: id, webhook_url: `${receiver.url}/race` };
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.post(PATH, body, user.apiKey)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array(19).fill(409)]);
    const watches = (await app.runtime.watches.list(user.accountId)).filter((watch) => watch.track_id === id && watch.status === 'active');
    expect(watches).toHaveLength(1);
    expect(await remaining()).toBe(before - 1);
    // Bot door too: the same channel twice at once is one watch.
    const channel = { platform: 'slack' as const, channelId: 'C-RACE' };
    const bot = await Promise.allSettled(
      Array.from({ length: 10 }, () => app.runtime.watches.create({ id: user.accountId }, { carrierId: CJ, trackId: id }, { channel })),
    );
    expect(bot.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(
      bot.filter((outcome) => outcome.status === 'rejected').map((outcome) => (outcome as PromiseRejectedResult).reason.status),
    ).toEqual(Array(9).fill(409));
  });
});

describe('the poller and the channels', () => {
  it('posts one Slack message per change, none when nothing changed, then the final message', async () => {
    const id = number();
    const step = parcel(id, [ev(at(3), 'AT_PICKUP', '집화처리', '성수')]);
    const created = await app.runtime.watches.create(
      { id: user.accountId },
      { carrierId: CJ, trackId: id },
      { channel: { platform: 'slack', channelId: 'C-FLOW' } },
    );
    expect(created.webhookSecret).toBeUndefined();

    expect((await cycle()).claimed).toBe(0); // not due yet
    advance(1);
    const quiet = await cycle();
    expect(quiet).toMatchObject({ claimed: 1, unchanged: 1, notified: 0 });
    expect(channels.to('slack', 'C-FLOW')).toHaveLength(0);

    step('IN_TRANSIT', '간선상차', '곤지암Hub');
    advance(7);
    expect(await cycle()).toMatchObject({ claimed: 1, notified: 1 });
    const [first] = channels.to('slack', 'C-FLOW');
    expect(first!.text.split('\n')[0]).toBe(`📦 CJ대한통운 ${id} · 상품이동중`);
    expect(first!.text).toContain('간선상차 — 곤지암Hub');
    expect(first!.text).not.toContain('집화처리'); // seen at creation

    advance(7);
    expect(await cycle()).toMatchObject({ claimed: 1, unchanged: 1 });
    expect(channels.to('slack', 'C-FLOW')).toHaveLength(1);

    step('OUT_FOR_DELIVERY', '배달출발', '역삼');
    step('DELIVERED', '배달완료', '역삼');
    advance(7);
    expect(await cycle()).toMatchObject({ claimed: 1, ended: 1 });
    const posts = channels.to('slack', 'C-FLOW');
    expect(posts).toHaveLength(2);
    expect(llm.requestsTo('chat')).toHaveLength(0); // on time: no delay analysis asked for
    expect(posts[1]!.text).toContain(`✅ CJ대한통운 ${id} 배송이 완료되었습니다.`);
    expect(posts[1]!.text).toContain('알림을 마칩니다');
    expect((await app.runtime.watches.list(user.accountId)).find((watch) => watch.id === created.watch.id)).toMatchObject({
      status: 'delivered',
      end_reason: 'delivered',
      next_poll_at: null,
    });

    advance(7);
    expect((await cycle()).claimed).toBe(0);
    expect(channels.to('slack', 'C-FLOW')).toHaveLength(2);
  });

  it('follows the schedule at night: a quiet parcel is polled less often, but a change found is posted at once', async () => {
    now = new Date('2026-11-23T20:00:00+09:00');
    const id = number();
    const step = parcel(id, [ev(at(3), 'AT_PICKUP', '집화처리', '성수')]);
    const created = await app.runtime.watches.create(
      { id: user.accountId },
      { carrierId: CJ, trackId: id },
      { channel: { platform: 'slack', channelId: 'C-NIGHT' } },
    );
    // The first poll is one 10-minute tick away (half a tick early, to land on the tick).
    expect(Date.parse(created.watch.next_poll_at!) - now.getTime()).toBe(5 * 60_000);
    advance(3); // 23:00: quiet hours, quiet parcel
    expect(await cycle()).toMatchObject({ claimed: 1, unchanged: 1 });
    const listed = await app.get(PATH, { 'x-api-key': user.apiKey });
    const nextPoll = Date.parse(listed.body.watches.find((w: { id: number }) => w.id === created.watch.id).next_poll_at);
    expect(nextPoll - now.getTime()).toBe(2 * HOUR - 5 * 60_000); // WATCH_MAX_INTERVAL (2 h) in the quiet hours
    step('IN_TRANSIT', '간선상차', '곤지암Hub');
    advance(2); // 01:00, still quiet hours
    expect(await cycle()).toMatchObject({ claimed: 1, notified: 1 });
    expect(channels.to('slack', 'C-NIGHT')).toHaveLength(1);
  });

  it('posts to Discord, and disables the watch when the channel is gone', async () => {
    const id = number();
    const step = parcel(id, [ev(at(3), 'AT_PICKUP', '집화처리', '성수')]);
    const created = await app.runtime.watches.create(
      { id: user.accountId },
      { carrierId: CJ, trackId: id },
      { channel: { platform: 'discord', channelId: '555' } },
    );
    step('IN_TRANSIT', '간선하차', '대전Hub');
    advance(1);
    expect(await cycle()).toMatchObject({ notified: 1 });
    expect(channels.to('discord', '555')[0]!.text).toContain('간선하차 — 대전Hub');

    channels.remove('discord', '555');
    step('IN_TRANSIT', '간선상차', '대전Hub');
    advance(7);
    expect(await cycle()).toMatchObject({ ended: 1 });
    const watch = (await app.runtime.watches.list(user.accountId)).find((w) => w.id === created.watch.id);
    expect(watch).toMatchObject({ status: 'failed', end_reason: 'discord_404_10003' });
    advance(7);
    expect((await cycle()).claimed).toBe(0);
    expect(channels.to('discord', '555')).toHaveLength(1);
  });

  it('refuses a channel the bot cannot post to at creation, and keeps one it can (the bot door announces)', async () => {
    const id = number();
    parcel(id, [ev(at(3), 'AT_PICKUP', '집화처리', '성수')]);
    channels.exclude('slack', 'C-NOJOIN');
    const refused = app.runtime.watches.create(
      { id: user.accountId },
      { carrierId: CJ, trackId: id },
      { channel: { platform: 'slack', channelId: 'C-NOJOIN' }, announce: true, requestedBy: 'U1' },
    );
    await expect(refused).rejects.toMatchObject({ status: 422, message: expect.stringContaining('/invite') });
    expect((await app.runtime.watches.list(user.accountId)).filter((w) => w.track_id === id)).toEqual([]);
    channels.exclude('discord', '777');
    await expect(
      app.runtime.watches.create(
        { id: user.accountId },
        { carrierId: CJ, trackId: id },
        { channel: { platform: 'discord', channelId: '777' }, announce: true },
      ),
    ).rejects.toMatchObject({ status: 422, message: expect.stringContaining('권한') });
    await app.runtime.watches.create(
      { id: user.accountId },
      { carrierId: CJ, trackId: id },
      { channel: { platform: 'slack', channelId: 'C-JOINED' }, announce: true },
    );
    expect(channels.to('slack', 'C-JOINED').map((post) => post.text)).toEqual([
      `🔔 CJ대한통운 ${id} 배송 상태가 바뀌면 이 채널에 알려 드립니다 (배송 완료 또는 30일까지).`,
    ]);
  });

  it('tells the person who asked, in a DM, when the channel later refuses the notices', async () => {
    const id = number();
    const step = parcel(id, [ev(at(3), 'AT_PICKUP', '집화처리', '성수')]);
    await app.runtime.watches.create(
      { id: user.accountId },
      { carrierId: CJ, trackId: id },
      { channel: { platform: 'slack', channelId: 'C-KICKED' }, requestedBy: 'U-ASKER' },
    );
    await app.runtime.watches.create(
      { id: user.accountId },
      { carrierId: CJ, trackId: id },
      { channel: { platform: 'discord', channelId: '888' }, requestedBy: '4242' },
    );
    channels.exclude('slack', 'C-KICKED');
    channels.exclude('discord', '888');
    step('IN_TRANSIT', '간선상차', '곤지암Hub');
    advance(1);
    expect(await cycle()).toMatchObject({ ended: 2 });
    const [slackDm] = channels.to('slack', 'U-ASKER');
    expect(slackDm!.text).toContain(`⚠️ CJ대한통운 ${id} 배송 알림을 <#C-KICKED> 채널에 보낼 수 없어 알림을 껐습니다 (not_in_channel).`);
    expect(slackDm!.text).toContain(`/track kr.cjlogistics ${id} watch`);
    expect(channels.to('discord', 'dm-4242')[0]!.text).toContain('<#888>');
  });

  it('keeps the news for the next bot command when the DM fails too', async () => {
    const id = number();
    const step = parcel(id, [ev(at(3), 'AT_PICKUP', '집화처리', '성수')]);
    await app.runtime.watches.create(
      { id: user.accountId },
      { carrierId: CJ, trackId: id },
      { channel: { platform: 'slack', channelId: 'C-LOST' }, requestedBy: 'U-NODM' },
    );
    channels.exclude('slack', 'C-LOST');
    channels.exclude('slack', 'U-NODM');
    step('IN_TRANSIT', '간선상차', '곤지암Hub');
    advance(1);
    expect(await cycle()).toMatchObject({ ended: 1 });
    expect(await app.runtime.watches.takeStopped(user.accountId, { platform: 'slack', userId: 'U-OTHER' })).toEqual([]);
    const told = await app.runtime.watches.takeStopped(user.accountId, { platform: 'slack', userId: 'U-NODM' });
    expect(told).toEqual([
      `⚠️ <#C-LOST> 채널의 ${id} 배송 알림은 채널에 글을 올릴 수 없어 꺼졌습니다 (not_in_channel). 봇을 초대한 뒤 /track … watch 로 다시 켜세요.`,
    ]);
    expect(await app.runtime.watches.takeStopped(user.accountId, { platform: 'slack', userId: 'U-NODM' })).toEqual([]); // once
  });

  it('tells a stalled parcel once, with the delay analysis', async () => {
    const id = number();
    parcel(id, [ev(at(30), 'AT_PICKUP', '집화처리', '성수'), ev(at(2), 'IN_TRANSIT', '간선하차', '곤지암Hub')]);
    await app.runtime.watches.create(
      { id: user.accountId },
      { carrierId: CJ, trackId: id },
      { channel: { platform: 'slack', channelId: 'C-STALL' } },
    );
    advance(24 * 3); // Thursday 10:00: three working days without a scan
    const asked = llm.requestsTo('chat').length;
    llm.chat({
      json: { analysis: '곤지암Hub에서 3일째 멈춰 있습니다. 11월 27일(금) 도착이 예상됩니다.', message: '기사님, 문 앞에 놓아 주세요.' },
    });
    expect(await cycle()).toMatchObject({ notified: 1 });
    const [post] = channels.to('slack', 'C-STALL');
    expect(post!.text).toMatch(
      /^⏳ 배송이 멈춘 것 같아요: CJ대한통운 \d+ · 상품이동중\n근무 시간 기준 \d+시간 동안 새 배송 단계가 없습니다/,
    );
    expect(post!.text).toContain('고객센터 1588-1255');
    expect(post!.text).toContain('💬 보낼 메시지 추천: 기사님, 문 앞에 놓아 주세요.');
    expect(post!.text).toContain('🤖 AI 분석: 곤지암Hub에서 3일째 멈춰 있습니다. 11월 27일(금) 도착이 예상됩니다.');
    expect(llm.requestsTo('chat')).toHaveLength(asked + 1);
    expect(JSON.stringify(llm.requestsTo('chat').at(-1)!.body.messages)).toContain('stalled');
    advance(7);
    await cycle();
    expect(channels.to('slack', 'C-STALL')).toHaveLength(1);
  });

  it('ends a watch after 30 days', async () => {
    const id = number();
    parcel(id, [ev(at(1), 'AT_PICKUP', '집화처리', '성수')]);
    const created = await app.runtime.watches.create(
      { id: user.accountId },
      { carrierId: CJ, trackId: id },
      { channel: { platform: 'slack', channelId: 'C-EXP' } },
    );
    advance(24 * 29);
    expect(await cycle()).toMatchObject({ claimed: 1, ended: 0, notified: 1 }); // the stall notice
    advance(24 + 1);
    expect(await cycle()).toMatchObject({ claimed: 1, ended: 1 });
    expect((await app.runtime.watches.list(user.accountId)).find((w) => w.id === created.watch.id)).toMatchObject({
      status: 'expired',
      end_reason: 'expired',
    });
    expect(channels.to('slack', 'C-EXP')).toHaveLength(1);
    advance(24);
    expect((await cycle()).claimed).toBe(0);
  });
});

describe('webhooks', () => {
  it('signs each change verifiably and retries a failing target with backoff', async () => {
    const id = number();
    const step = parcel(id, [ev(at(3), 'AT_PICKUP', '집화처리', '성수')]);
    receiver.respond('/retry', [500, 503, 200]);
    const res = await app.post(PATH, { carrier_id: CJ, track_id: id, webhook_url: `${receiver.url}/retry` }, user.apiKey);
    const secret: string = res.body.webhook_secret;
    step('IN_TRANSIT', '간선상차', '곤지암Hub');
    advance(1);
    expect(await cycle()).toMatchObject({ retrying: 1 });
    advance(0.01); // 36 s: the first retry (1 minute) is not due yet
    expect((await cycle()).claimed).toBe(0);
    advance(1 / 60);
    expect(await cycle()).toMatchObject({ retrying: 1 });
    advance(2 / 60);
    expect(await cycle()).toMatchObject({ notified: 1 });

    const deliveries = receiver.to('/retry');
    expect(deliveries.map((d) => d.status)).toEqual([500, 503, 200]);
    const last = deliveries[2]!;
    expect(verifySignature(secret, last.headers['x-signature'] as string, last.raw, Math.floor(now.getTime() / 1000))).toBe(true);
    expect(verifySignature(`${secret}x`, last.headers['x-signature'] as string, last.raw, Math.floor(now.getTime() / 1000))).toBe(false);
    expect(
      verifySignature(
        secret,
        last.headers['x-signature'] as string,
        last.raw.replace('IN_TRANSIT', 'DELIVERED').replace('in_transit', 'delivered'),
        Math.floor(now.getTime() / 1000),
      ),
    ).toBe(false);
    expect(last.headers['x-signature']).toMatch(new RegExp(`^t=${Math.floor(now.getTime() / 1000)},v1=[0-9a-f]{64}$`));
    expect(last.body).toMatchObject({
      event: 'delivery.updated',
      watch_id: res.body.watch.id,
      carrier_id: CJ,
      track_id: id,
      state: { id: 'in_transit', text: '상품이동중' },
      ai_analysis: null,
    });
    expect(last.body.progresses.map((p: { status: { id: string } }) => p.status.id)).toEqual(['at_pickup', 'in_transit']);

    step('DELIVERED', '배달완료', '역삼');
    advance(7);
    expect(await cycle()).toMatchObject({ ended: 1 });
    const final = receiver.to('/retry')[3]!;
    expect(final.body).toMatchObject({ event: 'delivery.delivered', state: { id: 'delivered' } });
    expect(verifySignature(secret, final.headers['x-signature'] as string, final.raw, Math.floor(now.getTime() / 1000))).toBe(true);
  });

  it('carries the AI delay analysis for a late parcel (a failed delivery attempt)', async () => {
    const id = number();
    const step = parcel(id, [ev(at(20), 'AT_PICKUP', '집화처리', '성수'), ev(at(2), 'OUT_FOR_DELIVERY', '배달출발', '역삼')]);
    const res = await app.post(PATH, { carrier_id: CJ, track_id: id, webhook_url: `${receiver.url}/late` }, user.apiKey);
    step('ATTEMPT_FAIL', '배달실패', '역삼');
    llm.chat({ json: { analysis: '수취인 부재로 배달하지 못했습니다. 내일 다시 배달됩니다.', message: '기사님, 경비실에 맡겨 주세요.' } });
    advance(1);
    expect(await cycle()).toMatchObject({ notified: 1 });
    const [delivery] = receiver.to('/late');
    expect(delivery!.body).toMatchObject({
      event: 'delivery.updated',
      watch_id: res.body.watch.id,
      state: { id: 'attempt_fail' },
      ai_analysis: '수취인 부재로 배달하지 못했습니다. 내일 다시 배달됩니다.',
    });
  });

  it('ends the watch when the target answers 410, and after 24 hours of failures', async () => {
    const gone = number();
    const stepGone = parcel(gone, [ev(at(3), 'AT_PICKUP', '집화처리', '성수')]);
    receiver.respond('/gone', [410]);
    const first = await app.post(PATH, { carrier_id: CJ, track_id: gone, webhook_url: `${receiver.url}/gone` }, user.apiKey);
    const failing = number();
    const stepFailing = parcel(failing, [ev(at(3), 'AT_PICKUP', '집화처리', '성수')]);
    receiver.respond('/down', [500]);
    const second = await app.post(PATH, { carrier_id: CJ, track_id: failing, webhook_url: `${receiver.url}/down` }, user.apiKey);
    stepGone('IN_TRANSIT', '간선상차', '곤지암Hub');
    stepFailing('IN_TRANSIT', '간선상차', '곤지암Hub');
    advance(1);
    expect(await cycle()).toMatchObject({ claimed: 2, ended: 1, retrying: 1 });
    let cycles = 0;
    for (; cycles < 40; cycles++) {
      advance(2);
      const report = await cycle();
      if (report.ended > 0) break;
    }
    const watches = await app.runtime.watches.list(user.accountId);
    expect(watches.find((w) => w.id === first.body.watch.id)).toMatchObject({ status: 'failed', end_reason: 'http_410' });
    expect(watches.find((w) => w.id === second.body.watch.id)).toMatchObject({ status: 'failed', end_reason: 'retries_exhausted' });
    expect(receiver.to('/gone')).toHaveLength(1);
    // Attempts spread over the 24 hours with growing gaps (1, 2, 4 … minutes, then every 2 h).
    expect(receiver.to('/down').length).toBeGreaterThanOrEqual(12);
    expect(receiver.to('/down').length).toBeLessThanOrEqual(14);
  });
});

describe('several instances', () => {
  it('two pollers on one database share the work and never post a change twice', async () => {
    // On PostgreSQL a second runtime (its own connection pool), as a second instance would be.
    const second =
      process.env.TEST_DB === 'postgres'
        ? await startTestApp(env, {
            clock: () => now,
            delivery: { rateLimit: { bucket, perSecond: 200 } },
            watches: { notifier: createChannelNotifier(loadConfig({ ...env, LOG_LEVEL: 'silent' })), poller: { batchSize: 5 } },
          })
        : undefined;
    const runtime = app.runtime;
    const other = second
      ? second.runtime.watchPoller
      : createWatches(
          { db: runtime.db, delivery: runtime.delivery, logger: runtime.logger, clock: () => now, allowInsecureWebhooks: true },
          { notifier: createChannelNotifier(loadConfig({ ...env, LOG_LEVEL: 'silent' })), poller: { batchSize: 5 } },
        ).poller;
    try {
      const steps = [];
      for (let i = 0; i < 12; i++) {
        const id = number();
        steps.push(parcel(id, [ev(at(3), 'AT_PICKUP', '집화처리', '성수')]));
        for (const channel of [`C-A${i}`, `C-B${i}`]) {
          await runtime.watches.create(
            { id: user.accountId },
            { carrierId: CJ, trackId: id },
            { channel: { platform: 'slack', channelId: channel } },
          );
        }
      }
      for (const step of steps) step('IN_TRANSIT', '간선상차', '곤지암Hub');
      advance(1);
      const only = { accountIds: [user.accountId] };
      const [a, b] = await Promise.all([runtime.watchPoller.runCycle(only), other.runCycle(only)]);
      expect(a.claimed + b.claimed).toBe(24);
      expect(a.notified + b.notified).toBe(24);
      expect(a.claimed).toBeGreaterThan(0);
      expect(b.claimed).toBeGreaterThan(0);
      for (let i = 0; i < 12; i++) {
        expect(channels.to('slack', `C-A${i}`)).toHaveLength(1);
        expect(channels.to('slack', `C-B${i}`)).toHaveLength(1);
      }
      advance(7);
      const [c, d] = await Promise.all([runtime.watchPoller.runCycle(only), other.runCycle(only)]);
      expect(c.claimed + d.claimed).toBe(24);
      expect(c.notified + d.notified).toBe(0);
      expect(channels.posts.filter((post) => /^C-[AB]\d+$/.test(post.channel))).toHaveLength(24);
    } finally {
      await second?.close();
    }
  });
});

describe('exactly once (#33 item 7)', () => {
  it('a webhook watch and a Discord watch on one parcel, two pollers overlapping, the upstream reordering same-minute scans: one notice each', async () => {
    const runtime = app.runtime;
    const second =
      process.env.TEST_DB === 'postgres'
        ? await startTestApp(env, {
            clock: () => now,
            delivery: { rateLimit: { bucket, perSecond: 200 } },
            watches: { notifier: createChannelNotifier(loadConfig({ ...env, LOG_LEVEL: 'silent' })) },
          })
        : undefined;
    const other = second
      ? second.runtime.watchPoller
      : createWatches(
          { db: runtime.db, delivery: runtime.delivery, logger: runtime.logger, clock: () => now, allowInsecureWebhooks: true },
          { notifier: createChannelNotifier(loadConfig({ ...env, LOG_LEVEL: 'silent' })) },
        ).poller;
    try {
      const id = number();
      const pickup = ev(at(3), 'AT_PICKUP', '집화처리', '성수');
      tracker.parcel(CJ, id, { events: [pickup] });
      const hook = `/exact-${id}`;
      expect((await app.post(PATH, { carrier_id: CJ, track_id: id, webhook_url: `${receiver.url}${hook}` }, user.apiKey)).status).toBe(201);
      await runtime.watches.create(
        { id: user.accountId },
        { carrierId: CJ, trackId: id },
        { channel: { platform: 'discord', channelId: `exact-${id}` } },
      );
      // Two scans of the same minute, listed in one order, then the other, on every answer.
      const load = ev(at(1 / 6), 'IN_TRANSIT', '간선상차', '곤지암Hub', '간선상차 처리');
      const unload = ev(at(1 / 6), 'IN_TRANSIT', '간선하차', '곤지암Hub', '간선하차 처리');
      const only = { accountIds: [user.accountId] };
      for (let tick = 0; tick < 6; tick++) {
        tracker.parcel(CJ, id, { events: tick % 2 ? [pickup, unload, load] : [pickup, load, unload] });
        advance(1);
        await Promise.all([runtime.watchPoller.runCycle(only), other.runCycle(only)]);
      }
      expect(receiver.to(hook)).toHaveLength(1);
      expect(channels.to('discord', `exact-${id}`)).toHaveLength(1);
    } finally {
      await second?.close();
    }
  });
});
