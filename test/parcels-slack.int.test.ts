import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeSlack } from './fakes/slack-server.js';
import { findCommand } from '../bots/commands/registry.js';
import { parseSlackText } from '../bots/slack/parse-text.js';
import { ev, type FakeTracker } from './fakes/tracker-server.js';
import { slashCommands } from './helpers/slack-commands.js';
import type { TestApp, TestUser } from './helpers/app.js';
import { startParcelWorkspace, type ParcelWorkspace } from './helpers/parcel-workspace.js';

/** Issue 38 through the real Slack door: `/track <번호>` alone, a correction the workspace remembers, `/track digest on`. */
const SECRET = 'watch-signing-secret';
const BOT_TOKEN = 'xoxb-watch-bot';
const TEAM = `TP${process.pid}`;
let slack: FakeSlack;
let tracker: FakeTracker;
let app: TestApp;
let owner: TestUser;
let counter = 0;
let workspace: ParcelWorkspace | undefined;

beforeAll(async () => {
  workspace = await startParcelWorkspace({ team: TEAM, secret: SECRET, botToken: BOT_TOKEN, bucket: 'parcels-slack' });
  ({ slack, tracker, app, owner } = workspace);
});
afterAll(() => workspace?.close());

const slash = slashCommands({ appUrl: () => app.url, slack: () => slack, secret: SECRET, team: TEAM });

const textOf = (message: any) => JSON.stringify(message?.blocks ?? []) + (message?.text ?? '');

/** A 12-digit number with the mod-7 check digit (CJ, Lotte, Hanjin), unique to this run. */
function number(): string {
  const body = `3${String(process.pid % 1000).padStart(3, '0')}${String((Date.now() + ++counter) % 10_000_000).padStart(7, '0')}`;
  return `${body}${BigInt(body) % 7n}`;
}
const track = findCommand('track')!;
const parse = (text: string) => track.schema.parse(parseSlackText(track, text));

describe('/track forms', () => {
  it('reads a number alone, the number then the carrier, and digest on/off', () => {
    expect(parse('640812345670')).toMatchObject({ carrier: 'auto', number: '640812345670', watch: false });
    expect(parse('640812345670 한진')).toMatchObject({ carrier: '한진', number: '640812345670', watch: false });
    expect(parse('6408-1234-5670 롯데 watch')).toMatchObject({ carrier: '롯데', number: '6408-1234-5670', watch: true });
    expect(parse('한진 640812345670 watch')).toMatchObject({ carrier: '한진', number: '640812345670', watch: true });
    expect(parse('digest on 08:30')).toMatchObject({ carrier: 'digest', number: 'on 08:30' });
    expect(parse('digest off')).toMatchObject({ carrier: 'digest', number: 'off' });
  });
});

describe('parcels in Slack', () => {
  it('/track <번호> finds the carrier; /track <번호> <택배사> corrects it for this workspace', async () => {
    const id = number();
    tracker.parcel('kr.cjlogistics', id, { events: [ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP', '집화처리', '성수')] });
    tracker.parcel('kr.hanjin', id, { events: [ev('2026-11-20T10:00:00+09:00', 'IN_TRANSIT', '간선상차', '대전HUB')] });
    const guessed = await (await slash('/track', id, 'C-PARCEL')).response();
    expect(textOf(guessed)).toContain('CJ대한통운');
    expect(textOf(guessed)).toContain('한진택배에서도 이 번호가 조회됩니다');
    expect(textOf(guessed)).toContain('예상 도착');
    const corrected = await (await slash('/track', `${id} 한진`, 'C-PARCEL')).response();
    expect(textOf(corrected)).toContain('한진택배');
    const remembered = await (await slash('/track', id, 'C-PARCEL')).response();
    expect(textOf(remembered)).toContain('한진택배');
    expect(textOf(remembered)).not.toContain('CJ대한통운');
  });

  it("/track digest on sets the channel's daily digest time, off clears it", async () => {
    const id = number();
    tracker.parcel('kr.cjlogistics', id, { events: [ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP', '집화처리', '성수')] });
    await (await slash('/track', `CJ ${id} watch`, 'C-DIGESTS')).response();
    const on = await (await slash('/track', 'digest on 08:30', 'C-DIGESTS')).response();
    expect(textOf(on)).toContain('매일 08:30에 배송 요약');
    expect((await app.runtime.watches.list(owner.accountId)).find((w) => w.track_id === id)).toMatchObject({ digest_at: '08:30' });
    const bad = await (await slash('/track', 'digest on 25:00', 'C-DIGESTS')).response();
    expect(textOf(bad)).toContain('사용법');
    const off = await (await slash('/track', 'digest off', 'C-DIGESTS')).response();
    expect(textOf(off)).toContain('배송 요약을 껐어요');
    expect((await app.runtime.watches.list(owner.accountId)).find((w) => w.track_id === id)).toMatchObject({ digest_at: null });
  });
});
