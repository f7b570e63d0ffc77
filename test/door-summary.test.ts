import { describe, expect, it } from 'vitest';
import { doorLogLines } from '../bots/door-summary.js';
import { loadConfig } from '../src/config.js';

const KEY = 'a'.repeat(64);
const lines = (env: Record<string, string>) =>
  doorLogLines(loadConfig({ PUBLIC_BASE_URL: 'https://hub.example.com', ...env })).map((line) => line.message);

describe('the start-up lines about the chat doors', () => {
  it('says which doors are on and how', () => {
    expect(
      lines({
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 's',
        DISCORD_APPLICATION_ID: '1',
        DISCORD_PUBLIC_KEY: KEY,
        DISCORD_BOT_TOKEN: 't',
      }),
    ).toEqual([
      'Slack bot on: http POST https://hub.example.com/slack/events',
      'Discord bot on: http POST https://hub.example.com/discord/interactions',
    ]);
    expect(lines({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_APP_TOKEN: 'xapp-1', DISCORD_GATEWAY: '1', DISCORD_BOT_TOKEN: 't' })[0]).toBe(
      'Slack bot on: socket-mode',
    );
    expect(lines({ DISCORD_GATEWAY: '1', DISCORD_BOT_TOKEN: 't' })[1]).toBe(
      'Discord bot on: gateway (not yet: DISCORD_APPLICATION_ID and DISCORD_PUBLIC_KEY for HTTP interactions)',
    );
  });

  it('names what is missing for a door that is off or half set up', () => {
    expect(lines({})).toEqual([
      'Slack bot off: set SLACK_BOT_TOKEN (xoxb-…); SLACK_SIGNING_SECRET for HTTP events, or SLACK_APP_TOKEN (xapp-…) for Socket Mode',
      'Discord bot off: set DISCORD_APPLICATION_ID and DISCORD_PUBLIC_KEY for HTTP interactions, or DISCORD_GATEWAY=1 with DISCORD_BOT_TOKEN for the gateway',
    ]);
    expect(lines({ SLACK_SIGNING_SECRET: 's', DISCORD_APPLICATION_ID: '1', DISCORD_PUBLIC_KEY: KEY })).toEqual([
      'Slack bot off: set SLACK_BOT_TOKEN (xoxb-…)',
      'Discord bot on: http POST https://hub.example.com/discord/interactions (not yet: DISCORD_BOT_TOKEN to post parcel-watch notices to channels and to register commands)',
    ]);
  });
});

describe('Discord command definitions', () => {
  it('require the /idcard image, offer /link to Manage Server only, and name the /translate languages', async () => {
    const { discordCommandDefinitions } = await import('../bots/discord/definitions.js');
    const byName = Object.fromEntries(discordCommandDefinitions().map((command) => [command.name, command as any]));
    expect(byName.idcard.options).toEqual([expect.objectContaining({ name: 'image', type: 11, required: true })]);
    expect(byName.link.default_member_permissions).toBe('32'); // MANAGE_GUILD
    expect(byName.ask.default_member_permissions).toBeUndefined();
    const target = byName.translate.options.find((option: any) => option.name === 'target');
    expect(target.choices).toContainEqual(
      expect.objectContaining({ name: '영어 (en)', value: 'en', name_localizations: expect.objectContaining({ 'en-US': 'English (en)' }) }),
    );
  });

  it('reads the language names Slack users type', async () => {
    const { languageCode } = await import('../bots/commands/languages.js');
    expect(['영어', '일본어', '중국어', '한국어', 'Japanese', 'EN', 'zh'].map(languageCode)).toEqual([
      'en',
      'ja',
      'zh',
      'ko',
      'ja',
      'en',
      'zh',
    ]);
    expect(languageCode('프랑스어')).toBe('프랑스어');
  });
});
