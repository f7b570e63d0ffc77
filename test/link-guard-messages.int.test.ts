import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import type { GuardOutcome } from '../src/operations/link-guard/link-guard.js';
import type { MessageJudge, MessageJudgement, MessageLevel } from '../src/operations/url-scan/message-judge.js';
import { startFakeSlack, type FakeSlack } from './fakes/slack-server.js';
import { postToSlackDoor } from './helpers/slack-commands.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { sharedDataPath, sharedDataPresent } from './helpers/shared-data.js';

/**
 * Issue 50 item 5 on Slack: `/guard messages on|off` and the link guard judging each message's
 * text. Most tests use a fake message judge answering the level the test decided (the judge's
 * accuracy is its own evaluation); one path runs the service's real judge.
 */
const SECRET = 'test-signing-secret';
const BOT_TOKEN = 'xoxb-test-bot-token';
const TEAM = 'T0MSG';
const CHANNEL = 'C0MSG';
const DM = 'chat-payloads/slack/vercel-chat_dm-slack-direct.json';
const present = sharedDataPresent(DM);
/** A recorded plain channel message (rich_text blocks, client_msg_id), its text replaced by the test's. */
const recordedMessage = () => JSON.parse(readFileSync(sharedDataPath(DM), 'utf8')).directDM.event;

/** Written for these tests: a family-impersonation text with a number to write to and gift cards. */
const SCAM = '엄마 나 폰 액정 깨져서 수리 맡겼어 급해서 그러는데 이 번호로 문자줘 010-9876-5432 문화상품권 좀 사줄 수 있어?';
const ORDINARY = '내일 주간 회의는 3시에 2층 회의실에서 시작합니다. 자료는 미리 읽어 와 주세요.';

/** Answers the level set for a text (unlikely otherwise), and remembers what it was asked. */
function fakeJudge(levels: Map<string, MessageLevel>): MessageJudge {
  return {
    judge(text): MessageJudgement {
      const level = levels.get(text) ?? 'unlikely';
      const scam = level === 'firm' || level === 'likely';
      return {
        is_smishing: scam,
        scam_type: scam ? 'family_impersonation' : null,
        scam_label: scam ? '가족·지인 사칭' : null,
        advice: scam ? '답장하지 말고 가족에게 이미 알고 있는 번호로 직접 전화해 확인하세요.' : '',
        score: scam ? 0.97 : 0.05,
        level,
        reasons: [],
      };
    },
  };
}

interface Harness {
  app: TestApp;
  slack: FakeSlack;
  outcomes: GuardOutcome[];
  logs: string[];
  owner: TestUser;
  counter: number;
}

async function startHarness(judge?: MessageJudge): Promise<Harness> {
  const slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM });
  slack.setUser('UADMIN', { is_admin: true });
  slack.setChannel(CHANNEL, { creator: 'UCREATOR' });
  const outcomes: GuardOutcome[] = [];
  const logs: string[] = [];
  const app = await startTestApp(
    { SLACK_SIGNING_SECRET: SECRET, SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_API_URL: slack.apiUrl },
    {
      logger: createLogger('debug', { write: (line: string) => void logs.push(line) }),
      linkGuard: { observe: (event) => void outcomes.push(event), ...(judge ? { messageJudge: judge } : {}) },
    },
  );
  const owner = await app.signUp();
  await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
  const h: Harness = { app, slack, outcomes, logs, owner, counter: 0 };
  expect(await slash(h, owner.apiKey, { command: '/link', user: 'UADMIN' })).toContain('연결되었습니다');
  expect(await slash(h, 'on', { user: 'UADMIN' })).toContain('링크 가드를 켰습니다');
  return h;
}

async function postSigned(h: Harness, body: string, contentType: string) {
  const res = await postToSlackDoor(h.app.url, SECRET, body, contentType);
  expect(res.status).toBe(200);
}

