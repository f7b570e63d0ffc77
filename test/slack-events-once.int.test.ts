import { readFileSync } from 'node:fs';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { createBotEventClaims, EVENT_MEMORY_MS } from '../src/platform/bot-event-store.js';
import { startFakeSlack, type FakeSlack } from './fakes/slack-server.js';
import { postToSlackDoor } from './helpers/slack-commands.js';
import { ownTestDatabase, startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { sharedDataPath, sharedDataPresent } from './helpers/shared-data.js';

/**
 * Issue 47 item 3: Slack resends an event it thinks lost (same `event_id`, `X-Slack-Retry-Num`);
 * every event kind the app listens to is handled once, on one instance or two on one database.
 * Replies are counted at the fake Slack, charges in the linked account's remaining calls, and a
 * skipped retry is waited for on its log line (no sleeps).
 */
const SECRET = 'test-signing-secret';
const BOT_TOKEN = 'xoxb-test-bot-token';
const TEAM = 'T0ONCE';
const CHANNEL = 'C0ONCE';
const DM = 'chat-payloads/slack/vercel-chat_dm-slack-direct.json';
const IMAGES = 'chat-payloads/slack/zulip_message_with_image_files.json';
const EXPORTED = 'chat-payloads/slack/zulip_exported_message_with_links.json';
const present = sharedDataPresent(DM) && sharedDataPresent(IMAGES) && sharedDataPresent(EXPORTED);
const recorded = (path: string) => JSON.parse(readFileSync(sharedDataPath(path), 'utf8'));

interface Instance {
  app: TestApp;
  logs: string[];
}

async function startInstance(slack: FakeSlack, env: Record<string, string> = {}): Promise<Instance> {
  const logs: string[] = [];
  const app = await startTestApp(
    { SLACK_SIGNING_SECRET: SECRET, SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_API_URL: slack.apiUrl, ...env },
    { logger: createLogger('info', { write: (line: string) => void logs.push(line) }), ocr: { size: 1 } },
  );
  return { app, logs };
}

/** Delivers a body as Slack does: signed now (a retry is signed anew, so its signature differs). */
async function deliver(app: TestApp, body: string, contentType: string, headers: Record<string, string> = {}, skew = 0) {
  const res = await postToSlackDoor(app.url, SECRET, body, contentType, { headers, timestamp: Math.floor(Date.now() / 1000) - skew });
  await res.text();
  return res.status;
}

const RETRY = { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' };

async function slash(slack: FakeSlack, app: TestApp, command: string, text: string, channel = CHANNEL) {
  const responseUrl = slack.responseUrl();
  const form = new URLSearchParams({
    token: 'legacy',
    team_id: TEAM,
    team_domain: 'once',
    channel_id: channel,
    channel_name: 'general',
    user_id: 'UADMIN',
    user_name: 'admin',
    command,
    text,
    api_app_id: 'A1',
    response_url: responseUrl,
    trigger_id: `trigger-${command}-${text.length}-${Date.now()}`,
  }).toString();
  expect(await deliver(app, form, 'application/x-www-form-urlencoded')).toBe(200);
  const answer = await slack.waitFor(() => slack.responses(responseUrl)[0]?.body);
  return JSON.stringify(answer);
}

/** A recorded envelope delivered to this app: the linked team, the event changed where the test says. */
function envelope(recordedEnvelope: Record<string, any>, eventId: string, event: Record<string, unknown>) {
  return JSON.stringify({
    ...recordedEnvelope,
    team_id: TEAM,
    event_id: eventId,
    event: { ...recordedEnvelope.event, ...event, team: TEAM },
  });
}

const skipped = (instance: Instance, eventId: string) =>
  instance.logs.some((line) => line.includes('slack event seen before') && line.includes(`"eventId":"${eventId}"`));

/** What `POST /url/scan` of a message with one link costs (measured, so the test follows the operation's price). */
async function priceOfOneLinkMessage(app: TestApp, user: TestUser): Promise<number> {
  const before = (await app.remaining(user.apiKey, 'harmful-url-detection'))!;
  await app.post('/api/v1/url/scan', { text: '확인 http://reference.example/one' }, user.apiKey);
  return before - (await app.remaining(user.apiKey, 'harmful-url-detection'))!;
}

const postsTo = (slack: FakeSlack, channel: string) => slack.api('chat.postMessage').filter((call) => call.body.channel === channel);

describe.skipIf(!present)('Slack retries: every event kind handled once', () => {
  let slack: FakeSlack;
  let one: Instance;
  let owner: TestUser;
  /** What one check of a message with one link costs (`POST /url/scan`): what a DM with one link must cost, once. */
  let oneLinkMessage: number;

  beforeAll(async () => {
    slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM });
    slack.setUser('UADMIN', { is_admin: true });
    one = await startInstance(slack);
    owner = await one.app.signUp();
    await one.app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
    expect(await slash(slack, one.app, '/link', owner.apiKey)).toContain('연결되었습니다');
    expect(await slash(slack, one.app, '/guard', 'on')).toContain('링크 가드를 켰습니다');
    oneLinkMessage = await priceOfOneLinkMessage(one.app, owner);
    expect(oneLinkMessage).toBeGreaterThanOrEqual(1);
  });
  afterAll(async () => {
    await one?.app.close();
    await slack?.close();
  });

  const remaining = () => one.app.remaining(owner.apiKey, 'harmful-url-detection');

  /**
   * Delivers an event and, right after Slack's acknowledgement, its retry (the usual case: the
   * first delivery is still being handled); then waits for the one reply and the retry's skip.
   */
  async function deliverTwice(body: string, eventId: string, channel: string) {
    const before = { replies: postsTo(slack, channel).length, remaining: await remaining() };
    // The retry is signed later than the first delivery (a second apart here): its signature differs, its event id does not.
    expect(await deliver(one.app, body, 'application/json', {}, 1)).toBe(200);
    expect(await deliver(one.app, body, 'application/json', RETRY)).toBe(200);
    await slack.waitFor(() => postsTo(slack, channel).length > before.replies, 60_000);
    await slack.waitFor(() => skipped(one, eventId));
    return { replies: postsTo(slack, channel).length - before.replies, charged: before.remaining! - (await remaining())! };
  }

  it('a picture in a DM (a QR code): read once, answered once, charged once', async () => {
    const qr = await QRCode.toBuffer('https://casino-king.xyz/event', { width: 300 });
    const shared = recorded(IMAGES);
    const file = { ...shared.event.files[1], id: 'FQRONCE', mimetype: 'image/png', size: qr.length };
    file.url_private = file.url_private_download = slack.addFile('FQRONCE', qr);
    const body = envelope(shared, 'Ev0ONCEIMG', { channel: 'D0IMG', channel_type: 'im', files: [file] });
    expect(await deliverTwice(body, 'Ev0ONCEIMG', 'D0IMG')).toEqual({ replies: 1, charged: oneLinkMessage });
    expect(slack.calls.filter((call) => call.path === '/files/FQRONCE')).toHaveLength(1);
  });

  it('a text in a DM: checked once, answered once, charged once', async () => {
    const dm = recorded(DM).directDM;
    const body = envelope(dm, dm.event_id, {
      text: '국민은행 보안 인증 <http://kbstar-login.xyz/verify> 에서 해 주세요',
      channel: 'D0TEXT',
    });
    expect(await deliverTwice(body, dm.event_id, 'D0TEXT')).toEqual({ replies: 1, charged: oneLinkMessage });
  });

  it("a guarded channel's message: one warning, one charge", async () => {
    const exported = JSON.parse(JSON.stringify(recorded(EXPORTED)).replaceAll('https://chat.zulip.org/', 'http://kbstar-login.xyz/once'));
    const message = { ...exported, ts: '1772000001.000100', channel: CHANNEL, channel_type: 'channel', team: TEAM };
    const body = JSON.stringify({
      token: 'legacy',
      team_id: TEAM,
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: 'Ev0ONCEMSG',
      event: message,
    });
    expect(await deliverTwice(body, 'Ev0ONCEMSG', CHANNEL)).toEqual({ replies: 1, charged: 1 });
  });

  it('a link_shared event: one warning, one charge', async () => {
    const event = {
      type: 'link_shared',
      channel: CHANNEL,
      user: 'U0SHARER',
      message_ts: '1772000002.000200',
      links: [{ domain: 'bit-casino.xyz', url: 'https://bit-casino.xyz/join' }],
      source: 'conversations_history',
    };
    const body = JSON.stringify({
      token: 'legacy',
      team_id: TEAM,
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: 'Ev0ONCELINK',
      event,
    });
    expect(await deliverTwice(body, 'Ev0ONCELINK', CHANNEL)).toEqual({ replies: 1, charged: 1 });
  });

  it('slash commands carry no event id and are never held back', async () => {
    expect(await slash(slack, one.app, '/guard', 'status')).toContain('켜짐');
    expect(await slash(slack, one.app, '/guard', 'status')).toContain('켜짐');
  });
});

