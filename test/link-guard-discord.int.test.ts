import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBotDoors } from '../bots/index.js';
import type { GuardOutcome } from '../src/operations/link-guard/link-guard.js';
import { createLogger } from '../src/logger.js';
import { discordKeyPair, startFakeDiscord, type FakeDiscord } from './fakes/discord-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { sharedDataPath, sharedDataPresent } from './helpers/shared-data.js';

/**
 * The link guard on Discord, end to end: the real discord.js gateway client against the fake's
 * gateway (found through `GET /gateway/bot` on `DISCORD_API_URL`), `/guard` over signed HTTP
 * interactions, and the warnings posted through the real REST client.
 */
const APP_ID = '111111111111111111';
const GUILD = '222222222222222222';
const CHANNEL = '555555555555555555';
const HIDE_CHANNEL = '666666666666666666';
const DENIED_CHANNEL = '777777777777777777';
const MANAGE_GUILD = String(1 << 5);
const MANAGE_CHANNELS = String(1 << 4);
const GUILD_MESSAGES = 1 << 9;
const MESSAGE_CONTENT = 1 << 15;
const PAYLOADS = 'chat-payloads/discord/vercel-chat_channel-discord.json';
const keys = discordKeyPair();

let discord: FakeDiscord;
let app: TestApp;
let owner: TestUser;
let counter = 0;
const outcomes: GuardOutcome[] = [];

beforeAll(async () => {
  discord = await startFakeDiscord();
  app = await startTestApp(
    {
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
      DISCORD_BOT_TOKEN: 'test-bot-token',
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_GATEWAY: '1',
    },
    { linkGuard: { observe: (event) => void outcomes.push(event) } },
  );
  owner = await app.signUp();
  await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
  const linked = await interact(command('link', [{ name: 'key', type: 3, value: owner.apiKey }], { permissions: MANAGE_GUILD }));
  expect(JSON.stringify(linked.body)).toContain('연결되었습니다');
  await startBotDoors(app.doors, app.runtime.logger);
});
afterAll(async () => {
  await app?.close();
  await discord?.close();
});

function command(name: string, options: unknown[] = [], extras: { permissions?: string; channel?: string; locale?: string } = {}) {
  const id = String(900_000 + ++counter);
  return {
    id,
    application_id: APP_ID,
    token: `interaction-token-${id}`,
    version: 1,
    type: 2,
    channel_id: extras.channel ?? CHANNEL,
    locale: extras.locale ?? 'ko',
    guild_id: GUILD,
    member: { user: { id: `u${counter}` }, permissions: extras.permissions ?? '0' },
    data: { id: 'cmd', name, type: 1, options },
  };
}

const guard = (sub: string, extras: Parameters<typeof command>[2] = {}, options: unknown[] = []) =>
  command('guard', [{ name: sub, type: 1, options }], extras);

