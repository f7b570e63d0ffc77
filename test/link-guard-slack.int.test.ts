import { readFileSync } from 'node:fs';
import QRCode from 'qrcode';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuardOutcome } from '../src/operations/link-guard/link-guard.js';
import type { UrlSafetyChecker } from '../src/operations/url-detect/checker.js';
import { startFakeSlack, type FakeSlack } from './fakes/slack-server.js';
import { postToSlackDoor } from './helpers/slack-commands.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { sharedDataPath, sharedDataPresent } from './helpers/shared-data.js';

/**
 * The link guard on Slack, end to end through the real Bolt app: signed `message` and
 * `link_shared` events built from recorded payloads, `/guard` slash commands, and the warnings
 * the real Web API client posts to the fake Slack.
 */
const SECRET = 'test-signing-secret';
const BOT_TOKEN = 'xoxb-test-bot-token';
const TEAM = 'T0GUARD';
const CHANNEL = 'C0GUARDED';
const EXPORTED = 'chat-payloads/slack/zulip_exported_message_with_links.json';
const BOT_MESSAGE = 'chat-payloads/slack/zulip_message_from_slack_integration_bot.json';
const THREAD = 'chat-payloads/slack/vercel-chat_slack.json';
const DM = 'chat-payloads/slack/vercel-chat_dm-slack-direct.json';
const present = sharedDataPresent(EXPORTED) && sharedDataPresent(BOT_MESSAGE) && sharedDataPresent(THREAD);
const recorded = (path: string) => JSON.parse(readFileSync(sharedDataPath(path), 'utf8'));

interface Harness {
  app: TestApp;
  slack: FakeSlack;
  outcomes: GuardOutcome[];
  counter: number;
}

async function startHarness(options: Parameters<typeof startTestApp>[1] = {}): Promise<Harness> {
  const slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM });
  const outcomes: GuardOutcome[] = [];
  const app = await startTestApp(
    { SLACK_SIGNING_SECRET: SECRET, SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_API_URL: slack.apiUrl },
    { ...options, linkGuard: { ...options.linkGuard, observe: (event) => void outcomes.push(event) } },
  );
  slack.setUser('UADMIN', { is_admin: true });
  slack.setUser('UENADMIN', { is_admin: true, locale: 'en-US' });
  return { app, slack, outcomes, counter: 0 };
}

async function postSigned(h: Harness, body: string, contentType: string) {
  const res = await postToSlackDoor(h.app.url, SECRET, body, contentType);
  expect(res.status).toBe(200);
}

async function slash(h: Harness, text: string, options: { user?: string; team?: string; channel?: string; command?: string } = {}) {
  const responseUrl = h.slack.responseUrl();
  const form = new URLSearchParams({
    token: 'legacy',
    team_id: options.team ?? TEAM,
    team_domain: 'guard-test',
    channel_id: options.channel ?? CHANNEL,
    channel_name: 'general',
    user_id: options.user ?? `U${++h.counter}`,
    user_name: 'tester',
    command: options.command ?? '/guard',
    text,
    api_app_id: 'A1',
    response_url: responseUrl,
    trigger_id: `trigger-${++h.counter}`,
  }).toString();
  await postSigned(h, form, 'application/x-www-form-urlencoded');
  const answer = await h.slack.waitFor(() => h.slack.responses(responseUrl)[0]?.body);
  return JSON.stringify(answer.blocks ?? []) + (answer.text ?? '');
}

/** An `event_callback` envelope around one event, as Slack delivers `message.channels`. */
async function sendEvent(h: Harness, event: Record<string, unknown>, team = TEAM) {
  await postSigned(
    h,
    JSON.stringify({
      token: 'legacy',
      team_id: team,
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: `Ev${++h.counter}`,
      event_time: Math.floor(Date.now() / 1000),
      event,
    }),
    'application/json',
  );
}

/** The recorded exported message (links in text markup, an unfurl attachment and rich_text blocks) with its URL replaced. */
function exportedMessage(h: Harness, url: string, channel = CHANNEL, team = TEAM) {
  const json = JSON.stringify(recorded(EXPORTED)).replaceAll('https://chat.zulip.org/', url);
  const ts = `17720${++h.counter}.000100`;
  return { ...JSON.parse(json), ts, channel, channel_type: 'channel', team, user_team: team, source_team: team };
}

