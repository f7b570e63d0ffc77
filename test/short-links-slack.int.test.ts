import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannelNotifier } from '../bots/notifier.js';
import { loadConfig } from '../src/config.js';
import type { UrlSafetyChecker } from '../src/operations/url-detect/checker.js';
import { startFakeSlack, type FakeSlack } from './fakes/slack-server.js';
import { slashCommands } from './helpers/slack-commands.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

/**
 * Issue 40 item 6 through the real Slack door and bolt's WebClient against the fake: a link made
 * with `/shorten` in a channel, later found harmful by the rescan, is announced in that channel.
 */
const SECRET = 'links-signing-secret';
const BOT_TOKEN = 'xoxb-links-bot';
const TEAM = `TL${process.pid}`;
const harmful = new Set<string>();
const checker: UrlSafetyChecker = {
  check: async (url) =>
    harmful.has(url)
      ? { isMalicious: true, category: 'phishing', reason: '<!channel> 피싱 목록에 오른 주소입니다.' }
      : { isMalicious: false, category: 'clean', reason: '알려진 위험 신호가 없습니다.' },
  listCheck: () => undefined,
};
let slack: FakeSlack;
let app: TestApp;
let owner: TestUser;

beforeAll(async () => {
  slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM });
  const env = { SLACK_SIGNING_SECRET: SECRET, SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_API_URL: slack.apiUrl };
  app = await startTestApp(env, {
    urlChecker: checker,
    watches: { notifier: createChannelNotifier(loadConfig({ ...env, LOG_LEVEL: 'silent' })) },
  });
  owner = await app.signUp();
  slack.setUser('UADMIN', { is_admin: true });
  await (await slash('/link', owner.apiKey, 'C1', 'UADMIN')).response();
});
afterAll(async () => {
  await app?.close();
  await slack?.close();
});

const slash = slashCommands({ appUrl: () => app.url, slack: () => slack, secret: SECRET, team: TEAM });

const textOf = (message: any) => JSON.stringify(message?.blocks ?? []) + (message?.text ?? '');

describe('a short link made in Slack that turns harmful', () => {
  it('is announced in the channel it was made in: the short link and why, no clickable target, no mention', async () => {
    const url = `https://turns-bad-${process.pid}.example/landing`;
    const answer = await (await slash('/shorten', url, 'C-LINKS')).response();
    const code = /\/s\/([0-9A-Za-z]{5})/.exec(textOf(answer))?.[1];
    expect(code).toBeDefined();
    harmful.add(url);
    const before = slack.api('chat.postMessage').length;
    expect((await app.runtime.linkRescan.runOnce(0)).harmful).toBe(1);
    const post = await slack.waitFor(() => slack.api('chat.postMessage')[before]);
    expect(post.body.channel).toBe('C-LINKS');
    const text = String(post.body.text);
    expect(text).toContain(`/s/${code}`);
    expect(text).toContain('피싱');
    expect(text).not.toContain('turns-bad');
    expect(text).not.toContain('<!channel>');
    expect(post.body.unfurl_links === false || post.body.unfurl_links === 'false').toBe(true);
    expect((await fetch(`${app.url}/s/${code}`, { redirect: 'manual' })).status).toBe(403);
  });
});
