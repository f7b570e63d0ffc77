import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordKeyPair, startFakeDiscord, type FakeDiscord } from './fakes/discord-server.js';
import { startFakeSlack, type FakeSlack } from './fakes/slack-server.js';
import { postToSlackDoor } from './helpers/slack-commands.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { sharedDataPath, sharedDataPresent } from './helpers/shared-data.js';

/**
 * Issue 39 in the chat doors: a thread saved with "지식으로 저장" (Slack from the recorded
 * payloads' shapes, Discord from the documented message command), answers in the question's
 * channel scope and thread with the passage quoted and 👍/👎, and a 👎 kept with the question only.
 */

const SECRET = 'test-signing-secret';
const BOT_TOKEN = 'xoxb-test-bot-token';
/** The recorded payloads' team: the test links it to its account (the one value adapted). */
const TEAM = 'T00FAKE00AA';
const APP_ID = '111111111111111111';
const GUILD = '222222222222222222';
const keys = discordKeyPair();
const PAYLOADS = 'chat-payloads/slack/vercel-chat_dm-slack.json';
const hasPayloads = sharedDataPresent(PAYLOADS);

let slack: FakeSlack;
let discord: FakeDiscord;
let app: TestApp;
let owner: TestUser;
let counter = 0;

beforeAll(async () => {
  slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM });
  discord = await startFakeDiscord();
  app = await startTestApp({
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_API_URL: slack.apiUrl,
    DISCORD_APPLICATION_ID: APP_ID,
    DISCORD_PUBLIC_KEY: keys.publicKeyHex,
    DISCORD_BOT_TOKEN: 'test-bot-token',
    DISCORD_API_URL: discord.apiUrl,
  });
  owner = await app.signUp();
  slack.setUser('UADMIN', { is_admin: true });
  expect(JSON.stringify(await (await slash('/link', owner.apiKey, 'UADMIN')).response())).toContain('연결되었습니다');
  const linked = await interact(command('link', [{ name: 'key', type: 3, value: owner.apiKey }], { permissions: String(1 << 5) }));
  expect(JSON.stringify(linked.body)).toContain('연결되었습니다');
});
afterAll(async () => {
  await app?.close();
  await slack?.close();
  await discord?.close();
});

async function postSlack(body: string, contentType: string) {
  const res = await postToSlackDoor(app.url, SECRET, body, contentType);
  return res.status;
}

async function slash(command: string, text: string, user = `U${++counter}`, channel = 'C00FAKECHAN1') {
  const responseUrl = slack.responseUrl();
  const form = new URLSearchParams({
    team_id: TEAM,
    channel_id: channel,
    user_id: user,
    command,
    text,
    api_app_id: 'A1',
    response_url: responseUrl,
    trigger_id: `trigger-${++counter}`,
  }).toString();
  expect(await postSlack(form, 'application/x-www-form-urlencoded')).toBe(200);
  return { response: () => slack.waitFor(() => slack.responses(responseUrl).at(-1)?.body) };
}

/** A Slack interaction (`payload=` form field), answered through its response URL. */
async function slackInteraction(payload: Record<string, unknown>) {
  const responseUrl = slack.responseUrl();
  const status = await postSlack(
    new URLSearchParams({ payload: JSON.stringify({ ...payload, response_url: responseUrl }) }).toString(),
    'application/x-www-form-urlencoded',
  );
  expect(status).toBe(200);
  return () => slack.waitFor(() => slack.responses(responseUrl)[0]?.body);
}

const textOf = (message: any): string => JSON.stringify(message?.blocks ?? []) + (message?.text ?? '');

function discordBase(extras: { channel?: Record<string, unknown>; permissions?: string } = {}) {
  const id = String(900_000 + ++counter);
  return {
    id,
    application_id: APP_ID,
    token: `interaction-token-${id}`,
    version: 1,
    channel_id: (extras.channel?.id as string) ?? '333',
    ...(extras.channel ? { channel: extras.channel } : {}),
    locale: 'ko',
    guild_id: GUILD,
    member: { user: { id: `u${counter}` }, permissions: extras.permissions ?? '0' },
  };
}

function command(name: string, options: unknown[] = [], extras: { permissions?: string; channel?: Record<string, unknown> } = {}) {
  return { ...discordBase(extras), type: 2, data: { id: 'cmd', name, type: 1, options } };
}