function outcomeOf(h: Harness, messageId: string) {
  return h.slack.waitFor(() => h.outcomes.find((event) => event.messageId === messageId)?.outcome);
}

const posts = (h: Harness, channel: string) => h.slack.api('chat.postMessage').filter((call) => call.body.channel === channel);

describe.skipIf(!present)('link guard on Slack', () => {
  let h: Harness;
  let owner: TestUser;

  beforeAll(async () => {
    h = await startHarness();
    owner = await h.app.signUp();
    await h.app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
    expect(await slash(h, owner.apiKey, { command: '/link', user: 'UADMIN' })).toContain('연결되었습니다');
    h.slack.setChannel(CHANNEL, { creator: 'UCREATOR' });
  });
  afterAll(async () => {
    await h?.app.close();
    await h?.slack.close();
  });

  it('lets only workspace admins or the channel creator turn it on; refuses hide on Slack with the reason', async () => {
    expect(await slash(h, 'on', { user: 'UMEMBER' })).toContain('채널 관리자만');
    expect(await slash(h, 'on', { user: 'UCREATOR' })).toContain('링크 가드를 켰습니다');
    const hide = await slash(h, 'mode hide', { user: 'UADMIN' });
    expect(hide).toContain('다른 사람의 메시지를 지울 수 없어');
    const status = await slash(h, 'status');
    expect(status).toContain('켜짐');
    expect(status).toContain('warn');
  });

  it('posts nothing for the recorded message with clean links (text, unfurl, blocks)', async () => {
    const message = exportedMessage(h, 'https://www.google.com/');
    await sendEvent(h, message);
    expect(await outcomeOf(h, message.ts)).toBe('clean');
    expect(posts(h, CHANNEL)).toHaveLength(0);
  });

  it("warns in the message's thread, visible to the channel, without a clickable link or a mention", async () => {
    const before = await h.app.remaining(owner.apiKey, 'harmful-url-detection');
    const message = exportedMessage(h, 'http://kbstar-login.xyz/verify');
    message.text = `<!channel> ${message.text}`;
    await sendEvent(h, message);
    expect(await outcomeOf(h, message.ts)).toBe('warned');
    const [warning] = posts(h, CHANNEL);
    expect(warning?.body.thread_ts).toBe(message.ts);
    expect(String(warning?.body.unfurl_links)).toBe('false'); // the Web API client posts form fields
    const shown = JSON.stringify(warning?.body);
    expect(shown).toContain('위험한 링크');
    expect(shown).toContain('kbstar-login[.]xyz');
    expect(shown).not.toMatch(/kbstar-login\.xyz|https?:\/\/|<!|<@/);
    // Five links to one URL in text, unfurl and blocks: one check, one call.
    expect(await h.app.remaining(owner.apiKey, 'harmful-url-detection')).toBe(before! - 1);
    expect((await h.app.runtime.linkGuard.recentIn('slack', TEAM, 1))[0]).toMatchObject({
      channel_id: CHANNEL,
      poster_id: message.user,
      host: 'kbstar-login.xyz',
      action: 'warned',
    });
  });

  it('does not warn twice when the unfurl arrives as message_changed, and answers the repeat from the cache', async () => {
    const before = await h.app.remaining(owner.apiKey, 'harmful-url-detection');
    const message = exportedMessage(h, 'https://casino-king.xyz/event');
    const { attachments, ...withoutUnfurl } = message;
    await sendEvent(h, withoutUnfurl);
    expect(await outcomeOf(h, message.ts)).toBe('warned');
    const warnings = posts(h, CHANNEL).length;
    await sendEvent(h, {
      type: 'message',
      subtype: 'message_changed',
      channel: CHANNEL,
      channel_type: 'channel',
      ts: `${message.ts}9`,
      message: { ...message, attachments },
    });
    await h.slack.waitFor(() => h.outcomes.filter((event) => event.messageId === message.ts).length === 2);
    expect(h.outcomes.filter((event) => event.messageId === message.ts).map((event) => event.outcome)).toEqual(['warned', 'clean']);
    expect(posts(h, CHANNEL)).toHaveLength(warnings);
    expect(await h.app.remaining(owner.apiKey, 'harmful-url-detection')).toBe(before! - 1);
  });

  it('checks the links a bot message carries only in attachment blocks and buttons', async () => {
    const envelope = recorded(BOT_MESSAGE);
    const event = JSON.parse(
      JSON.stringify(envelope.event).replaceAll('https://app.clickup.com/t/25567147/86cw30wf2', 'https://bet365-kr.top/t/1'),
    );
    event.channel = CHANNEL;
    await sendEvent(h, event);
    expect(await outcomeOf(h, event.ts)).toBe('warned');
    expect(posts(h, CHANNEL).at(-1)?.body.thread_ts).toBe(event.ts);
  });

  it('answers a message inside a thread in that thread, and a link_shared event too', async () => {
    const followUp = recorded(THREAD).followUp.event;
    const reply = { ...followUp, channel: CHANNEL, channel_type: 'channel', text: '여기서 확인 hxxps://naver-security[.]click/login' };
    await sendEvent(h, reply);
    expect(await outcomeOf(h, `${reply.ts}@${reply.thread_ts}`)).toBe('warned');
    expect(posts(h, CHANNEL).at(-1)?.body.thread_ts).toBe(followUp.thread_ts);

    await sendEvent(h, {
      type: 'link_shared',
      channel: CHANNEL,
      user: 'U0SHARER',
      message_ts: '1772099999.000200',
      links: [{ domain: 'bit-casino.xyz', url: 'https://bit-casino.xyz/join' }],
      source: 'conversations_history',
    });
    expect(await outcomeOf(h, '1772099999.000200')).toBe('warned');
    expect(posts(h, CHANNEL).at(-1)?.body.thread_ts).toBe('1772099999.000200');
  });

  it('writes the warning in English for a channel turned on by an English-speaking admin', async () => {
    expect(await slash(h, 'on', { user: 'UENADMIN', channel: 'C0ENGLISH' })).toContain('Link guard on');
    const message = exportedMessage(h, 'http://kbstar-login.xyz/verify', 'C0ENGLISH');
    await sendEvent(h, message);
    expect(await outcomeOf(h, message.ts)).toBe('warned');
    const warning = JSON.stringify(posts(h, 'C0ENGLISH')[0]?.body);
    expect(warning).toContain('harmful link');
    // The detector's reasons are Korean: what the category means comes first, in English.
    expect(warning).toMatch(/this link (poses as|serves|advertises|leads to|was judged)/);
  });

  it('turns off for the channel asked, at once, and says so when it was not on', async () => {
    const channel = 'C0TURNOFF';
    h.slack.setChannel(channel, { creator: 'UCREATOR' });
    await slash(h, 'on', { user: 'UADMIN', channel });
    expect(await slash(h, 'off', { user: 'UMEMBER', channel })).toContain('채널 관리자만');
    expect(await slash(h, 'off', { user: 'UADMIN', channel })).toContain('링크 가드를 껐습니다');
    const message = exportedMessage(h, 'http://kbstar-login.xyz/after-off', channel);
    await sendEvent(h, message);
    expect(await outcomeOf(h, message.ts)).toBe('not_guarded');
    expect(posts(h, channel)).toHaveLength(0);
    expect(await slash(h, 'off', { user: 'UADMIN', channel })).toContain('링크 가드가 꺼져 있습니다');
    expect(await slash(h, 'status', { channel })).toContain('꺼짐');
    // The channel beside it stays guarded.
    expect(await slash(h, 'status')).toContain('켜짐');
  });

  it('shows the log ephemerally and stops warning about an allowed host in the workspace', async () => {
    const log = await slash(h, 'log', { user: 'UADMIN' });
    expect(log).toContain('kbstar-login[.]xyz');
    expect(h.slack.calls.at(-1)?.body.response_type).toBe('ephemeral');
    expect(await slash(h, 'allow <https://kbstar-login.xyz|kbstar-login.xyz>', { user: 'UADMIN' })).toContain('허용 목록에 추가했습니다');
    const before = posts(h, CHANNEL).length;
    const message = exportedMessage(h, 'http://kbstar-login.xyz/other');
    await sendEvent(h, message);
    expect(await outcomeOf(h, message.ts)).toBe('clean');
    expect(posts(h, CHANNEL)).toHaveLength(before);
    expect(await slash(h, 'status')).toContain('kbstar-login[.]xyz');
  });

  it('posts one notice to the channel when the quota runs out, not one per message', async () => {
    const spender = await h.app.signUp();
    await h.app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, spender.apiKey);
    await h.app.runtime.db.execute(
      sql`update subscriptions set remaining = 1 where account_id = ${spender.accountId} and api = 'harmful-url-detection'`,
    );
    expect(await slash(h, spender.apiKey, { command: '/link', user: 'UADMIN', team: 'T0SPENT' })).toContain('연결되었습니다');
    expect(await slash(h, 'on', { user: 'UADMIN', team: 'T0SPENT', channel: 'C0SPENT' })).toContain('링크 가드를 켰습니다');
    const first = exportedMessage(h, 'https://casino-one.xyz/a', 'C0SPENT', 'T0SPENT');
    first.text += ' 그리고 https://casino-two.xyz/b';
    await sendEvent(h, first, 'T0SPENT');
    expect(await outcomeOf(h, first.ts)).toBe('warned');
    for (const host of ['casino-three.xyz', 'casino-four.xyz']) {
      const next = exportedMessage(h, `https://${host}/c`, 'C0SPENT', 'T0SPENT');
      await sendEvent(h, next, 'T0SPENT');
      expect(await outcomeOf(h, next.ts)).toBe('quota_stopped');
    }
    const notices = posts(h, 'C0SPENT').filter((call) => JSON.stringify(call.body).includes('링크 가드가 멈췄습니다'));
    expect(notices).toHaveLength(1);
    expect(notices[0]?.body.thread_ts).toBeUndefined();
    expect(posts(h, 'C0SPENT').filter((call) => call.body.thread_ts === first.ts)).toHaveLength(1);
    expect(await h.app.remaining(spender.apiKey, 'harmful-url-detection')).toBe(0);
  });
});

