import { describe, expect, it } from 'vitest';
import { isMostlyKorean } from '../bots/commands/message-actions.js';
import { findCommand } from '../bots/commands/registry.js';
import { createCommandRateLimiter } from '../bots/commands/rate-limit.js';
import { localeOf } from '../bots/commands/texts.js';
import { unwrapSlackLink, urlsIn } from '../bots/commands/urls.js';
import { sameCommands } from '../bots/discord/register-commands.js';
import { toDiscordMessage } from '../bots/discord/render.js';
import { discordPublicKey, verifyDiscordRequest } from '../bots/discord/verify.js';
import { parseSlackText } from '../bots/slack/parse-text.js';
import { toSlackMessage } from '../bots/slack/render.js';
import { discordKeyPair } from './fakes/discord-server.js';

const command = (name: string) => findCommand(name)!;

describe('Slack command text', () => {
  it('reads the options in order, the last one taking the rest with its line breaks', () => {
    expect(parseSlackText(command('tone'), 'casual  안녕하세요\n반갑습니다')).toEqual({ style: 'casual', text: '안녕하세요\n반갑습니다' });
    expect(parseSlackText(command('track'), 'kr.cjlogistics 1234-5678 watch')).toEqual({
      carrier: 'kr.cjlogistics',
      number: '1234-5678',
      watch: 'watch',
    });
    expect(parseSlackText(command('kb'), 'delete 12')).toEqual({ sub: 'delete', id: '12' });
    expect(parseSlackText(command('kb'), 'add 첫 줄 둘째 줄')).toEqual({ sub: 'add', content: '첫 줄 둘째 줄' });
  });

  it('takes a trailing 공개/public only where a public answer is allowed', () => {
    expect(parseSlackText(command('translate'), 'en 안녕 공개')).toEqual({ public: true, target: 'en', text: '안녕' });
    expect(parseSlackText(command('shorten'), 'https://a.example PUBLIC')).toEqual({ public: true, url: 'https://a.example' });
    expect(parseSlackText(command('generate'), '공개 행사 안내문 public')).toEqual({ prompt: '공개 행사 안내문 public' });
  });

  it('coerces words through the command schema', () => {
    const parsed = command('track').schema.parse(parseSlackText(command('track'), 'cj 1234 watch'));
    expect(parsed).toMatchObject({ carrier: 'cj', number: '1234', watch: true, public: false });
    expect(command('kb').schema.safeParse({ sub: 'delete', id: 'abc' }).success).toBe(false);
    expect(command('kb').schema.parse({ sub: 'delete', id: '7' })).toEqual({ sub: 'delete', id: 7 });
  });
});

describe('message helpers', () => {
  it('finds every URL of a message once, in Slack and plain form', () => {
    expect(urlsIn('a <https://x.example/a|x> b https://y.example/b, and https://y.example/b.')).toEqual([
      'https://x.example/a',
      'https://y.example/b',
    ]);
    expect(urlsIn('no links here')).toEqual([]);
    expect(unwrapSlackLink('<https://x.example/p?q=1|x.example>')).toBe('https://x.example/p?q=1');
  });

  it('tells Korean messages from others', () => {
    expect(isMostlyKorean('내일 회의는 3시입니다')).toBe(true);
    expect(isMostlyKorean('Meeting at 3 pm, 회의')).toBe(false);
    expect(isMostlyKorean('12345')).toBe(false);
  });

  it('hands carrier names to the core, and a bare number to detection', () => {
    // Carrier names are resolved by the core (test/delivery-carriers.test.ts); a bare number asks for detection.
    expect(command('track').schema.parse(parseSlackText(command('track'), '6408-1234-5678 watch'))).toMatchObject({
      carrier: 'auto',
      number: '6408-1234-5678',
      watch: true,
    });
    expect(command('track').schema.parse(parseSlackText(command('track'), 'EE123456789KR'))).toMatchObject({
      carrier: 'auto',
      number: 'EE123456789KR',
      watch: false,
    });
    expect(command('track').schema.parse(parseSlackText(command('track'), '우체국 6123456789012'))).toMatchObject({
      carrier: '우체국',
      number: '6123456789012',
    });
  });

  it('reads English locales as English, everything else as Korean', () => {
    expect([localeOf('en-US'), localeOf('en-GB'), localeOf('ko'), localeOf('ko-KR'), localeOf(undefined), localeOf('ja')]).toEqual([
      'en',
      'en',
      'ko',
      'ko',
      'ko',
      'ko',
    ]);
  });

  it('limits a user to max commands per window', () => {
    const limiter = createCommandRateLimiter({ max: 2, windowMs: 10_000 });
    expect([limiter.take('u', 0), limiter.take('u', 1), limiter.take('u', 2), limiter.take('v', 2)]).toEqual([0, 0, 10, 0]);
    expect(limiter.take('u', 10_001)).toBe(0);
  });
});

