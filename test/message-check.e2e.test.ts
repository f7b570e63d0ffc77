import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { trainAndWrite } from '../scripts/train-message-model.js';
import { callJson, migratedDataDir, signUpOver, startServerProcess, stopServerProcess, type ServerProcess } from './helpers/process.js';

// One data directory per test: they run at once, and a directory is one process's.
const dataDirs = [0, 1, 2].map(() => migratedDataDir('aih-message-check-'));
const modelDir = mkdtempSync(join(tmpdir(), 'aih-message-model-'));
afterAll(() => [...dataDirs, modelDir].forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A family-impersonation text written for this test: no link, a new number, a gift card. */
const FAMILY_SCAM = '엄마 나 폰 액정 깨져서 수리 맡겼어 임시폰이라 이 번호로 문자줘 급하게 문화상품권 좀 사줄 수 있어?';

// Each test starts the service as `npm start` would, configured by environment variables only.
describe.concurrent('the message check in a server process', { timeout: 180_000 }, () => {
  it('judges a message without a link with the shipped model', async ({ expect }) => {
    let server: ServerProcess | undefined;
    try {
      server = startServerProcess({ DATA_DIR: dataDirs[0]!, URL_LIST_FEEDS: '', URL_LIST_REFRESH: 'off' });
      const base = `http://127.0.0.1:${await server.ready}`;
      const { apiKey } = await signUpOver(base, 'message-check');
      await callJson(base, 'POST', '/api/v1/subscriptions', { api: 'harmful-url-detection' }, { 'x-api-key': apiKey });
      const scam = await callJson(base, 'POST', '/api/v1/url/scan', { text: FAMILY_SCAM }, { 'x-api-key': apiKey });
      expect(scam.status).toBe(200);
      expect(scam.body).toMatchObject({ success: true, is_smishing: true, scam_type: 'family_impersonation', urls: [] });
      expect(server.output()).toContain('message model loaded');
      // The message is never logged.
      expect(server.output()).not.toContain('액정');
    } finally {
      await stopServerProcess(server);
    }
  });

  it('stops at start on a MESSAGE_MODEL it cannot read, naming the variable and the file', async ({ expect }) => {
    const server = startServerProcess({ DATA_DIR: dataDirs[1]!, MESSAGE_MODEL: join(modelDir, 'missing.json') });
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain(`MESSAGE_MODEL (${join(modelDir, 'missing.json')}) could not be loaded`);
    // At once: before the database is opened and its directory locked.
    expect(server.output()).not.toContain('database ready');
  });

  it('uses a model retrained by the script when MESSAGE_MODEL names it', async ({ expect }) => {
    const path = join(modelDir, 'message-model.json');
    const written = ['오늘 저녁 뭐 먹을까', '내일 회의 몇 시였지?', '사진 잘 받았어 고마워', '주말에 등산 갈 사람'];
    const scams = [
      FAMILY_SCAM,
      '아빠 나 폰 고장나서 새 카톡이야 급히 송금 좀 대신 해줄 수 있어?',
      '[국외발신] 해외승인 890,000원 결제완료 본인 아닐시 070-1234-5678',
    ];
    await trainAndWrite(
      path,
      { messages: [...scams, ...written].map((text, index) => ({ index, scam: index < scams.length, text })), notifications: [] },
      () => {},
    );
    let server: ServerProcess | undefined;
    try {
      server = startServerProcess({ DATA_DIR: dataDirs[2]!, MESSAGE_MODEL: path, URL_LIST_FEEDS: '', URL_LIST_REFRESH: 'off' });
      await server.ready;
      // Three scams: this model's, not the shipped one's (308).
      expect(server.output()).toMatch(/message model loaded \(3 scam and \d+ other messages\)/);
    } finally {
      await stopServerProcess(server);
    }
  });
});