async function interact(payload: unknown) {
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const res = await fetch(`${app.url}/discord/interactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature-timestamp': timestamp, 'x-signature-ed25519': keys.sign(timestamp, body) },
    body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

function edited(payload: { application_id: string; token: string }) {
  return discord.waitFor(
    () => discord.find('PATCH', `/webhooks/${payload.application_id}/${payload.token}/messages/@original`)[0]?.body,
    30_000,
  );
}

const knowledge = async () =>
  (await app.post('/api/v1/chatbot/rag', { action: 'list', limit: 100 }, owner.apiKey)).body.knowledge_list as any[];

describe.skipIf(!hasPayloads)('Slack: "지식으로 저장" on a recorded thread, answers in the thread', () => {
  it('saves the thread with roles instead of names and a link back, scoped to its channel', async () => {
    const recorded = JSON.parse(readFileSync(sharedDataPath(PAYLOADS), 'utf8'));
    const root = recorded.mention.event; // app_mention opening the thread: "<@U00FAKEBOT01> Hey"
    const reply = recorded.dmRequest.event; // the recorded reply in that thread ("DM me", thread_ts, parent_user_id)
    const channel = root.channel as string;
    // The thread as conversations.replies returns it: the recorded root and reply, then two more in the same shape.
    slack.setThread(channel, root.ts, [
      { type: 'message', user: root.user, text: root.text, ts: root.ts, thread_ts: root.ts, reply_count: 3 },
      {
        type: 'message',
        user: reply.user,
        text: reply.text,
        ts: reply.ts,
        thread_ts: reply.thread_ts,
        parent_user_id: reply.parent_user_id,
      },
      {
        type: 'message',
        user: 'U00FAKEUSER2',
        text: '야간 출입은 &lt;보안실&gt;에 전날 오후 5시까지 신청하면 됩니다. <@U00FAKEUSER1> 참고하세요.',
        ts: '1767376999.000100',
        thread_ts: root.ts,
        parent_user_id: root.user,
      },
      {
        type: 'message',
        subtype: 'channel_join',
        user: 'U00FAKEUSER3',
        text: '<@U00FAKEUSER3> has joined the channel',
        ts: '1767377000.1',
      },
    ]);
    const answer = await slackInteraction({
      type: 'message_action',
      callback_id: 'save_knowledge',
      trigger_id: `trigger-${++counter}`,
      team: { id: TEAM, domain: 'vercelslacktesting' },
      user: { id: reply.user, name: 'testuser', team_id: TEAM },
      channel: { id: channel, name: 'chat-sdk' },
      message: { type: 'message', user: reply.user, text: reply.text, ts: reply.ts, thread_ts: reply.thread_ts },
      message_ts: reply.ts,
      token: recorded.dmRequest.token,
      action_ts: '1767377002.1',
    });
    expect(textOf(await answer())).toContain('지식으로 저장했습니다');
    const saved = (await knowledge()).find((entry) => entry.scope === `slack:${channel}`);
    expect(saved.content).toBe(
      [
        '질문자: @(사용자) Hey',
        '질문자: DM me',
        '답변자 1: 야간 출입은 <보안실>에 전날 오후 5시까지 신청하면 됩니다. @질문자 참고하세요.',
      ].join('\n\n'),
    );
    expect(saved.content).not.toMatch(/U00FAKE|testuser|joined/);
    expect(saved.url).toBe(`https://hub-test.slack.com/archives/${channel}/p${root.ts.replace('.', '')}`);
    expect(saved.source).toBe('스레드: @(사용자) Hey');

    // Asked in that channel by mentioning the bot (the recorded app_mention), answered in its thread.
    const mention = {
      ...recorded.mention,
      event_id: `Ev${++counter}`,
      event: { ...root, text: '<@U00FAKEBOT01> 야간 출입은 언제까지 신청하나요?', ts: '1767377100.000001' },
    };
    expect(await postSlack(JSON.stringify(mention), 'application/json')).toBe(200);
    const posted = await slack.waitFor(
      () => slack.api('chat.postMessage').find((call) => call.body.thread_ts === '1767377100.000001')?.body,
    );
    expect(posted.channel).toBe(channel);
    const blocks = JSON.stringify(posted.blocks);
    expect(blocks).toContain('오후 5시');
    // The passage, quoted as a block quote, its text escaped (no markup or mention from a thread can pass).
    expect(blocks).toContain('> 답변자 1: 야간 출입은 &lt;보안실&gt;에 전날 오후 5시까지');
    expect(blocks).toContain(`<${saved.url}|스레드: @(사용자) Hey>`);
    expect(blocks).toContain('kb_feedback_down');

    // In another channel the thread does not answer.
    const elsewhere = await (await slash('/ask', '야간 출입은 언제까지 신청하나요?', 'UOTHER', 'C00OTHER')).response();
    expect(textOf(elsewhere)).not.toContain('오후 5시');
    expect(textOf(elsewhere)).toContain('찾지 못했습니다');
  });

  it('keeps no author at all when the workspace says so (managers only)', async () => {
    const refused = await (await slash('/kb', 'authors none', 'UMEMBER')).response();
    expect(textOf(refused)).toContain('관리자만');
    expect(textOf(await (await slash('/kb', 'authors none', 'UADMIN')).response())).toContain('작성자를 표시하지 않습니다');
    slack.setThread('C00NAMES', '1.1', [
      { type: 'message', user: 'UA', text: '주차 등록은 어디서 하나요?', ts: '1.1' },
      { type: 'message', user: 'UB', text: '<@UA> 총무팀 포털에서 합니다.', ts: '1.2', thread_ts: '1.1' },
    ]);
    const answer = await slackInteraction({
      type: 'message_action',
      callback_id: 'save_knowledge',
      trigger_id: `trigger-${++counter}`,
      team: { id: TEAM },
      user: { id: 'UA' },
      channel: { id: 'C00NAMES' },
      message: { type: 'message', user: 'UA', text: '주차 등록은 어디서 하나요?', ts: '1.1' },
      message_ts: '1.1',
    });
    expect(textOf(await answer())).toContain('저장했습니다');
    const saved = (await knowledge()).find((entry) => entry.scope === 'slack:C00NAMES');
    expect(saved.content).toBe('주차 등록은 어디서 하나요?\n\n@(사용자) 총무팀 포털에서 합니다.');
    // A thread Slack will not give (the bot is not in the channel): a clear note, nothing stored.
    const unknown = await slackInteraction({
      type: 'message_action',
      callback_id: 'save_knowledge',
      trigger_id: `trigger-${++counter}`,
      team: { id: TEAM },
      user: { id: 'UA' },
      channel: { id: 'C00PRIVATE' },
      message: { type: 'message', user: 'UA', text: '비공개', ts: '9.9' },
      message_ts: '9.9',
    });
    expect(textOf(await unknown())).toContain('스레드를 읽지 못했습니다');
    await slash('/kb', 'authors roles', 'UADMIN');
  });

  it('/kb add <URL> fetches through the SSRF guard, and /kb list shows only what may answer in the channel', async () => {
    const inside = await (await slash('/kb', 'add <http://169.254.169.254/latest/meta-data/>')).response();
    expect(textOf(inside)).toContain('내부망');
    const common = await (await slash('/kb', 'add 사내 와이파이 비밀번호는 총무팀에 문의하세요.')).response();
    expect(textOf(common)).toContain('지식을 저장했습니다');
    const here = textOf(await (await slash('/kb', 'list', 'ULIST', 'C00FAKECHAN1')).response());
    const elsewhere = textOf(await (await slash('/kb', 'list', 'ULIST', 'C00ELSEWHERE')).response());
    expect(here).toContain('스레드: @(사용자) Hey');
    expect(here).toContain('와이파이');
    expect(elsewhere).not.toContain('스레드:');
    expect(elsewhere).toContain('와이파이');
  });

  it('stores a 👎 with the question alone and shows it to the account; 👍 stores nothing', async () => {
    const recorded = JSON.parse(readFileSync(sharedDataPath('chat-payloads/slack/vercel-chat_actions-reactions-slack.json'), 'utf8'));
    const click = (actionId: string, value: string) => ({
      ...recorded.action,
      team: { id: TEAM, domain: 'vercelslacktesting' },
      user: { ...recorded.action.user, team_id: TEAM },
      actions: [{ ...recorded.action.actions[0], action_id: actionId, value }],
    });
    const before = (await app.get('/api/v1/chatbot/feedback', { authorization: `Bearer ${owner.token}` })).body.feedback.length;
    expect(textOf(await (await slackInteraction(click('kb_feedback_up', '좋은 질문')))())).toContain('고맙습니다');
    expect(textOf(await (await slackInteraction(click('kb_feedback_down', '연차는 언제 쓰나요?')))())).toContain('포털');
    const list = await app.get('/api/v1/chatbot/feedback', { authorization: `Bearer ${owner.token}` });
    expect(list.body.feedback).toHaveLength(before + 1);
    expect(list.body.feedback[0]).toEqual({
      id: expect.any(Number),
      question: '연차는 언제 쓰나요?',
      scope: 'slack:C00FAKECHAN1',
      created_at: expect.any(String),
    });
    const other = await app.signUp();
    expect((await app.get('/api/v1/chatbot/feedback', { 'x-api-key': other.apiKey })).body.feedback).toEqual([]);
    const removed = await fetch(`${app.url}/api/v1/chatbot/feedback/${list.body.feedback[0].id}`, {
      method: 'DELETE',
      headers: { 'x-api-key': other.apiKey },
    });
    expect(removed.status).toBe(404);
  });
});

