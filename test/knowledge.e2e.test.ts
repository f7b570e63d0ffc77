import { rmSync } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePages, type FakePages } from './fakes/page-server.js';
import { slackSignature, startFakeSlack, type FakeSlack } from './fakes/slack-server.js';
import { pdfWithImage } from './helpers/id-pdf.js';
import { base64, docxWithText, koreanFont, pdfWithText } from './helpers/knowledge-files.js';
import { migratedDataDir, startServerProcess, type ServerProcess } from './helpers/process.js';

/**
 * Issue 39 on the production path: a server process configured by environment variables only
 * (no injected options), with the real OCR engine for a scanned PDF, the production page policy
 * (the loopback page is out of reach: SSRF), bulk loading, and a Slack thread saved and asked
 * about through the signed Slack door.
 */
const SECRET = 'e2e-signing-secret';
const BOT_TOKEN = 'xoxb-e2e-token';
const TEAM = 'TE2E';
const dataDir = migratedDataDir('aih-knowledge-e2e-');
let slack: FakeSlack;
let pages: FakePages;
let server: ServerProcess | undefined;
let base = '';
let key = '';

beforeAll(async () => {
  slack = await startFakeSlack({ botToken: BOT_TOKEN, teamId: TEAM });
  pages = await startFakePages();
  server = startServerProcess({
    DATA_DIR: dataDir,
    SLACK_SIGNING_SECRET: SECRET,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_API_URL: slack.apiUrl,
    LOG_LEVEL: 'info',
  });
  base = `http://127.0.0.1:${await server.ready}`;
  const email = `kb-e2e-${Date.now()}@example.com`;
  expect((await call('/api/v1/auth/register', { email, password: 'long enough pw' })).status).toBe(201);
  const token = (await call('/api/v1/auth/login', { email, password: 'long enough pw' })).body.token;
  key = (await call('/api/v1/keys', { name: 'e2e' }, { authorization: `Bearer ${token}` })).body.api_key;
}, 180_000);

afterAll(async () => {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  await slack?.close();
  await pages?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}
const rag = (body: unknown) => call('/api/v1/chatbot/rag', body, { 'x-api-key': key });

async function slackPost(body: string, contentType: string) {
  const timestamp = Math.floor(Date.now() / 1000);
  const res = await fetch(`${base}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(SECRET, timestamp, body),
    },
    body,
  });
  return res.status;
}

/** A scanned page: Korean text drawn large on white, as a photo of a printed notice. */
function scannedPage(lines: string[]): Buffer {
  const font = koreanFont();
  const canvas = createCanvas(1240, 1754);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#111111';
  ctx.font = `44px ${font}`;
  lines.forEach((line, i) => ctx.fillText(line, 90, 200 + i * 90));
  return canvas.toBuffer('image/png');
}

describe('knowledge from files, pages and threads, on the server process', { timeout: 240_000 }, () => {
  it('reads a text PDF, a scanned PDF (OCR) and a DOCX, loads entries in bulk, and refuses a loopback page', async () => {
    const text = await rag({
      action: 'index',
      file: { name: '복지.pdf', base64: base64(pdfWithText([['건강검진은 매년 10월에 회사 지정 병원에서 받습니다.']])) },
    });
    expect(text.status, JSON.stringify(text.body)).toBe(200);
    const scan = await pdfWithImage(scannedPage(['보안 점검 안내', '서버실 출입 카드는 총무팀에서', '발급합니다.']));
    const scanned = await rag({ action: 'index', file: { name: '스캔본.pdf', base64: base64(scan) } });
    expect(scanned.status, JSON.stringify(scanned.body)).toBe(200);
    const docx = await rag({
      action: 'index',
      file: { name: '경비.docx', base64: base64(await docxWithText('경비 규정', ['택시비는 밤 10시 이후 퇴근 시에만 지원합니다.'])) },
    });
    expect(docx.status).toBe(200);
    const bulk = await rag({ action: 'index', entries: Array.from({ length: 12 }, (_, i) => ({ content: `공지 ${i}: 내용 ${i}` })) });
    expect(bulk.status).toBe(200);
    expect(bulk.body.ids).toHaveLength(12);

    const checkup = await rag({ action: 'chat', message: '건강검진은 언제 받나요?' });
    expect(checkup.body.answer).toContain('10월');
    expect(checkup.body.sources[0].source).toBe('복지.pdf');
    const card = await rag({ action: 'chat', message: '서버실 출입 카드는 어디서 발급하나요?' });
    expect(card.body.answer).toContain('총무팀');
    expect(card.body.sources[0].source).toBe('스캔본.pdf');
    expect((await rag({ action: 'chat', message: '택시비는 언제 지원하나요?' })).body.answer).toContain('밤 10시');

    // The production policy: a page on this machine's loopback is an internal address.
    pages.routes.set('/notice', { body: '<html><head><title>t</title></head><body><p>내부 페이지</p></body></html>' });
    const inside = await rag({ action: 'index', url: pages.url('/notice') });
    expect(inside.status).toBe(400);
    expect(inside.body.error).toContain('내부망');
    expect(pages.requests).toEqual([]);
  });

  it('saves a Slack thread with the shortcut and answers a mention in the thread, quoting it', async () => {
    const admin = slack.responseUrl();
    await slackPost(
      new URLSearchParams({
        team_id: TEAM,
        channel_id: 'CE2E',
        user_id: 'UADMIN',
        command: '/link',
        text: key,
        response_url: admin,
        trigger_id: 't0',
      }).toString(),
      'application/x-www-form-urlencoded',
    );
    slack.setUser('UADMIN', { is_admin: true });
    await slack.waitFor(() => slack.responses(admin)[0]);
    slack.setThread('CE2E', '100.1', [
      { type: 'message', user: 'UASK', text: '회의실 예약은 어디서 하나요?', ts: '100.1' },
      { type: 'message', user: 'UANS', text: '<@UASK> 그룹웨어 자원예약 메뉴에서 하면 됩니다.', ts: '100.2', thread_ts: '100.1' },
    ]);
    const saved = slack.responseUrl();
    const payload = {
      type: 'message_action',
      callback_id: 'save_knowledge',
      trigger_id: 't1',
      team: { id: TEAM },
      user: { id: 'UASK' },
      channel: { id: 'CE2E' },
      message: { type: 'message', user: 'UASK', text: '회의실 예약은 어디서 하나요?', ts: '100.1' },
      message_ts: '100.1',
      response_url: saved,
    };
    expect(await slackPost(new URLSearchParams({ payload: JSON.stringify(payload) }).toString(), 'application/x-www-form-urlencoded')).toBe(
      200,
    );
    expect(JSON.stringify(await slack.waitFor(() => slack.responses(saved)[0]?.body, 60_000))).toContain('지식으로 저장했습니다');

    const mention = {
      team_id: TEAM,
      api_app_id: 'A1',
      type: 'event_callback',
      event_id: 'EvE2E1',
      event: { type: 'app_mention', user: 'UOTHER', ts: '200.1', text: '<@UBOT> 회의실 예약은 어디서 하나요?', channel: 'CE2E' },
    };
    expect(await slackPost(JSON.stringify(mention), 'application/json')).toBe(200);
    const posted = await slack.waitFor(() => slack.api('chat.postMessage').find((call) => call.body.thread_ts === '200.1')?.body, 60_000);
    expect(JSON.stringify(posted.blocks)).toContain('자원예약');
    expect(JSON.stringify(posted.blocks)).toContain('https://hub-test.slack.com/archives/CE2E/p1001');
  });
});
