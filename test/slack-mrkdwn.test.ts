import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeSlackText, slackMessageUrls } from '../bots/slack/mrkdwn.js';
import { sharedDataPath, sharedDataPresent } from './helpers/shared-data.js';

/** Recorded Slack payloads, read in place (../shared/data/chat-payloads, see its README). */
const PAYLOADS = sharedDataPath('chat-payloads/slack/');
const hasPayloads = sharedDataPresent('chat-payloads/slack/');
const payload = (name: string) => JSON.parse(readFileSync(`${PAYLOADS}${name}`, 'utf8'));

describe('decoding Slack text', () => {
  it('decodes what Slack sends for typed &, < and >, links and mentions', () => {
    expect(decodeSlackText('R&amp;D &lt;필독&gt;')).toBe('R&D <필독>');
    expect(decodeSlackText('<https://www.example.com/p?a=1&amp;b=2>')).toBe('https://www.example.com/p?a=1&b=2');
    expect(decodeSlackText('https://www.example.com/p?a=1&amp;b=2')).toBe('https://www.example.com/p?a=1&b=2');
    expect(decodeSlackText('<http://example.com|example.com>')).toBe('http://example.com');
    expect(decodeSlackText('see <https://chat.zulip.org/|the docs> now')).toBe('see the docs now');
    expect(decodeSlackText('<mailto:a@b.kr|a@b.kr>')).toBe('a@b.kr');
    expect(decodeSlackText('<@U123> and <@U456|kim> in <#C1|general> <!here> <!subteam^S1|@dev>')).toBe(
      '@U123 and @kim in #general @here @dev',
    );
    expect(decodeSlackText('<!date^1392734382^{date}|Feb 18, 2014>')).toBe('Feb 18, 2014');
    // Decoded once: a user who typed "&lt;" gets "&lt;" back.
    expect(decodeSlackText('&amp;lt;')).toBe('&lt;');
  });
});

describe.skipIf(!hasPayloads)('recorded Slack messages', () => {
  it('reads quotes, code blocks and broadcast mentions as the reader saw them', () => {
    expect(decodeSlackText(payload('zulip_message_with_quote_block.json').event.text)).toBe('> This is a quote');
    expect(decodeSlackText(payload('zulip_message_with_code_block.json').event.text)).toContain('->');
    expect(decodeSlackText(payload('zulip_message_with_workspace_mentions.json').event.text)).toMatch(/^@channel @here Sorry/);
    expect(decodeSlackText(payload('vercel-chat_channel-mention-slack.json').mention.event.text)).toBe(
      '@U00FAKEBOT01 Can you see the name of this channel: #C00FAKECHAN2?',
    );
  });

  it('finds the links of a bot message that carries them only in attachments and blocks', () => {
    const event = payload('zulip_message_from_slack_integration_bot.json').event;
    expect(slackMessageUrls({ text: event.text })).toEqual([]);
    expect(slackMessageUrls(event)).toEqual(['https://app.clickup.com/t/25567147/86cw30wf2']);
  });

  it('finds a labelled link once, whether in text, unfurl or rich text', () => {
    const message = payload('zulip_exported_message_with_links.json');
    expect(decodeSlackText(message.text).split('\n')[0]).toBe('Text with a link');
    expect(slackMessageUrls(message)).toEqual(['https://chat.zulip.org/']);
  });
});
