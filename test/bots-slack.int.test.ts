import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { lastUserText, startFakeOpenAI, systemText, type FakeOpenAI } from './fakes/openai-server.js';
import { startFakeNts, type FakeNts } from './fakes/nts-server.js';
import { startFakeSlack, type FakeSlack } from './fakes/slack-server.js';
import { postToSlackDoor } from './helpers/slack-commands.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { makeDocument } from './helpers/id-documents.js';
import { assertKoreanFonts, renderImage } from './helpers/id-images.js';
import { sharedDataPath, sharedDataPresent } from './helpers/shared-data.js';

const SECRET = 'test-signing-secret';
const BOT_TOKEN = 'xoxb-test-bot-token';
const TEAM = 'T0LINKED';

let llm: FakeOpenAI;
let slack: FakeSlack;
let nts: FakeNts;
let app: TestApp;
let owner: TestUser;
let counter = 0;

beforeAll(async () => {
  llm = await startFakeOpenAI();
  slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM });
  nts = await startFakeNts();
  nts.business({ b_no: '1248100998', state: '03', start_dt: '19690113', p_nm: '홍길동', end_dt: '20231130' });
  app = await startTestApp(
    {
      DATA_GO_KR_SERVICE_KEY: nts.serviceKey,
      DATA_GO_KR_API_URL: nts.url,
      OPENAI_BASE_URL: llm.url,
      LLM_TIMEOUT_MS: '2000',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_API_URL: slack.apiUrl,
    },
    { llm: { retryBaseDelayMs: 1 }, ocr: { size: 1 } },
  );
  owner = await app.signUp();
  slack.setUser('UADMIN', { is_admin: true });
  slack.setUser('UEN', { locale: 'en-US' });
  const linked = await slashCommand('/link', owner.apiKey, { user: 'UADMIN' });
  expect(textOf(await linked.response())).toContain('연결되었습니다');
});
afterAll(async () => {
  await app?.close();
  await nts?.close();
  await slack?.close();
  await llm?.close();
});
beforeEach(() => llm.reset());

async function postSigned(
  body: string,
  contentType: string,
  headers: Record<string, string> = {},
  timestamp = Math.floor(Date.now() / 1000),
  secret = SECRET,
) {
  const res = await postToSlackDoor(app.url, secret, body, contentType, { headers, timestamp });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as any) : undefined };
}

interface SlashOptions {
  user?: string;
  team?: string;
  timestamp?: number;
  secret?: string;
}

async function slashCommand(command: string, text: string, options: SlashOptions = {}) {
  const responseUrl = slack.responseUrl();
  const form = new URLSearchParams({
    token: 'legacy',
    team_id: options.team ?? TEAM,
    team_domain: 'hub-test',
    channel_id: 'C1',
    channel_name: 'general',
    user_id: options.user ?? `U${++counter}`,
    user_name: 'tester',
    command,
    text,
    api_app_id: 'A1',
    response_url: responseUrl,
    trigger_id: `trigger-${++counter}`,
  }).toString();
  const ack = await postSigned(form, 'application/x-www-form-urlencoded', {}, options.timestamp, options.secret);
  return {
    ack,
    responseUrl,
    response: () => slack.waitFor(() => slack.responses(responseUrl)[0]?.body),
  };
}

async function messageShortcut(callbackId: string, message: Record<string, unknown>, user = `U${++counter}`) {
  const responseUrl = slack.responseUrl();
  const payload = {
    type: 'message_action',
    callback_id: callbackId,
    trigger_id: `trigger-${++counter}`,
    team: { id: TEAM, domain: 'hub-test' },
    user: { id: user, name: 'tester' },
    channel: { id: 'C1', name: 'general' },
    message: { type: 'message', ts: '1.2', ...message },
    message_ts: '1.2',
    response_url: responseUrl,
    token: 'legacy',
    action_ts: '1.3',
  };
  const ack = await postSigned(new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), 'application/x-www-form-urlencoded');
  return { ack, response: () => slack.waitFor(() => slack.responses(responseUrl)[0]?.body) };
}

