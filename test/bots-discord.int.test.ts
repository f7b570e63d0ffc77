import { REST } from '@discordjs/rest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { discordCommandDefinitions } from '../bots/discord/definitions.js';
import { registerDiscordCommands } from '../bots/discord/register-commands.js';
import { createLogger } from '../src/logger.js';
import { discordKeyPair, startFakeDiscord, type FakeDiscord } from './fakes/discord-server.js';
import { systemText, startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';
import { ev, startFakeTracker, type FakeTracker } from './fakes/tracker-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { makeDocument } from './helpers/id-documents.js';
import { assertKoreanFonts, renderImage } from './helpers/id-images.js';

const APP_ID = '111111111111111111';
const GUILD = '222222222222222222';
const MANAGE_GUILD = String(1 << 5);
const keys = discordKeyPair();

let llm: FakeOpenAI;
let discord: FakeDiscord;
let tracker: FakeTracker;
let app: TestApp;
let owner: TestUser;
let counter = 0;
const logLines: string[] = [];

beforeAll(async () => {
  llm = await startFakeOpenAI();
  discord = await startFakeDiscord();
  tracker = await startFakeTracker();
  app = await startTestApp(
    {
      OPENAI_BASE_URL: llm.url,
      LLM_TIMEOUT_MS: '2000',
      DISCORD_APPLICATION_ID: APP_ID,
      DISCORD_PUBLIC_KEY: keys.publicKeyHex,
      DISCORD_BOT_TOKEN: 'test-bot-token',
      DISCORD_API_URL: discord.apiUrl,
      DELIVERY_TRACKER_URL: tracker.url,
    },
    {
      llm: { retryBaseDelayMs: 1 },
      ocr: { size: 1 },
      logger: createLogger('debug', { write: (line: string) => void logLines.push(line) }),
    },
  );
  owner = await app.signUp();
  const linked = await interact(command('link', [{ name: 'key', type: 3, value: owner.apiKey }], { permissions: MANAGE_GUILD }));
  expect(JSON.stringify(linked.body)).toContain('연결되었습니다');
});
afterAll(async () => {
  await app?.close();
  await discord?.close();
  await tracker?.close();
  await llm?.close();
});
beforeEach(() => llm.reset());

interface Extras {
  guild?: string | null;
  permissions?: string;
  locale?: string;
  user?: string;
  resolved?: Record<string, unknown>;
}

function base(extras: Extras) {
  const id = String(900_000 + ++counter);
  return {
    id,
    application_id: APP_ID,
    token: `interaction-token-${id}`,
    version: 1,
    channel_id: '333',
    locale: extras.locale ?? 'ko',
    ...(extras.guild === null
      ? { user: { id: extras.user ?? `u${counter}` } }
      : {
          guild_id: extras.guild ?? GUILD,
          member: { user: { id: extras.user ?? `u${counter}` }, permissions: extras.permissions ?? '0' },
        }),
  };
}

function command(name: string, options: unknown[] = [], extras: Extras = {}) {
  return { ...base(extras), type: 2, data: { id: 'cmd', name, type: 1, options, resolved: extras.resolved } };
}

function messageCommand(name: string, message: Record<string, unknown>, extras: Extras = {}) {
  return {
    ...base(extras),
    type: 2,
    data: { id: 'cmd', name, type: 3, target_id: 'm1', resolved: { messages: { m1: { id: 'm1', ...message } } } },
  };
}

async function interact(payload: unknown, sign: { timestamp?: number; signature?: string } = {}) {
  const body = JSON.stringify(payload);
  const timestamp = String(sign.timestamp ?? Math.floor(Date.now() / 1000));
  const res = await fetch(`${app.url}/discord/interactions`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-signature-timestamp': timestamp,
      'x-signature-ed25519': sign.signature ?? keys.sign(timestamp, body),
    },
    body,
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The edit of `@original` a deferred interaction gets. */
function edited(payload: { application_id: string; token: string }) {
  return discord.waitFor(
    () => discord.find('PATCH', `/webhooks/${payload.application_id}/${payload.token}/messages/@original`)[0]?.body,
    60_000,
  );
}

describe('Discord signatures', () => {
  it('answers PING with PONG', async () => {
    const res = await interact({ id: '1', application_id: APP_ID, type: 1, token: 't', version: 1 });
    expect(res).toEqual({ status: 200, body: { type: 1 } });
  });

  it('refuses a bad signature and a stale timestamp with 401', async () => {
    const ping = { id: '1', application_id: APP_ID, type: 1, token: 't', version: 1 };
    const other = discordKeyPair();
    const now = String(Math.floor(Date.now() / 1000));
    expect((await interact(ping, { signature: other.sign(now, JSON.stringify(ping)) })).status).toBe(401);
    const old = Math.floor(Date.now() / 1000) - 10 * 60;
    expect((await interact(ping, { timestamp: old, signature: keys.sign(String(old), JSON.stringify(ping)) })).status).toBe(401);
  });

  it('refuses the same signed interaction delivered twice (#18 item 12)', async () => {
    const ping = { id: `replay-${Date.now()}`, application_id: APP_ID, type: 1, token: 't', version: 1 };
    const timestamp = Math.floor(Date.now() / 1000);
    expect((await interact(ping, { timestamp })).status).toBe(200);
    expect((await interact(ping, { timestamp })).status).toBe(401);
  });
});

describe('/link', () => {
  it('needs Manage Server, verifies the key, answers ephemerally and never echoes it', async () => {
    const other = await app.signUp();
    const guild = '444444444444444444';
    const member = await interact(command('link', [{ name: 'key', type: 3, value: other.apiKey }], { guild }));
    expect(member.body.type).toBe(4);
    expect(member.body.data.flags).toBe(64);
    expect(JSON.stringify(member.body)).toContain('서버 관리 권한');
    const linked = await interact(command('link', [{ name: 'key', type: 3, value: other.apiKey }], { guild, permissions: MANAGE_GUILD }));
    expect(linked.body.data.flags).toBe(64);
    expect(JSON.stringify(linked.body)).toContain('연결되었습니다');
    expect(JSON.stringify(linked.body)).not.toContain(other.apiKey);
    expect((await app.runtime.platform.workspaceLinks.accountFor({ platform: 'discord', workspaceId: guild }))?.id).toBe(other.accountId);
  });

  it('tells an unlinked server how to link, and refuses /link in a DM', async () => {
    const unlinked = await interact(
      command('shorten', [{ name: 'url', type: 3, value: 'https://example.com' }], { guild: '555555555555555555' }),
    );
    // Discord's own words: its option field and its permission, never Slack's `/link <API 키>` or workspace.
    const text = JSON.stringify(unlinked.body);
    expect(text).toContain('`/link` 명령의 key 칸에 API 키를 넣어');
    expect(text).toContain('서버 관리 권한');
    expect(text).not.toContain('/link <API 키>');
    expect(text).not.toContain('워크스페이스');
    const dm = await interact(command('link', [{ name: 'key', type: 3, value: owner.apiKey }], { guild: null }));
    expect(JSON.stringify(dm.body)).toContain('`/link`는 서버 채널에서만 쓸 수 있습니다');
  });
});

describe('slash commands', () => {
  it('/translate defers (ephemeral) and edits @original with an embed, in English for an English client', async () => {
    llm.chat({ content: 'Good morning' });
    const payload = command(
      'translate',
      [
        { name: 'target', type: 3, value: 'en' },
        { name: 'text', type: 3, value: '좋은 아침입니다' },
      ],
      { locale: 'en-US' },
    );
    const res = await interact(payload);
    expect(res.body).toEqual({ type: 5, data: { flags: 64 } });
    const message = await edited(payload);
    expect(message.embeds[0].title).toBe('Translation · Korean → English');
    expect(message.embeds[0].description).toBe('Good morning');
    expect(message.embeds[0].footer.text).toMatch(/\d+ calls left/);
    expect(systemText(llm.requestsTo('chat')[0]!.body)).toContain('English');
  });

  it('/tone names the tone in its header and shows Discord option syntax when a value is refused', async () => {
    llm.chat({ content: '안녕하세요. 반가워요.' });
    const ok = command('tone', [
      { name: 'style', type: 3, value: 'casual' },
      { name: 'text', type: 3, value: '안녕 반가워' },
    ]);
    await interact(ok);
    expect((await edited(ok)).embeds[0].title).toBe('말투 변환 · 해요체');
    const refused = command('translate', [
      { name: 'target', type: 3, value: '클링온어' },
      { name: 'text', type: 3, value: '안녕' },
    ]);
    await interact(refused);
    const text = JSON.stringify(await edited(refused));
    expect(text).toContain('/translate target:<번역할 언어> text:<번역할 문장> [public:True]');
    expect(text).not.toContain('/translate <영어');
  });

  it('/shorten with public answers at once, visible to the channel', async () => {
    const res = await interact(
      command('shorten', [
        { name: 'url', type: 3, value: 'https://example.com/discord/path' },
        { name: 'public', type: 5, value: true },
      ]),
    );
    expect(res.body.type).toBe(4);
    expect(res.body.data.flags).toBe(0);
    expect(res.body.data.embeds[0].description).toMatch(new RegExp(`^${app.url}/s/[0-9A-Za-z]{5}$`));
  });

  it('/shorten with several URLs answers one field per URL through the bulk shortener', async () => {
    const res = await interact(
      command('shorten', [{ name: 'url', type: 3, value: 'https://example.com/d/one https://example.com/d/two ftp://nope' }]),
    );
    expect(res.body.type).toBe(4);
    const fields: Array<{ name: string; value: string }> = res.body.data.embeds[0].fields;
    expect(fields.map((field) => field.name)).toEqual(['https://example.com/d/one', 'https://example.com/d/two']);
    for (const field of fields) expect(field.value).toMatch(new RegExp(`^${app.url}/s/[0-9A-Za-z]{5}$`));
    expect(res.body.data.allowed_mentions).toEqual({ parse: [] });
  });

  it('/kb subcommands reach the knowledge chatbot', async () => {
    const payload = command('kb', [
      { name: 'add', type: 1, options: [{ name: 'content', type: 3, value: '환불은 구매 후 7일 이내에 가능합니다' }] },
    ]);
    expect((await interact(payload)).body.type).toBe(5);
    const added = await edited(payload);
    const listPayload = command('kb', [{ name: 'list', type: 1, options: [] }]);
    await interact(listPayload);
    const listed = await edited(listPayload);
    expect(JSON.stringify(added)).not.toContain('곧 제공');
    expect(JSON.stringify(listed.embeds[0].fields)).toContain('환불은 구매 후 7일 이내에 가능합니다');
  });

  it('/track with watch renders the core refusal without a subscription', async () => {
    const payload = command('track', [
      { name: 'carrier', type: 3, value: 'kr.cjlogistics' },
      { name: 'number', type: 3, value: '123456789012' },
      { name: 'watch', type: 5, value: true },
    ]);
    expect((await interact(payload)).body).toEqual({ type: 5, data: { flags: 64 } });
    expect(JSON.stringify(await edited(payload))).toContain('구독');
  });

  it('/track shows the state and the latest steps, and watch posts changes to this channel until /untrack', async () => {
    await app.post('/api/v1/subscriptions', { api: 'delivery-tracking' }, owner.apiKey);
    tracker.parcel('kr.cjlogistics', '600012345678', {
      events: [
        ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP', '집화처리', '서울강남'),
        ev('2026-11-20T21:00:00+09:00', 'IN_TRANSIT', '간선상차', '곤지암Hub'),
      ],
    });
    const payload = command('track', [
      { name: 'carrier', type: 3, value: 'CJ대한통운' },
      { name: 'number', type: 3, value: '6000-1234-5678' },
      { name: 'watch', type: 5, value: true },
    ]);
    await interact(payload);
    const embed = (await edited(payload)).embeds[0];
    const fields = embed.fields.map((field: { name: string; value: string }) => `${field.name}=${field.value}`).join('|');
    expect(fields).toContain('택배사=CJ대한통운');
    expect(fields).toContain('상태=상품이동중');
    expect(fields).toContain('간선상차');
    expect(fields).toContain('곤지암Hub');
    expect(embed.description).toContain('이 채널에 알려 드릴게요');
    expect(tracker.lookups('kr.cjlogistics', '600012345678')).toHaveLength(1);
    const watching = await app.runtime.watches.list(owner.accountId);
    expect(watching.map((watch) => [watch.track_id, watch.status, watch.target])).toEqual([
      ['600012345678', 'active', { type: 'discord', channel_id: '333' }],
    ]);

    const untrack = command('untrack', [{ name: 'number', type: 3, value: '6000-1234-5678' }]);
    const stopped = (await interact(untrack)).body;
    expect(stopped.type).toBe(4);
    expect(JSON.stringify(stopped.data)).toContain('알림을 껐어요');
    expect(await app.runtime.watches.list(owner.accountId)).toEqual([]);
  });

  it('/idcard reads the attachment: deferred ephemeral, masked', async () => {
    assertKoreanFonts();
    const spec = makeDocument('license', 1, 0);
    const png = await renderImage(spec, 'clean', 1);
    const url = discord.addAttachment('licence.png', png);
    const payload = command('idcard', [{ name: 'image', type: 11, value: 'att1' }], {
      resolved: { attachments: { att1: { id: 'att1', filename: 'licence.png', url, content_type: 'image/png', size: png.length } } },
    });
    expect((await interact(payload)).body).toEqual({ type: 5, data: { flags: 64 } });
    const message = await edited(payload);
    const shown = JSON.stringify(message);
    const [birth, rest] = spec.expected.id_number.split('-') as [string, string];
    expect(shown).toContain(`${birth}-${rest[0]}******`);
    expect(shown).not.toContain(spec.expected.id_number);
    expect(shown).not.toContain(spec.expected.license_number!);
    expect(message.embeds[0].title).toBe(spec.expected.type);
    // Nothing of the document reaches the logs: not the number, the name or the address.
    const logs = logLines.join('\n');
    expect(logs).toContain('ocr-idcard read');
    for (const value of [spec.expected.id_number, spec.expected.id_number.replace('-', ''), spec.expected.name, spec.expected.address])
      expect(logs).not.toContain(value);
  });
});

describe('message context menus', () => {
  it('"링크 검사" checks the URLs of the message', async () => {
    const refused = messageCommand('링크 검사', { content: 'see https://www.google.com/' });
    await interact(refused);
    expect(JSON.stringify(await edited(refused))).toContain('구독');
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, owner.apiKey);
    const payload = messageCommand('링크 검사', { content: 'see https://www.google.com/ and https://example.net/x' });
    expect((await interact(payload)).body).toEqual({ type: 5, data: { flags: 64 } });
    const fields = (await edited(payload)).embeds[0].fields.map((field: { name: string }) => field.name).join(' ');
    expect(fields).toContain('https://www.google.com/');
    expect(fields).toContain('https://example.net/x');
  });

  it('"번역" translates a non-Korean message to Korean', async () => {
    llm.chat({ content: '회의가 취소되었습니다' });
    const payload = messageCommand('번역', { content: 'The meeting is cancelled.' });
    await interact(payload);
    expect((await edited(payload)).embeds[0].description).toBe('회의가 취소되었습니다');
    expect(systemText(llm.requestsTo('chat')[0]!.body)).toContain('Korean');
  });

  it('"신분증 읽기" without an image says so', async () => {
    const payload = messageCommand('신분증 읽기', { content: 'no image here', attachments: [] });
    await interact(payload);
    expect(JSON.stringify(await edited(payload))).toContain('이미지가 있는 메시지');
  });
});

describe('npm run bots:register', () => {
  it('registers for a guild, then does nothing while the definitions are unchanged', async () => {
    const rest = new REST({ api: discord.apiUrl, version: '10' }).setToken('test-bot-token');
    const logger = createLogger('silent');
    const definitions = discordCommandDefinitions();
    expect(definitions.map((definition) => definition.name)).toEqual([
      'link',
      'ask',
      'kb',
      'tone',
      'urlcheck',
      'generate',
      'idcard',
      'translate',
      'track',
      'untrack',
      'shorten',
      'bizcheck',
      'guard',
      '링크 검사',
      '번역',
      '신분증 읽기',
      '스미싱 검사',
      '지식으로 저장',
    ]);
    const first = await registerDiscordCommands({ rest, applicationId: APP_ID, guildId: GUILD, definitions, logger });
    expect(first).toEqual({ changed: true, count: 18 });
    const second = await registerDiscordCommands({ rest, applicationId: APP_ID, guildId: GUILD, definitions, logger });
    expect(second).toEqual({ changed: false, count: 18 });
    expect(discord.find('PUT', `/applications/${APP_ID}/guilds/${GUILD}/commands`)).toHaveLength(1);
    const changed = definitions.map((definition) => (definition.name === 'ask' ? { ...definition, description: '바뀐 설명' } : definition));
    expect((await registerDiscordCommands({ rest, applicationId: APP_ID, guildId: GUILD, definitions: changed, logger })).changed).toBe(
      true,
    );
    expect(discord.find('PUT', `/applications/${APP_ID}/guilds/${GUILD}/commands`)).toHaveLength(2);
  });
});

describe('user text never pings anyone (#33 item 4)', () => {
  const hostile = '@everyone @here <@123456789012345678> <@&876543210987654321> 회의 취소';
  const text = (name: string, value: string) => ({ name, type: 3, value });

  it.each([
    ['translate', [text('target', 'en'), text('text', hostile), { name: 'public', type: 5, value: true }]],
    ['tone', [text('style', 'formal'), text('text', hostile)]],
    ['generate', [text('prompt', hostile)]],
    ['ask', [text('question', hostile)]],
    ['kb', [{ name: 'add', type: 1, options: [text('content', hostile)] }]],
  ])('/%s: the answer that echoes the mentions allows none', async (name, options) => {
    llm.onChat(() => ({ content: hostile }));
    const payload = command(name, options);
    const first = await interact(payload);
    const message = first.body.type === 5 ? await edited(payload) : first.body.data;
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('quick answers, notices and shortcuts allow none either', async () => {
    const shortened = await interact(
      command('shorten', [text('url', 'https://example.com/@everyone'), { name: 'public', type: 5, value: true }]),
    );
    expect(shortened.body.data.allowed_mentions).toEqual({ parse: [] });
    const unknown = await interact(command('no-such-command'));
    expect(unknown.body.data.allowed_mentions).toEqual({ parse: [] });
    llm.onChat(() => ({ content: hostile }));
    const payload = messageCommand('번역', { content: hostile });
    await interact(payload);
    expect((await edited(payload)).allowed_mentions).toEqual({ parse: [] });
  });
});
