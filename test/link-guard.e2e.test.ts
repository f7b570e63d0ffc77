import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discordKeyPair, startFakeDiscord, type FakeDiscord } from './fakes/discord-server.js';
import { migratedDataDir, startServerProcess, type ServerProcess } from './helpers/process.js';

/**
 * The link guard on the production path: the server process (`api/server.ts`) configured by
 * environment variables only, its Discord gateway client connected to the fake gateway, a
 * channel guarded with `/guard on` over signed HTTP interactions, and a harmful link answered
 * with a reply while a clean one gets nothing. The message texts never reach the log.
 */
const APP_ID = '111111111111111111';
const GUILD = '222222222222222222';
const CHANNEL = '555555555555555555';
const keys = discordKeyPair();
let discord: FakeDiscord;
let server: ServerProcess;
const dataDir = migratedDataDir('aih-guard-e2e-');
let base: string;
let counter = 0;

beforeAll(async () => {
  discord = await startFakeDiscord();
  server = startServerProcess({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    DISCORD_APPLICATION_ID: APP_ID,
    DISCORD_PUBLIC_KEY: keys.publicKeyHex,
    DISCORD_BOT_TOKEN: 'test-bot-token',
    DISCORD_API_URL: discord.apiUrl,
    DISCORD_GATEWAY: '1',
    URL_LIST_REFRESH: 'off',
  });
  base = `http://127.0.0.1:${await server.ready}`;
  await server.waitForOutput(/Discord gateway connected/);
}, 180_000);
afterAll(async () => {
  server?.child.kill('SIGTERM');
  await server?.exited;
  await discord?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function json(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await res.json()) as any;
}

async function interact(name: string, options: unknown[], permissions: string) {
  const id = String(900_000 + ++counter);
  const body = JSON.stringify({
    id,
    application_id: APP_ID,
    token: `interaction-token-${id}`,
    version: 1,
    type: 2,
    channel_id: CHANNEL,
    locale: 'ko',
    guild_id: GUILD,
    member: { user: { id: 'u1' }, permissions },
    data: { id: 'cmd', name, type: 1, options },
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const res = await fetch(`${base}/discord/interactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-signature-timestamp': timestamp, 'x-signature-ed25519': keys.sign(timestamp, body) },
    body,
  });
  return JSON.stringify(await res.json());
}

describe('link guard, production path', () => {
  it('says at start whether the guard can run, guards a channel and answers only the harmful link', async () => {
    expect(server.output()).toContain('link guard (Discord) can run over the gateway');
    expect(discord.identifies.at(-1)!.intents & (1 << 15)).toBe(1 << 15);

    const email = `guard-e2e-${Date.now()}@example.com`;
    await json('/api/v1/auth/register', { email, password: 'correct horse battery' });
    const { token } = await json('/api/v1/auth/login', { email, password: 'correct horse battery' });
    const { api_key: key } = await json('/api/v1/keys', { name: 'guard' }, { authorization: `Bearer ${token}` });
    await json('/api/v1/subscriptions', { api: 'harmful-url-detection' }, { 'x-api-key': key });
    expect(await interact('link', [{ name: 'key', type: 3, value: key }], String(1 << 5))).toContain('연결되었습니다');
    expect(await interact('guard', [{ name: 'on', type: 1, options: [] }], String(1 << 4))).toContain('링크 가드를 켰습니다');

    const author = { id: '1033044521375764530', username: 'testuser2384', discriminator: '0' };
    const clean = {
      id: '30000001',
      channel_id: CHANNEL,
      guild_id: GUILD,
      author,
      content: 'SECRET-CLEAN-TEXT https://www.google.com/',
      embeds: [],
      attachments: [],
    };
    const harmful = {
      id: '30000002',
      channel_id: CHANNEL,
      guild_id: GUILD,
      author,
      content: 'SECRET-HARMFUL-TEXT hxxps://casino-king[.]xyz/event',
      embeds: [],
      attachments: [],
    };
    discord.dispatch('MESSAGE_CREATE', clean);
    discord.dispatch('MESSAGE_CREATE', harmful);
    const reply = await discord.waitFor(() => discord.find('POST', `/api/v10/channels/${CHANNEL}/messages`)[0], 60_000);
    expect(reply.body.message_reference.message_id).toBe(harmful.id);
    expect(reply.body.allowed_mentions).toEqual({ parse: [] });
    expect(JSON.stringify(reply.body)).toContain('casino-king[.]xyz');
    await server.waitForOutput(/guard warned/);
    expect(discord.find('POST', `/api/v10/channels/${CHANNEL}/messages`)).toHaveLength(1);
    expect(server.output()).not.toMatch(/SECRET-(CLEAN|HARMFUL)-TEXT|casino-king/);
  }, 120_000);
});