describe('event claims in the database', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lets exactly one of many concurrent claims of one event win, per app and workspace', async () => {
    const other = createBotEventClaims(app.runtime.db);
    const key = { platform: 'slack' as const, appId: 'A1', workspaceId: 'T1', eventId: 'Ev-race' };
    const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? other : app.runtime.platform.botEvents).claim(key)));
    expect(wins.filter(Boolean)).toHaveLength(1);
    expect(await other.claim({ ...key, workspaceId: 'T2' })).toBe(true);
    expect(await other.claim({ ...key, appId: 'A2' })).toBe(true);
  });

  it('forgets a claim after its time: taken over by a new delivery, deleted by housekeeping', async () => {
    // Long ago: on the shared PostgreSQL database, other files' claims are never expired on this clock.
    let now = new Date('2000-01-01T00:00:00Z');
    const claims = createBotEventClaims(app.runtime.db, () => now);
    const key = { platform: 'slack' as const, appId: 'A1', workspaceId: 'T1', eventId: 'Ev-old' };
    expect(await claims.claim(key)).toBe(true);
    expect(await claims.claim({ ...key, eventId: 'Ev-old-2' })).toBe(true);
    now = new Date(now.getTime() + EVENT_MEMORY_MS - 1);
    expect(await claims.claim(key)).toBe(false);
    now = new Date(now.getTime() + 1);
    expect(await claims.claim(key)).toBe(true);
    expect(await claims.purge()).toBe(1); // Ev-old-2; Ev-old was claimed again just now
    expect(await claims.claim({ ...key, eventId: 'Ev-old-2' })).toBe(true);
  });
});