describe('rendering', () => {
  const reply = {
    title: 'T'.repeat(400),
    text: '<b>&</b>',
    fields: Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, value: 'v'.repeat(3000) })),
    context: 'ctx',
    tone: 'ok' as const,
  };

  it('keeps Block Kit within Slack limits and escapes user text', () => {
    const message = toSlackMessage(reply);
    const header = message.blocks[0] as { text: { text: string } };
    expect([...header.text.text].length).toBeLessThanOrEqual(150);
    expect(JSON.stringify(message.blocks[1])).toContain('&lt;b&gt;&amp;&lt;/b&gt;');
    const sections = message.blocks.filter((block) => block.type === 'section' && 'fields' in block) as Array<{
      fields: Array<{ text: string }>;
    }>;
    expect(sections.every((section) => section.fields.length <= 10 && section.fields.every((field) => field.text.length <= 2000))).toBe(
      true,
    );
    expect(message.blocks.at(-1)?.type).toBe('context');
  });

  it('keeps embeds within Discord limits and pings nobody', () => {
    const message = toDiscordMessage(reply);
    const embed = message.embeds[0] as { title: string; fields: Array<{ value: string }> };
    expect([...embed.title].length).toBeLessThanOrEqual(256);
    expect(embed.fields).toHaveLength(25);
    expect(embed.fields.every((field) => [...field.value].length <= 1024)).toBe(true);
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });
});

describe('Discord signature', () => {
  const keys = discordKeyPair();
  const key = discordPublicKey(keys.publicKeyHex);
  const now = 1_800_000_000;
  const body = Buffer.from('{"type":1}');

  it('accepts a signature over timestamp + body, and nothing else', () => {
    const signature = keys.sign(String(now), body.toString());
    expect(verifyDiscordRequest(key, signature, String(now), body, now)).toBe(true);
    expect(verifyDiscordRequest(key, signature, String(now), Buffer.from('{"type":2}'), now)).toBe(false);
    expect(verifyDiscordRequest(key, signature, String(now + 1), body, now)).toBe(false);
    expect(verifyDiscordRequest(key, undefined, String(now), body, now)).toBe(false);
    expect(verifyDiscordRequest(key, 'zz', String(now), body, now)).toBe(false);
  });

  it('refuses a timestamp more than five minutes away', () => {
    const old = now - 301;
    expect(verifyDiscordRequest(key, keys.sign(String(old), body.toString()), String(old), body, now)).toBe(false);
  });
});

describe('command registration diff', () => {
  const wanted = [{ name: 'ask', type: 1, description: '질문', options: [{ name: 'q', type: 3, description: 'q', required: false }] }];

  it('ignores what Discord adds and the defaults it drops', () => {
    const existing = [
      {
        id: '1',
        version: '2',
        application_id: '3',
        nsfw: false,
        default_member_permissions: null,
        name: 'ask',
        type: 1,
        description: '질문',
        options: [{ name: 'q', type: 3, description: 'q' }],
      },
    ];
    expect(sameCommands(wanted, existing)).toBe(true);
  });

  it('sees a changed description, a missing command or an extra one', () => {
    expect(sameCommands(wanted, [{ name: 'ask', type: 1, description: '다름', options: [{ name: 'q', type: 3, description: 'q' }] }])).toBe(
      false,
    );
    expect(sameCommands(wanted, [])).toBe(false);
    expect(
      sameCommands(wanted, [
        { name: 'ask', type: 1, description: '질문', options: [{ name: 'q', type: 3, description: 'q' }] },
        { name: 'x', type: 1, description: 'x' },
      ]),
    ).toBe(false);
  });
});

describe('Slack file downloads', () => {
  it('sends the bot token only to Slack hosts or the configured API host', async () => {
    const { slackImage } = await import('../bots/slack/files.js');
    const foreign = slackImage(
      { mimetype: 'image/png', url_private_download: 'https://evil.example/f.png' },
      'xoxb-secret',
      'https://slack.com/api/',
    );
    await expect(foreign()).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    const tooBig = slackImage(
      { mimetype: 'image/png', size: 11 * 1024 * 1024, url_private_download: 'https://files.slack.com/f.png' },
      'xoxb-secret',
      'https://slack.com/api/',
    );
    await expect(tooBig()).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('chat file downloads are bounded (#33 item 2)', () => {
  it('stops an endless file at 10 MB with 413 and hangs up, whatever its headers claim', async () => {
    const { createServer } = await import('node:http');
    const { downloadImage } = await import('../bots/commands/download.js');
    const { streamForever } = await import('./fakes/endless-body.js');
    let sent = 0;
    let hungUp = () => {};
    const closed = new Promise<void>((resolve) => (hungUp = resolve));
    const server = createServer((_req, res) => {
      res.once('close', hungUp);
      streamForever(res, (bytes) => (sent += bytes), 'image/png');
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as import('node:net').AddressInfo;
      await expect(downloadImage(`http://127.0.0.1:${port}/f.png`)).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      await closed;
      expect(sent).toBeLessThan(32 * 1024 * 1024);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