function dmEvent(eventId: string, files: unknown[], user = 'UDM') {
  return JSON.stringify({
    token: 'legacy',
    team_id: TEAM,
    api_app_id: 'A1',
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    event: {
      type: 'message',
      subtype: 'file_share',
      channel_type: 'im',
      channel: 'D1',
      user,
      text: '',
      ts: `${Date.now() / 1000}`,
      team: TEAM,
      files,
    },
  });
}

/** Everything a Block Kit message shows, as one string. */
function textOf(message: any): string {
  return JSON.stringify(message?.blocks ?? []) + (message?.text ?? '');
}

describe('Slack signatures', () => {
  it('refuses a bad signature and a stale timestamp with 401', async () => {
    const bad = await slashCommand('/shorten', 'https://example.com', { secret: 'wrong-secret' });
    expect(bad.ack.status).toBe(401);
    const stale = await slashCommand('/shorten', 'https://example.com', { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 });
    expect(stale.ack.status).toBe(401);
    expect(slack.responses(bad.responseUrl)).toEqual([]);
  });

  it('runs a signed request once when it is delivered twice, and refuses a timestamp from the future (#18 item 12)', async () => {
    const responseUrl = slack.responseUrl();
    const form = new URLSearchParams({
      team_id: TEAM,
      channel_id: 'C1',
      user_id: `U${++counter}`,
      command: '/shorten',
      text: 'https://example.com/replayed',
      api_app_id: 'A1',
      response_url: responseUrl,
      trigger_id: `trigger-${++counter}`,
    }).toString();
    const timestamp = Math.floor(Date.now() / 1000);
    expect((await postSigned(form, 'application/x-www-form-urlencoded', {}, timestamp)).status).toBe(200);
    expect((await postSigned(form, 'application/x-www-form-urlencoded', {}, timestamp)).status).toBe(401);
    await slack.waitFor(() => slack.responses(responseUrl)[0]);
    expect(slack.responses(responseUrl)).toHaveLength(1);

    const future = await slashCommand('/shorten', 'https://example.com', { timestamp: Math.floor(Date.now() / 1000) + 60 * 60 });
    expect(future.ack.status).toBe(401);
  });
});