async function slash(h: Harness, text: string, options: { user?: string; command?: string; team?: string; channel?: string } = {}) {
  const responseUrl = h.slack.responseUrl();
  const form = new URLSearchParams({
    token: 'legacy',
    team_id: options.team ?? TEAM,
    team_domain: 'msg-test',
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

/** A channel message with the given text, as Slack delivers `message.channels`; resolves with the guard's outcome. */
async function post(h: Harness, text: string, team = TEAM, channel = CHANNEL) {
  const ts = `17730${++h.counter}.000100`;
  const event = { ...recordedMessage(), text, ts, channel, channel_type: 'channel', team, blocks: undefined };
  await postSigned(
    h,
    JSON.stringify({ token: 'legacy', team_id: team, api_app_id: 'A1', type: 'event_callback', event_id: `EvMsg${h.counter}`, event }),
    'application/json',
  );
  return { ts, outcome: await h.slack.waitFor(() => h.outcomes.find((event) => event.messageId === ts)?.outcome) };
}

const posts = (h: Harness, channel = CHANNEL) => h.slack.api('chat.postMessage').filter((call) => call.body.channel === channel);
const remaining = (h: Harness) => h.app.remaining(h.owner.apiKey, 'harmful-url-detection');

describe.skipIf(!present)('/guard messages with a message judge', () => {
  const levels = new Map<string, MessageLevel>([
    [SCAM, 'firm'],
    ['엄마 나야 폰 고장나서 그런데 이 번호로 연락줘', 'likely'],
  ]);
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness(fakeJudge(levels));
  });
  afterAll(async () => {
    await h?.app.close();
    await h?.slack.close();
  });

  it('leaves messages without a link alone until a channel manager turns it on; status shows it', async () => {
    expect((await post(h, SCAM)).outcome).toBe('no_links');
    expect(await slash(h, 'messages on', { user: 'UMEMBER' })).toContain('채널 관리자만');
    expect(await slash(h, 'messages maybe', { user: 'UADMIN' })).toContain("'on'(켜기)이나 'off'(끄기)");
    expect(await slash(h, 'status')).toMatch(/메시지 판단.*off/);
    expect(await slash(h, 'messages on', { user: 'UCREATOR' })).toContain('메시지 판단을 켰습니다');
    expect(await slash(h, 'status')).toMatch(/메시지 판단.*on/);
    expect(posts(h)).toHaveLength(0);
  });

  it("warns on a firm scam in the message's thread, once, for one call, repeating nothing of it", async () => {
    const before = (await remaining(h))!;
    const { ts, outcome } = await post(h, SCAM);
    expect(outcome).toBe('warned');
    const [warning] = posts(h);
    expect(warning?.body.thread_ts).toBe(ts);
    const shown = JSON.stringify(warning?.body);
    expect(shown).toContain('사기(스미싱)로 보이는 메시지');
    expect(shown).toContain('가족·지인 사칭');
    expect(shown).toContain('이미 알고 있는 번호로 직접 전화해');
    expect(shown).not.toMatch(/010-9876-5432|액정|문화상품권|<[!@#]/);
    expect(await remaining(h)).toBe(before - 1);
    // The text is handed to the judge, never written to the log.
    expect(h.logs.join('\n')).not.toMatch(/액정|010-9876-5432/);
  });

  it('stays silent below the firm level and on ordinary messages, free of charge', async () => {
    const before = await remaining(h);
    expect((await post(h, '엄마 나야 폰 고장나서 그런데 이 번호로 연락줘')).outcome).toBe('clean');
    expect((await post(h, ORDINARY)).outcome).toBe('clean');
    expect(posts(h)).toHaveLength(1);
    expect(await remaining(h)).toBe(before);
  });

  it('still checks links as before, and a harmful link with a scam text is one warning', async () => {
    const before = (await remaining(h))!;
    levels.set(`${SCAM} http://kbstar-login.xyz/verify`, 'firm');
    const { outcome } = await post(h, `${SCAM} <http://kbstar-login.xyz/verify>`);
    expect(outcome).toBe('warned');
    expect(posts(h)).toHaveLength(2);
    const shown = JSON.stringify(posts(h)[1]?.body);
    expect(shown).toContain('kbstar-login[.]xyz');
    expect(shown).toContain('가족·지인 사칭');
    // One call for the link, one for the scam warning.
    expect(await remaining(h)).toBe(before - 2);
  });

  it('stops judging with messages off; links are still checked', async () => {
    expect(await slash(h, 'messages off', { user: 'UADMIN' })).toContain('메시지 판단을 껐습니다');
    expect((await post(h, SCAM)).outcome).toBe('no_links');
    expect((await post(h, '확인 <http://kbstar-login.xyz/after>')).outcome).toBe('warned');
  });

  it('stays silent when the quota is used up, after its one notice', async () => {
    // A workspace of its own, linked to an account whose calls are used up before its first one.
    const spender = await h.app.signUp();
    await h.app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, spender.apiKey);
    await h.app.runtime.db.execute(
      sql`update subscriptions set remaining = 0 where account_id = ${spender.accountId} and api = 'harmful-url-detection'`,
    );
    const where = { user: 'UADMIN', team: 'T0SPENT', channel: 'C0SPENT' };
    expect(await slash(h, spender.apiKey, { ...where, command: '/link' })).toContain('연결되었습니다');
    expect(await slash(h, 'on', where)).toContain('링크 가드를 켰습니다');
    expect(await slash(h, 'messages on', where)).toContain('메시지 판단을 켰습니다');
    expect((await post(h, SCAM, 'T0SPENT', 'C0SPENT')).outcome).toBe('quota_stopped');
    expect((await post(h, SCAM, 'T0SPENT', 'C0SPENT')).outcome).toBe('quota_stopped');
    const shown = posts(h, 'C0SPENT');
    expect(shown).toHaveLength(1);
    expect(JSON.stringify(shown[0]?.body)).toContain('링크 가드가 멈췄습니다');
  });
});

describe.skipIf(!present)('/guard messages with the service’s own message judge', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    expect(await slash(h, 'messages on', { user: 'UADMIN' })).toContain('메시지 판단을 켰습니다');
  });
  afterAll(async () => {
    await h?.app.close();
    await h?.slack.close();
  });

  it('judges an ordinary message and leaves it alone, free of charge', async () => {
    const before = await remaining(h);
    expect((await post(h, ORDINARY)).outcome).toBe('clean');
    expect(posts(h)).toHaveLength(0);
    expect(await remaining(h)).toBe(before);
  });

  it('warns on a family-impersonation text without a link, in its thread, for one call', async () => {
    const before = (await remaining(h))!;
    const { ts, outcome } = await post(h, SCAM);
    expect(outcome).toBe('warned');
    const warning = posts(h).at(-1);
    expect(warning?.body.thread_ts).toBe(ts);
    expect(JSON.stringify(warning?.body)).not.toMatch(/010-9876-5432|액정|문화상품권/);
    expect(await remaining(h)).toBe(before - 1);
  });
});
