import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeSlack } from './fakes/slack-server.js';
import { ev, type FakeTracker } from './fakes/tracker-server.js';
import { slashCommands } from './helpers/slack-commands.js';
import type { TestApp, TestUser } from './helpers/app.js';
import { startParcelWorkspace, type ParcelWorkspace } from './helpers/parcel-workspace.js';

/** `/track … watch` through the real Slack door, in a channel the bot cannot post to. */
const SECRET = 'watch-signing-secret';
const BOT_TOKEN = 'xoxb-watch-bot';
const TEAM = `TW${process.pid}`;
let slack: FakeSlack;
let tracker: FakeTracker;
let app: TestApp;
let owner: TestUser;
let workspace: ParcelWorkspace | undefined;

beforeAll(async () => {
  workspace = await startParcelWorkspace({ team: TEAM, secret: SECRET, botToken: BOT_TOKEN, bucket: 'watch-slack' });
  ({ slack, tracker, app, owner } = workspace);
});
afterAll(() => workspace?.close());

const slash = slashCommands({ appUrl: () => app.url, slack: () => slack, secret: SECRET, team: TEAM });

const textOf = (message: any) => JSON.stringify(message?.blocks ?? []) + (message?.text ?? '');

describe('/track … watch in Slack', () => {
  it('answers privately that the bot cannot post in a channel it has not joined, and keeps no watch', async () => {
    const body = `3${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 10_000_000).padStart(7, '0')}`;
    const id = `${body}${BigInt(body) % 7n}`; // a CJ-format number no other run uses (the cache persists on PostgreSQL)
    tracker.parcel('kr.cjlogistics', id, { events: [ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP', '집화처리', '성수')] });
    slack.refuseChannel('C-NOBOT', 'not_in_channel');
    const answer = await (await slash('/track', `${id} watch`, 'C-NOBOT')).response();
    expect(answer.response_type ?? 'ephemeral').toBe('ephemeral');
    expect(textOf(answer)).toContain('/invite');
    expect(textOf(answer)).not.toContain('알려 드릴게요');
    expect(await app.runtime.watches.list(owner.accountId)).toEqual([]);

    const joined = await (await slash('/track', `CJ ${id} watch`, 'C-JOINED')).response();
    expect(textOf(joined)).toContain('알려 드릴게요');
    const posts = slack.api('chat.postMessage').filter((call) => call.body.channel === 'C-JOINED');
    expect(posts.map((call) => call.body.text)).toEqual([
      `🔔 CJ대한통운 ${id} 배송 상태가 바뀌면 이 채널에 알려 드립니다 (배송 완료 또는 30일까지).`,
    ]);
    expect((await app.runtime.watches.list(owner.accountId)).map((watch) => [watch.carrier_id, watch.target])).toEqual([
      ['kr.cjlogistics', { type: 'slack', channel_id: 'C-JOINED' }],
    ]);
  });
});