async function messageShortcut(h: Harness, callbackId: string, message: Record<string, unknown>) {
  const responseUrl = h.slack.responseUrl();
  const payload = {
    type: 'message_action',
    callback_id: callbackId,
    trigger_id: `trigger-${++h.counter}`,
    team: { id: TEAM, domain: 'guard-test' },
    user: { id: `U${++h.counter}`, name: 'tester' },
    channel: { id: CHANNEL, name: 'general' },
    message: { type: 'message', ts: '1.2', ...message },
    message_ts: '1.2',
    response_url: responseUrl,
    token: 'legacy',
    action_ts: '1.3',
  };
  await postSigned(h, new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), 'application/x-www-form-urlencoded');
  const answer = await h.slack.waitFor(() => h.slack.responses(responseUrl)[0]?.body);
  return JSON.stringify(answer.blocks ?? []) + (answer.text ?? '');
}

/** A DM as Slack sends it (recorded `vercel-chat_dm-slack-direct.json`), with the test's text and files. */
async function directMessage(h: Harness, text: string, files?: unknown[]) {
  const dm = JSON.parse(readFileSync(sharedDataPath(DM), 'utf8')).directDM.event;
  const before = h.slack.api('chat.postMessage').filter((call) => call.body.channel === dm.channel).length;
  await sendEvent(h, { ...dm, text, team: TEAM, ...(files ? { subtype: 'file_share', files } : {}) });
  const posted = await h.slack.waitFor(
    () => h.slack.api('chat.postMessage').filter((call) => call.body.channel === dm.channel)[before],
    60_000,
  );
  return JSON.stringify(posted.body);
}