describe('/link', () => {
  it('tells an unlinked workspace how to link, in English for an English user', async () => {
    const ko = await slashCommand('/tone', 'formal 안녕', { team: 'TNEW' });
    const unlinked = textOf(await ko.response());
    expect(unlinked).toContain('/link &lt;API 키&gt;'); // Slack shows the escaped `<` as typed
    // Slack's roles, never Discord's permission or option fields.
    expect(unlinked).toContain('워크스페이스 관리자');
    expect(unlinked).not.toMatch(/서버 관리|key 칸/);
    const en = await slashCommand('/tone', 'formal hello', { team: 'TNEW', user: 'UEN' });
    expect(textOf(await en.response())).toContain('not linked to an AI Utility Hub account');
    expect(llm.requests).toHaveLength(0);
  });

  it('lets only an admin link, verifies the key and never echoes it', async () => {
    const other = await app.signUp();
    const member = await slashCommand('/link', other.apiKey, { team: 'TOTHER', user: 'UMEMBER' });
    expect(member.ack.status).toBe(200);
    expect(textOf(await member.response())).toContain('관리자');
    const badKey = await slashCommand('/link', 'aik_notarealkey000000000000000000', { team: 'TOTHER', user: 'UADMIN' });
    expect(textOf(await badKey.response())).toContain('API 키가 올바르지 않거나');
    const linked = await slashCommand('/link', other.apiKey, { team: 'TOTHER', user: 'UADMIN' });
    const answer = await linked.response();
    expect(answer.response_type).toBe('ephemeral');
    expect(textOf(answer)).toContain('연결되었습니다');
    expect(JSON.stringify(slack.calls.map((call) => call.body))).not.toContain(other.apiKey);
    const row = await app.runtime.platform.workspaceLinks.accountFor({ platform: 'slack', workspaceId: 'TOTHER' });
    expect(row?.id).toBe(other.accountId);
  });
  it('stops using an account whose linked key was revoked', async () => {
    const other = await app.signUp();
    await (await slashCommand('/link', other.apiKey, { team: 'TREVOKE', user: 'UADMIN' })).response();
    const before = await (await slashCommand('/shorten', 'https://example.com/revoke', { team: 'TREVOKE' })).response();
    expect(textOf(before)).toMatch(/\/s\/[0-9A-Za-z]{5}/);
    const keys = await app.get('/api/v1/keys', { authorization: `Bearer ${other.token}` });
    const revoked = await fetch(`${app.url}/api/v1/keys/${keys.body.keys[0].id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(revoked.status).toBe(200);
    const after = await (await slashCommand('/shorten', 'https://example.com/revoke', { team: 'TREVOKE' })).response();
    expect(textOf(after)).toContain('/link &lt;API 키&gt;'); // Slack shows the escaped `<` as typed
  });
});

describe('slash commands', () => {
  it('/tone acknowledges with 처리 중… and responds with a Block Kit result, ephemeral', async () => {
    llm.chat({ content: '안녕하십니까. 반갑습니다.' });
    const sent = await slashCommand('/tone', 'formal 안녕 반가워');
    expect(sent.ack.status).toBe(200);
    expect(sent.ack.body).toMatchObject({ response_type: 'ephemeral', text: '처리 중…' });
    const answer = await sent.response();
    expect(answer.response_type).toBe('ephemeral');
    expect(answer.blocks[0]).toMatchObject({ type: 'header' });
    // The header names the tone, not its code.
    expect(answer.blocks[0].text.text).toBe('말투 변환 · 하십시오체');
    expect(textOf(answer)).toContain('안녕하십니까. 반갑습니다.');
    expect(answer.blocks.at(-1)).toMatchObject({ type: 'context' });
    expect(lastUserText(llm.requestsTo('chat')[0]!.body)).toContain('안녕 반가워');
  });

  it('/tone takes the Korean name of a tone (해요체) as the HTTP API does', async () => {
    llm.chat({ content: '안녕하세요. 반가워요.' });
    const answer = await (await slashCommand('/tone', '해요체 안녕 반가워')).response();
    expect(answer.blocks[0].text.text).toBe('말투 변환 · 해요체');
    expect(systemText(llm.requestsTo('chat')[0]!.body)).toContain('해요체');
  });

  it("/tone's usage on Slack is Slack's positional syntax, in Korean names", async () => {
    const answer = await (await slashCommand('/tone', '')).response();
    expect(textOf(answer)).toContain('/tone &lt;하십시오체|해요체|반말');
    expect(textOf(answer)).not.toContain('style:');
  });

  it('/translate posts to the channel with 공개 and names the languages', async () => {
    llm.chat({ content: 'Hello, nice to meet you.' });
    const sent = await slashCommand('/translate', 'en 안녕하세요 반갑습니다 공개');
    const answer = await sent.response();
    expect(answer.response_type).toBe('in_channel');
    expect(textOf(answer)).toContain('Hello, nice to meet you.');
    expect(textOf(answer)).toContain('한국어 → 영어');
    expect(systemText(llm.requestsTo('chat')[0]!.body)).toContain('English');
    expect(lastUserText(llm.requestsTo('chat')[0]!.body)).toBe('안녕하세요 반갑습니다');
  });

  it('/shorten answers the short link; public with `public`', async () => {
    const sent = await slashCommand('/shorten', '<https://example.com/some/long/path|example.com/some> public');
    const answer = await sent.response();
    expect(answer.response_type).toBe('in_channel');
    expect(textOf(answer)).toMatch(new RegExp(`${app.url}/s/[0-9A-Za-z]{5}`));
    expect(textOf(answer)).toContain('https://example.com/some/long/path');
  });

  it('/shorten with several URLs (or a pasted list) makes them through the bulk shortener, and remembers the channel', async () => {
    const answer = await (
      await slashCommand(
        '/shorten',
        'https://example.com/bulk/one\n<https://example.com/bulk/two|two> not-a-url https://example.com/bulk/one',
      )
    ).response();
    const text = textOf(answer);
    const codes = [...text.matchAll(/\/s\/([0-9A-Za-z]{5})/g)].map((match) => match[1]!);
    expect(new Set(codes).size).toBe(2);
    expect(text).toContain('짧은 링크 2개');
    const { rawRows } = await import('../db/rows.js');
    const rows = await rawRows<{ origin_platform: string; origin_channel: string; origin_workspace: string }>(
      app.runtime.db,
      'select origin_platform, origin_channel, origin_workspace from short_links where code = $1',
      [codes[0]!],
    );
    expect(rows[0]).toEqual({ origin_platform: 'slack', origin_channel: 'C1', origin_workspace: TEAM });
  });

  it('/bizcheck answers each number with its NTS status, ephemeral; a bad number is named and never sent', async () => {
    const asked = nts.requests.length;
    const closed = await (await slashCommand('/bizcheck', '124-81-00998')).response();
    expect(closed.response_type).toBe('ephemeral');
    expect(textOf(closed)).toContain('124-81-00998');
    expect(textOf(closed)).toContain('폐업자');
    expect(textOf(closed)).toContain('폐업일 2023-11-30');
    const resident = await (await slashCommand('/bizcheck', '900101-1234567')).response();
    expect(textOf(resident)).toMatch(/주민등록번호/);
    expect(nts.requests.length).toBe(asked + 1);
  });

  it('/generate renders the generated text and the remaining calls', async () => {
    llm.chat({ content: '봄날의 짧은 시' });
    const answer = await (await slashCommand('/generate', '봄에 대한 시를 써 줘')).response();
    expect(textOf(answer)).toContain('봄날의 짧은 시');
    expect(textOf(answer)).toMatch(/남은 호출 \d+회/);
  });

  it('/urlcheck renders the core refusal without a subscription, then the verdict', async () => {
    const refused = await (await slashCommand('/urlcheck', 'https://example.com')).response();
    expect(textOf(refused)).toContain('구독');
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
    const answer = await (await slashCommand('/urlcheck', '<https://www.google.com/>')).response();
    expect(textOf(answer)).toContain('https://www.google.com/');
    expect(textOf(answer)).toMatch(/안전|유해/);
  });

  it('/kb and /ask go to the knowledge chatbot', async () => {
    const added = await (await slashCommand('/kb', 'add 사내 와이파이 비밀번호는 매주 월요일에 바뀝니다')).response();
    const listed = await (await slashCommand('/kb', 'list')).response();
    expect(textOf(added)).not.toContain('곧 제공');
    expect(textOf(listed)).toContain('사내 와이파이 비밀번호는 매주 월요일에 바뀝니다');
    llm.onChat(() => ({ content: '와이파이 비밀번호는 매주 월요일에 바뀝니다.' }));
    const asked = await (await slashCommand('/ask', '와이파이 비밀번호는 언제 바뀌나요?')).response();
    expect(textOf(asked)).toContain('와이파이 비밀번호는 언제 바뀌나요?');
    expect(textOf(asked)).toContain('와이파이 비밀번호는 매주 월요일에 바뀝니다.');
  });

  it('/kb with an unknown action shows the usage', async () => {
    const answer = await (await slashCommand('/kb', 'remove 3')).response();
    expect(textOf(answer)).toContain('/kb add');
  });

  it('/track without a subscription renders the core message; /untrack of an unwatched parcel says so', async () => {
    const tracked = await (await slashCommand('/track', 'CJ대한통운 1234-5678-9012 watch')).response();
    expect(textOf(tracked)).toContain('구독');
    const untracked = await (await slashCommand('/untrack', '123456789012')).response();
    expect(textOf(untracked)).toContain('알림 중이지 않습니다');
  });

  it('/idcard on Slack explains how to send the image', async () => {
    const answer = await (await slashCommand('/idcard', '')).response();
    expect(textOf(answer)).toContain('DM');
  });

  it('an unexpected error shows a reference id, never a stack', async () => {
    const operation = app.runtime.operations['text-generation'];
    const original = operation.run;
    operation.run = async () => {
      throw new TypeError('secret internals at /work/src/x.ts:12');
    };
    try {
      const sent = await slashCommand('/generate', '아무거나');
      const answer = await sent.response();
      expect(textOf(answer)).toMatch(/참조 ID `trigger-\d+`/);
      expect(textOf(answer)).not.toContain('secret internals');
    } finally {
      operation.run = original;
    }
  });

  it('limits one user to 10 commands a minute with a friendly message', async () => {
    const answers = [];
    for (let i = 0; i < 11; i += 1) answers.push(await (await slashCommand('/ask', '질문', { user: 'UBUSY', team: 'TNEW' })).response());
    expect(textOf(answers[9])).toContain('/link');
    expect(textOf(answers[10])).toContain('너무 자주');
  });
});

describe('message shortcuts', () => {
  it('"링크 검사" checks every URL of the message', async () => {
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
    const sent = await messageShortcut('link_check', { text: '자료: <https://www.google.com/> 그리고 https://example.org/page 참고' });
    expect(sent.ack.status).toBe(200);
    const answer = await sent.response();
    expect(answer.response_type).toBe('ephemeral');
    expect(textOf(answer)).toContain('https://www.google.com/');
    expect(textOf(answer)).toContain('https://example.org/page');
  });

  it('"번역" translates a Korean message to English', async () => {
    llm.chat({ content: 'The server restarts at noon.' });
    const answer = await (await messageShortcut('translate_message', { text: '서버가 정오에 재시작됩니다.' })).response();
    expect(textOf(answer)).toContain('The server restarts at noon.');
    expect(systemText(llm.requestsTo('chat')[0]!.body)).toContain('English');
  });

  it('"신분증 읽기" without an image says so', async () => {
    const answer = await (await messageShortcut('read_idcard', { text: '사진 없음' })).response();
    expect(textOf(answer)).toContain('이미지가 있는 메시지');
  });
});

describe('images in a DM and retries', () => {
  it('reads an ID sent in a DM: masked, answered in the DM, downloaded with the bot token', async () => {
    assertKoreanFonts();
    const spec = makeDocument('resident', 1, 0);
    const png = await renderImage(spec, 'clean', 1);
    const fileUrl = slack.addFile('id-resident.png', png);
    const before = slack.api('chat.postMessage').length;
    const res = await postSigned(
      dmEvent('Ev-ID-1', [{ id: 'F1', mimetype: 'image/png', size: png.length, url_private_download: fileUrl }]),
      'application/json',
    );
    expect(res.status).toBe(200);
    const posted = await slack.waitFor(() => slack.api('chat.postMessage')[before], 60_000);
    expect(posted.body.channel).toBe('D1');
    const shown = textOf(
      typeof posted.body.blocks === 'string' ? { blocks: JSON.parse(posted.body.blocks), text: posted.body.text } : posted.body,
    );
    const [birth, rest] = spec.expected.id_number.split('-') as [string, string];
    expect(shown).toContain(`${birth}-${rest[0]}******`);
    expect(shown).not.toContain(spec.expected.id_number);
    const download = slack.calls.find((call) => call.path === '/files/id-resident.png');
    expect(download?.headers.authorization).toBe(`Bearer ${BOT_TOKEN}`);
  });

  it('processes a retried event (x-slack-retry-num) once', async () => {
    const files = [{ id: 'F404', mimetype: 'image/png', size: 100, url_private_download: `${slack.url}/files/missing-1.png` }];
    const before = slack.api('chat.postMessage').length;
    await postSigned(dmEvent('Ev-RETRY-1', files), 'application/json');
    await slack.waitFor(() => slack.api('chat.postMessage').length === before + 1);
    const retry = await postSigned(dmEvent('Ev-RETRY-1', files), 'application/json', {
      'x-slack-retry-num': '1',
      'x-slack-retry-reason': 'http_timeout',
    });
    expect(retry.status).toBe(200);
    const otherFiles = [{ id: 'F405', mimetype: 'image/png', size: 100, url_private_download: `${slack.url}/files/missing-2.png` }];
    await postSigned(dmEvent('Ev-RETRY-2', otherFiles), 'application/json');
    await slack.waitFor(() => slack.api('chat.postMessage').length >= before + 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(slack.api('chat.postMessage')).toHaveLength(before + 2);
    expect(slack.calls.filter((call) => call.path === '/files/missing-1.png')).toHaveLength(1);
    expect(slack.calls.filter((call) => call.path === '/files/missing-2.png')).toHaveLength(1);
  });
});

/** Recorded Slack payloads, read in place (../shared/data/chat-payloads/slack, see its README). */
const PAYLOADS = sharedDataPath('chat-payloads/slack/');
const hasPayloads = sharedDataPresent('chat-payloads/slack/');
const recorded = (name: string) => JSON.parse(readFileSync(`${PAYLOADS}${name}`, 'utf8'));

/** A recorded event delivered to this app: its team is the linked one, everything else as Slack sent it. */
function recordedEvent(event: Record<string, unknown>, eventId: string, overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    token: 'legacy',
    team_id: TEAM,
    api_app_id: 'A1',
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    event: { ...event, team: TEAM, ...overrides },
  });
}

const postedTo = (channel: string, after: number) =>
  slack.waitFor(
    () =>
      slack
        .api('chat.postMessage')
        .slice(after)
        .find((call) => call.body.channel === channel),
    60_000,
  );
const shownIn = (posted: { body: any }) =>
  textOf(typeof posted.body.blocks === 'string' ? { blocks: JSON.parse(posted.body.blocks), text: posted.body.text } : posted.body);

describe('Slack text decoded once at the door', () => {
  it("/shorten stores the URL the user typed, not Slack's escaping of it", async () => {
    const answer = await (await slashCommand('/shorten', 'https://www.example.com/p?a=1&amp;b=2')).response();
    const code = /\/s\/([0-9A-Za-z]{5})/.exec(textOf(answer))?.[1];
    expect(code).toBeDefined();
    const followed = await fetch(`${app.url}/s/${code}`, { redirect: 'manual' });
    expect(followed.headers.get('location')).toBe('https://www.example.com/p?a=1&b=2');
  });

  it.skipIf(!hasPayloads)('the translate shortcut sends the text as the reader saw it (recorded quote)', async () => {
    llm.chat({ content: '> 인용문입니다' });
    const message = recorded('zulip_message_with_quote_block.json').event;
    await (await messageShortcut('translate_message', { text: message.text, blocks: message.blocks, user: message.user })).response();
    expect(lastUserText(llm.requestsTo('chat').at(-1)!.body)).toContain('> This is a quote');
    expect(JSON.stringify(llm.requestsTo('chat').at(-1)!.body)).not.toContain('&gt;');
  });

  it.skipIf(!hasPayloads)('the link check reads links a bot message carries only in attachments and blocks (recorded)', async () => {
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
    const message = recorded('zulip_message_from_slack_integration_bot.json').event;
    const { text, attachments, blocks, bot_id, username } = message;
    const answer = await (await messageShortcut('link_check', { text, attachments, blocks, bot_id, username })).response();
    expect(textOf(answer)).toContain('https://app.clickup.com/t/25567147/86cw30wf2');
  });
});

describe.skipIf(!hasPayloads)('every direct message is answered (recorded DM payloads)', () => {
  it("a plain text DM is checked as a message and, clean, told what else the bot can do, in the user's language", async () => {
    // The check is the message check's: the linked account subscribes to it (idempotent).
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
    const event = recorded('vercel-chat_dm-slack-direct.json').directDM.event;
    const before = slack.api('chat.postMessage').length;
    expect((await postSigned(recordedEvent(event, 'Ev-DM-TEXT'), 'application/json')).status).toBe(200);
    expect(shownIn(await postedTo(event.channel, before))).toContain('/translate');
    await postSigned(recordedEvent(event, 'Ev-DM-TEXT-EN', { user: 'UEN' }), 'application/json');
    const english = shownIn(await postedTo(event.channel, before + 1));
    expect(english).toContain('No sign of smishing found');
    expect(english).toContain('Paste a suspicious text message');
  });

  it('a Slack Connect file (check_file_info) is looked up with files.info and read', async () => {
    assertKoreanFonts();
    const spec = makeDocument('resident', 3, 0);
    slack.addFile('F12345678', await renderImage(spec, 'clean', 3), 'image/png');
    const event = recorded('zulip_message_with_inaccessible_file.json').event;
    const before = slack.api('chat.postMessage').length;
    await postSigned(recordedEvent(event, 'Ev-DM-CONNECT', { channel: 'D2', channel_type: 'im' }), 'application/json');
    const posted = await postedTo('D2', before);
    expect(slack.api('files.info').at(-1)?.body.file).toBe('F12345678');
    const [birth, rest] = spec.expected.id_number.split('-') as [string, string];
    expect(shownIn(posted)).toContain(`${birth}-${rest[0]}******`);
  });

  it('a PDF or another file shared in a DM is answered too', async () => {
    const shared = recorded('zulip_message_with_image_files.json').event;
    const pdf = {
      ...shared.files[0],
      id: 'FPDF1',
      mimetype: 'application/pdf',
      filetype: 'pdf',
      size: 20,
      url_private_download: slack.addFile('FPDF1', Buffer.from('%PDF-1.4 not really'), 'application/pdf'),
    };
    const before = slack.api('chat.postMessage').length;
    await postSigned(recordedEvent({ ...shared, files: [pdf] }, 'Ev-DM-PDF', { channel: 'D3', channel_type: 'im' }), 'application/json');
    expect(shownIn(await postedTo('D3', before)).length).toBeGreaterThan(10);
    const sheet = { ...shared.files[0], id: 'FXLS1', mimetype: 'application/vnd.ms-excel', filetype: 'xls' };
    await postSigned(recordedEvent({ ...shared, files: [sheet] }, 'Ev-DM-XLS', { channel: 'D4', channel_type: 'im' }), 'application/json');
    expect(shownIn(await postedTo('D4', before))).toContain('application/vnd.ms-excel');
  });
});

describe('user text never pings anyone (#33 item 4)', () => {
  // What a user who types the characters `<!channel>` sends: Slack escapes them, the door decodes them once.
  const typed = '&lt;!channel&gt; &lt;!here&gt; &lt;!everyone&gt; &lt;@U0ADMIN&gt; &lt;!subteam^S0TEAM|@devs&gt;';
  const hostile = '<!channel> <!here> <!everyone> <@U0ADMIN> <!subteam^S0TEAM|@devs>';
  /** A mention Slack would act on: `<!…>`, `<@…>` or `<#…>` anywhere in the message, fallback text included. */
  const live = /<[!@#]/;

  function expectInert(answer: any) {
    expect(answer.text).not.toMatch(live);
    expect(JSON.stringify(answer.blocks ?? [])).not.toMatch(live);
  }

  it.each([
    ['/translate', `en ${typed} 회의 취소 public`],
    ['/tone', `formal ${typed} 회의 취소`],
    ['/generate', `${typed} 회의 취소 공지를 써 줘`],
    ['/ask', `${typed} 회의는 언제인가요?`],
  ])('%s: an answer echoing the mentions shows them as text', async (command, text) => {
    llm.onChat(() => ({ content: `${hostile} 회의 취소` }));
    const answer = await (await slashCommand(command, text)).response();
    expectInert(answer);
    expect(answer.text + JSON.stringify(answer.blocks)).toContain('&lt;!channel&gt;');
  });

  it('/kb add and list show the stored text with its mentions inert', async () => {
    await (await slashCommand('/kb', `add ${typed} 공지 채널 규칙`)).response().then(expectInert);
    const listed = await (await slashCommand('/kb', 'list')).response();
    expectInert(listed);
    expect(textOf(listed)).toContain('&lt;@U0ADMIN&gt;');
  });

  it('/urlcheck and /shorten echo what was typed without a live mention', async () => {
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
    expectInert(await (await slashCommand('/urlcheck', `https://example.com/${typed}`)).response());
    expectInert(await (await slashCommand('/shorten', `https://example.com/a?${typed} public`)).response());
    expectInert(await (await slashCommand('/track', `${typed} 1234`)).response());
  });

  it('the "번역" shortcut on a message that carries mentions', async () => {
    llm.onChat(() => ({ content: hostile }));
    const answer = await (await messageShortcut('translate_message', { text: `${hostile} 서버가 정오에 재시작됩니다.` })).response();
    expectInert(answer);
  });
});