describe('Discord: context menu saves a thread; /ask quotes and offers 👍/👎', () => {
  it('saves the thread started from a message, in its channel scope, and answers there only', async () => {
    discord.setMessages('444', [
      {
        id: '5003',
        channel_id: '444',
        author: { id: '9002' },
        content: '<@9001> 점심 식대는 한 끼 1만원까지 법인카드로 결제해요. <@&77> 참고',
      },
      { id: '5002', channel_id: '444', author: { id: '8000', bot: true }, content: '' },
    ]);
    const payload = {
      ...discordBase({ channel: { id: '333', type: 0 } }),
      type: 2,
      data: {
        id: 'cmd',
        name: '지식으로 저장',
        type: 3,
        target_id: '5001',
        resolved: {
          messages: {
            '5001': {
              id: '5001',
              channel_id: '333',
              author: { id: '9001' },
              content: '점심 식대 한도가 얼마인가요?',
              thread: { id: '444' },
            },
          },
        },
      },
    };
    expect((await interact(payload)).body.type).toBe(5);
    expect(JSON.stringify(await edited(payload))).toContain('지식으로 저장했습니다');
    const saved = (await knowledge()).find((entry) => entry.scope === 'discord:333');
    expect(saved.content).toBe(
      '질문자: 점심 식대 한도가 얼마인가요?\n\n답변자 1: @질문자 점심 식대는 한 끼 1만원까지 법인카드로 결제해요. @(역할) 참고',
    );
    expect(saved.url).toBe(`https://discord.com/channels/${GUILD}/333/5001`);

    // Asked inside a thread of that channel: the thread's parent channel is the scope.
    const ask = command('ask', [{ name: 'question', type: 3, value: '점심 식대는 한 끼 얼마까지인가요?' }], {
      channel: { id: '555', type: 11, parent_id: '333' },
    });
    expect((await interact(ask)).body.type).toBe(5);
    const answer = await edited(ask);
    expect(answer.embeds[0].description).toContain('1만원');
    expect(answer.embeds[0].fields[0].name).toBe(`📄 ${saved.source}`);
    expect(answer.embeds[0].fields[0].value).toContain(`<${saved.url}>`);
    expect(answer.components[0].components.map((button: any) => button.custom_id)).toEqual(['kb_feedback:up', 'kb_feedback:down']);
    expect(answer.allowed_mentions).toEqual({ parse: [] });

    const other = command('ask', [{ name: 'question', type: 3, value: '점심 식대는 한 끼 얼마까지인가요?' }], {
      channel: { id: '666', type: 0 },
    });
    await interact(other);
    expect(JSON.stringify(await edited(other))).not.toContain('1만원');

    // 👎 on that answer: the question (the embed's title) is kept, with the channel.
    const click = {
      ...discordBase({ channel: { id: '555', type: 11, parent_id: '333' } }),
      type: 3,
      message: { id: '7001', embeds: [{ title: answer.embeds[0].title }] },
      data: { custom_id: 'kb_feedback:down', component_type: 2 },
    };
    expect((await interact(click)).body).toEqual({ type: 5, data: { flags: 64 } });
    expect(JSON.stringify(await edited(click))).toContain('고맙습니다');
    const feedback = await app.get('/api/v1/chatbot/feedback', { 'x-api-key': owner.apiKey });
    expect(feedback.body.feedback[0]).toMatchObject({ question: '점심 식대는 한 끼 얼마까지인가요?', scope: 'discord:333' });
  });
});