async function interact(payload: unknown) {
  const body = JSON.stringify(payload);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const res = await fetch(`${app.url}/discord/interactions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature-timestamp': timestamp,
      'x-signature-ed25519': keys.sign(timestamp, body),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The recorded gateway MESSAGE_CREATE, moved to the test's guild and channel with new content. */
function recordedMessage(content: string, channel = CHANNEL, extra: Record<string, unknown> = {}) {
  const recorded = JSON.parse(readFileSync(sharedDataPath(PAYLOADS), 'utf8')).mention.data;
  return { ...recorded, id: String(10_000_000 + ++counter), guild_id: GUILD, channel_id: channel, content, mentions: [], ...extra };
}

function outcomeOf(messageId: string) {
  return discord.waitFor(() => outcomes.find((event) => event.messageId === messageId)?.outcome);
}

const postsIn = (channel: string) => discord.find('POST', `/api/v10/channels/${channel}/messages`);

describe('link guard on Discord without the Message Content intent', () => {
  it('reconnects without the guard and says what is missing', async () => {
    const refusing = await startFakeDiscord();
    refusing.refuseIntents(MESSAGE_CONTENT);
    const lines: string[] = [];
    const other = await startTestApp(
      { DISCORD_BOT_TOKEN: 'test-bot-token', DISCORD_API_URL: refusing.apiUrl, DISCORD_GATEWAY: '1', LOG_LEVEL: 'info' },
      { logger: createLogger('info', { write: (line: string) => void lines.push(line) }) },
    );
    try {
      await startBotDoors(other.doors, other.runtime.logger);
      expect(refusing.identifies.map((identify) => (identify.intents & MESSAGE_CONTENT) !== 0)).toEqual([true, false]);
      expect(lines.join('\n')).toContain('the Message Content intent is not enabled');
      expect(lines.join('\n')).toContain('Discord gateway connected');
    } finally {
      await other.close();
      await refusing.close();
    }
  });
});

describe.skipIf(!sharedDataPresent(PAYLOADS))('link guard on Discord', () => {
  it('identifies with the guild-message and Message Content intents', () => {
    const identify = discord.identifies.at(-1)!;
    expect(identify.token).toBe('test-bot-token');
    expect(identify.intents & GUILD_MESSAGES).toBe(GUILD_MESSAGES);
    expect(identify.intents & MESSAGE_CONTENT).toBe(MESSAGE_CONTENT);
  });

  it('lets only members with Manage Channels turn it on, and shows it in status', async () => {
    const refused = await interact(guard('on'));
    expect(JSON.stringify(refused.body)).toContain('채널 관리자만');
    expect((await app.runtime.linkGuard.status({ platform: 'discord', workspaceId: GUILD, channelId: CHANNEL })).channel).toBeUndefined();
    const on = await interact(guard('on', { permissions: MANAGE_CHANNELS }));
    expect(JSON.stringify(on.body)).toContain('링크 가드를 켰습니다');
    const status = await interact(guard('status'));
    expect(JSON.stringify(status.body)).toContain('켜짐');
    expect(JSON.stringify(status.body)).toContain('warn');
  });

  it('/guard messages on|off: channel managers only; a message without a link is then judged, and status shows it', async () => {
    const state = (value: string) => [{ name: 'state', type: 3, value }];
    expect(JSON.stringify((await interact(guard('messages', {}, state('on')))).body)).toContain('채널 관리자만');
    const on = await interact(guard('messages', { permissions: MANAGE_CHANNELS }, state('on')));
    expect(JSON.stringify(on.body)).toContain('메시지 판단을 켰습니다');
    expect(JSON.stringify((await interact(guard('status'))).body)).toMatch(/메시지 판단.*on/);
    // An ordinary message: judged (not passed over as linkless), nothing posted, nothing charged.
    const before = await app.remaining(owner.apiKey, 'harmful-url-detection');
    const message = recordedMessage('내일 점심은 12시 반에 1층 식당에서 먹어요');
    discord.dispatch('MESSAGE_CREATE', message);
    expect(await outcomeOf(message.id)).toBe('clean');
    expect(postsIn(CHANNEL)).toHaveLength(0);
    expect(await app.remaining(owner.apiKey, 'harmful-url-detection')).toBe(before);
    const off = await interact(guard('messages', { permissions: MANAGE_CHANNELS }, state('off')));
    expect(JSON.stringify(off.body)).toContain('메시지 판단을 껐습니다');
    const after = recordedMessage('점심 메뉴 정했어요?');
    discord.dispatch('MESSAGE_CREATE', after);
    expect(await outcomeOf(after.id)).toBe('no_links');
  });

  it('posts nothing for a clean link and charges its check', async () => {
    const before = await app.remaining(owner.apiKey, 'harmful-url-detection');
    const message = recordedMessage('회의록은 여기 있어요 https://www.google.com/docs');
    discord.dispatch('MESSAGE_CREATE', message);
    expect(await outcomeOf(message.id)).toBe('clean');
    expect(postsIn(CHANNEL)).toHaveLength(0);
    expect(await app.remaining(owner.apiKey, 'harmful-url-detection')).toBe(before! - 1);
  });

  it('replies to a message with an obfuscated harmful link: no clickable link, no mentions', async () => {
    const message = recordedMessage('@everyone 보안 인증 필요 hxxp://kbstar-login[.]xyz/verify 지금 확인하세요');
    discord.dispatch('MESSAGE_CREATE', message);
    expect(await outcomeOf(message.id)).toBe('warned');
    const [post] = postsIn(CHANNEL);
    expect(post?.body.message_reference).toEqual({ message_id: message.id, fail_if_not_exists: false });
    expect(post?.body.allowed_mentions).toEqual({ parse: [] });
    const shown = JSON.stringify(post?.body);
    expect(shown).toContain('위험한 링크');
    expect(shown).toContain('kbstar-login[.]xyz');
    expect(shown).not.toMatch(/kbstar-login\.xyz|https?:\/\//);
    const [incident] = await app.runtime.linkGuard.recentIn('discord', GUILD, 1);
    expect(incident).toMatchObject({
      channel_id: CHANNEL,
      poster_id: message.author.id,
      host: 'kbstar-login.xyz',
      category: 'phishing',
      action: 'warned',
    });
    expect(incident?.url_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('checks the embeds of a MESSAGE_UPDATE and answers a repeat from the cache, free', async () => {
    const before = await app.remaining(owner.apiKey, 'harmful-url-detection');
    const update = {
      id: String(20_000_000 + ++counter),
      channel_id: CHANNEL,
      guild_id: GUILD,
      embeds: [{ type: 'link', url: 'https://casino-king.xyz/event', title: '이벤트' }],
    };
    discord.dispatch('MESSAGE_UPDATE', update);
    expect(await outcomeOf(update.id)).toBe('warned');
    expect(await app.remaining(owner.apiKey, 'harmful-url-detection')).toBe(before! - 1);
    const repeat = recordedMessage('다시 https://casino-king.xyz/event');
    discord.dispatch('MESSAGE_CREATE', repeat);
    expect(await outcomeOf(repeat.id)).toBe('warned');
    expect(await app.remaining(owner.apiKey, 'harmful-url-detection')).toBe(before! - 1);
  });

  it('hides the message in hide mode, or says it could not without Manage Messages', async () => {
    for (const channel of [HIDE_CHANNEL, DENIED_CHANNEL]) {
      await interact(guard('on', { permissions: MANAGE_CHANNELS, channel }));
      const mode = await interact(guard('mode', { permissions: MANAGE_CHANNELS, channel }, [{ name: 'mode', type: 3, value: 'hide' }]));
      expect(JSON.stringify(mode.body)).toContain('숨김 모드');
    }
    discord.denyManageMessages(DENIED_CHANNEL);
    const hidden = recordedMessage('https://bet365-kr.top/join', HIDE_CHANNEL);
    discord.dispatch('MESSAGE_CREATE', hidden);
    expect(await outcomeOf(hidden.id)).toBe('warned');
    expect(discord.find('DELETE', `/channels/${HIDE_CHANNEL}/messages/${hidden.id}`)).toHaveLength(1);
    const [notice] = postsIn(HIDE_CHANNEL);
    expect(notice?.body.message_reference).toBeUndefined();
    expect(JSON.stringify(notice?.body)).toContain('원래 메시지는 숨겼습니다');

    const kept = recordedMessage('https://bet365-kr.top/join', DENIED_CHANNEL);
    discord.dispatch('MESSAGE_CREATE', kept);
    expect(await outcomeOf(kept.id)).toBe('warned');
    const [warning] = postsIn(DENIED_CHANNEL);
    expect(warning?.body.message_reference?.message_id).toBe(kept.id);
    expect(JSON.stringify(warning?.body)).toContain('숨기지 못했습니다');
    const actions = (await app.runtime.linkGuard.recentIn('discord', GUILD, 2)).map((incident) => incident.action);
    expect(actions).toEqual(['warned_not_hidden', 'hidden']);
  });

  it('shows the log to channel managers and stops warning about an allowed host', async () => {
    const log = await interact(guard('log', { permissions: MANAGE_CHANNELS }));
    expect(JSON.stringify(log.body)).toContain('kbstar-login[.]xyz');
    expect(log.body.data.flags).toBe(1 << 6);
    const allowed = await interact(
      guard('allow', { permissions: MANAGE_CHANNELS }, [{ name: 'host', type: 3, value: 'https://kbstar-login.xyz/' }]),
    );
    expect(JSON.stringify(allowed.body)).toContain('허용 목록에 추가했습니다');
    const before = postsIn(CHANNEL).length;
    const message = recordedMessage('http://login.kbstar-login.xyz/verify');
    discord.dispatch('MESSAGE_CREATE', message);
    expect(await outcomeOf(message.id)).toBe('clean');
    expect(postsIn(CHANNEL)).toHaveLength(before);
  });

  it("shows the incidents to the linked account over HTTP (the portal's panel), and to nobody else", async () => {
    const mine = await app.get('/api/v1/guard/incidents', { authorization: `Bearer ${owner.token}` });
    expect(mine.status).toBe(200);
    const incidents = mine.body.incidents as Array<Record<string, unknown>>;
    expect(incidents.map((incident) => incident.host)).toContain('kbstar-login.xyz');
    expect(incidents[0]).toMatchObject({ platform: 'discord', workspace_id: GUILD });
    expect(JSON.stringify(incidents)).not.toMatch(/https?:\/\/|보안 인증 필요/);
    const byKey = await app.get('/api/v1/guard/incidents', { 'x-api-key': owner.apiKey });
    expect(byKey.body.incidents).toHaveLength(incidents.length);
    const stranger = await app.signUp();
    expect((await app.get('/api/v1/guard/incidents', { authorization: `Bearer ${stranger.token}` })).body).toEqual({
      success: true,
      incidents: [],
    });
    expect((await app.get('/api/v1/guard/incidents')).status).toBe(401);
  });

  it('answers the "스미싱 검사" context menu on a message, privately', async () => {
    const id = String(900_000 + ++counter);
    const payload = {
      ...command('unused'),
      id,
      token: `interaction-token-${id}`,
      data: {
        id: 'cmd',
        name: '스미싱 검사',
        type: 3,
        target_id: 'm1',
        resolved: {
          messages: {
            m1: { id: 'm1', content: '[우체국] 등기우편 2회 미배달, 반송 예정입니다. 확인: hxxp://epost-kr[.]xyz/a', embeds: [] },
          },
        },
      },
    };
    const deferred = await interact(payload);
    expect(deferred.body).toEqual({ type: 5, data: { flags: 1 << 6 } });
    const edit = await discord.waitFor(
      () => discord.find('PATCH', `/webhooks/${APP_ID}/interaction-token-${id}/messages/@original`)[0]?.body,
      60_000,
    );
    const shown = JSON.stringify(edit);
    expect(shown).toContain('스미싱으로 보입니다');
    expect(shown).toContain('우체국');
    expect(edit.allowed_mentions).toEqual({ parse: [] });
  });

  it('guards the threads of a guarded channel (parent known from THREAD_CREATE)', async () => {
    const thread = '999999999999999999';
    discord.dispatch('THREAD_CREATE', {
      id: thread,
      guild_id: GUILD,
      parent_id: CHANNEL,
      type: 11,
      name: '이벤트 문의',
      owner_id: '1033044521375764530',
      thread_metadata: { archived: false, auto_archive_duration: 1440, archive_timestamp: '2026-11-27T00:00:00.000Z', locked: false },
      newly_created: true,
    });
    const message = recordedMessage('여기 https://bet365-kr.top/join', thread);
    discord.dispatch('MESSAGE_CREATE', message);
    expect(await outcomeOf(message.id)).toBe('warned');
    expect(postsIn(thread)[0]?.body.message_reference?.message_id).toBe(message.id);
  });

  it('ignores channels that are not guarded', async () => {
    const message = recordedMessage('https://casino-king.xyz/event', '888888888888888888');
    discord.dispatch('MESSAGE_CREATE', message);
    expect(await outcomeOf(message.id)).toBe('not_guarded');
    expect(postsIn('888888888888888888')).toHaveLength(0);
  });
});