describe.skipIf(!present || !sharedDataPresent(DM))('"스미싱 검사" and direct messages', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ ocr: { size: 1 } });
    const owner = await h.app.signUp();
    await h.app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
    await slash(h, owner.apiKey, { command: '/link', user: 'UADMIN' });
  });
  afterAll(async () => {
    await h?.app.close();
    await h?.slack.close();
  });

  it('the message shortcut says a delivery lure with a look-alike link is smishing, and why', async () => {
    const shown = await messageShortcut(h, 'smishing_check', {
      text: '[CJ대한통운] 고객님 택배가 주소지 불일치로 반송 예정입니다. 주소확인 hxxp://cj-track[.]example/a',
    });
    expect(shown).toContain('스미싱으로 보입니다');
    expect(shown).toContain('링크(cj-track[.]example)는 CJ대한통운의 공식 주소가 아닙니다');
    expect(shown).toContain('http://cj-track.example/a');
  });

  it('a QR code sent to the bot is decoded and its harmful link shown defanged', async () => {
    const qr = await QRCode.toBuffer('https://casino-king.xyz/event', { width: 300 });
    const link = h.slack.addFile('qr.png', qr);
    const shown = await directMessage(h, '', [
      { id: 'qr.png', mimetype: 'image/png', size: qr.length, url_private: link, url_private_download: link },
    ]);
    expect(shown).toContain('casino-king[.]xyz');
    expect(shown).not.toContain('casino-king.xyz');
  });

  it('a pasted text with a link is checked; one without gets the help', async () => {
    expect(await directMessage(h, '국민은행 보안 인증 http://kbstar-login.xyz/verify 에서 해 주세요')).toContain('kbstar-login[.]xyz');
    expect(await directMessage(h, '안녕하세요')).toContain('스미싱인지 검사합니다');
  });
});