/**
 * Two instances on one PostgreSQL (two runtimes with their own pools, as two processes have),
 * each delivered the same event once, at the same time, as Slack's retry may land on the other
 * one: exactly one handles it. PGlite admits one process: skipped there.
 */
describe.skipIf(process.env.TEST_DB !== 'postgres' || !present)('Slack events on two instances on one PostgreSQL', () => {
  let slack: FakeSlack;
  let a: Instance;
  let b: Instance;
  let owner: TestUser;
  let database: Awaited<ReturnType<typeof ownTestDatabase>>;

  beforeAll(async () => {
    database = await ownTestDatabase('aih_events_once');
    slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM });
    slack.setUser('UADMIN', { is_admin: true });
    a = await startInstance(slack, database.env);
    b = await startInstance(slack, database.env);
    owner = await a.app.signUp();
    await a.app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
    expect(await slash(slack, a.app, '/link', owner.apiKey)).toContain('연결되었습니다');
    expect(await slash(slack, b.app, '/guard', 'on')).toContain('링크 가드를 켰습니다');
  });
  afterAll(async () => {
    await a?.app.close();
    await b?.app.close();
    await slack?.close();
    await database?.drop();
  });

  it.each([
    ['a DM text', 'Ev0TWODM', 'D0TWO'],
    ["a guarded channel's message", 'Ev0TWOMSG', CHANNEL],
  ])('%s delivered to both at once: one reply, one charge', async (_kind, eventId, channel) => {
    const dm = recorded(DM).directDM;
    const body =
      channel === CHANNEL
        ? JSON.stringify({
            token: 'legacy',
            team_id: TEAM,
            api_app_id: 'A1',
            type: 'event_callback',
            event_id: eventId,
            event: { ...dm.event, channel, channel_type: 'channel', ts: '1772000003.000300', text: '확인 <http://kbstar-login.xyz/two>' },
          })
        : envelope(dm, eventId, { channel, text: '확인 부탁 <http://kbstar-login.xyz/two-dm>' });
    // The guard checks the one link (one call); the DM is one message check with one link (`/url/scan`'s price).
    const price = channel === CHANNEL ? 1 : await priceOfOneLinkMessage(a.app, owner);
    const before = { replies: postsTo(slack, channel).length, remaining: await a.app.remaining(owner.apiKey, 'harmful-url-detection') };
    // Signed a second apart, as a retry is: the request signatures differ, the event id does not.
    const statuses = await Promise.all([deliver(a.app, body, 'application/json'), deliver(b.app, body, 'application/json', RETRY, 1)]);
    expect(statuses).toEqual([200, 200]);
    await slack.waitFor(() => postsTo(slack, channel).length > before.replies, 60_000);
    await slack.waitFor(() => skipped(a, eventId) || skipped(b, eventId));
    expect([skipped(a, eventId), skipped(b, eventId)].filter(Boolean)).toHaveLength(1);
    expect(postsTo(slack, channel).length - before.replies).toBe(1);
    expect(before.remaining! - (await b.app.remaining(owner.apiKey, 'harmful-url-detection'))!).toBe(price);
  });
});