describe.skipIf(!present)('link guard under a flood', () => {
  let h: Harness;
  let gateOpen: () => void;
  const gate = new Promise<void>((resolve) => (gateOpen = resolve));
  let floodChecks = 0;
  /** The flooded workspace's checks wait on a gate; every other check answers at once. */
  const checker: UrlSafetyChecker = {
    async check(url) {
      const host = new URL(url).hostname;
      if (host.startsWith('flood')) {
        floodChecks += 1;
        await gate;
      }
      const harmful = host.includes('evil');
      return { isMalicious: harmful, category: harmful ? 'phishing' : 'clean', reason: harmful ? '테스트용 유해 호스트' : '안전' };
    },
  };

  beforeAll(async () => {
    h = await startHarness({ urlChecker: checker });
    for (const team of ['T0FLOOD', 'T0CALM']) {
      const user = await h.app.signUp();
      await h.app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, user.apiKey);
      await slash(h, user.apiKey, { command: '/link', user: 'UADMIN', team });
      await slash(h, 'on', { user: 'UADMIN', team, channel: `C${team}` });
    }
  });
  afterAll(async () => {
    gateOpen();
    await h?.app.close();
    await h?.slack.close();
  });

  it('keeps a flooded workspace to its bounded queue while another workspace and the API are answered', async () => {
    const flood = Array.from({ length: 500 }, (_, i) => exportedMessage(h, `https://flood${i}.example.com/p`, 'CT0FLOOD', 'T0FLOOD'));
    for (const message of flood) await sendEvent(h, message, 'T0FLOOD');
    // One message runs (held at the gate), 200 wait, the other 299 are dropped, never queued.
    await h.slack.waitFor(() => h.outcomes.filter((event) => event.workspaceId === 'T0FLOOD').length === 299);
    expect(h.outcomes.every((event) => event.outcome === 'dropped')).toBe(true);
    expect(h.app.runtime.linkGuard.queueStats('slack', 'T0FLOOD')).toMatchObject({ running: 1, pending: 200 });
    expect(floodChecks).toBe(1);

    const calm = exportedMessage(h, 'https://evil-calm.example.com/x', 'CT0CALM', 'T0CALM');
    await sendEvent(h, calm, 'T0CALM');
    expect(await outcomeOf(h, calm.ts)).toBe('warned');
    const other = await h.app.signUp();
    await h.app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, other.apiKey);
    const detected = await h.app.post('/api/v1/url/detect', { url: 'https://evil-api.example.com/' }, other.apiKey);
    expect(detected.status).toBe(200);
    expect(floodChecks).toBe(1);

    gateOpen();
    await h.slack.waitFor(() => h.outcomes.filter((event) => event.workspaceId === 'T0FLOOD').length === 500, 60_000);
    expect(h.outcomes.filter((event) => event.workspaceId === 'T0FLOOD' && event.outcome === 'clean')).toHaveLength(201);
    expect(floodChecks).toBe(201);
    expect(posts(h, 'CT0FLOOD')).toHaveLength(0);
  }, 300_000); // 500 signed events through Bolt on a shared machine: a budget, not a speed assertion
});
