import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { subscriptions } from '../db/schema.js';
import { isForbiddenAddress } from '../src/net/address-policy.js';
import { createPageFetcher } from '../src/operations/chatbot/page-fetch.js';
import { startFakePages, type FakePages } from './fakes/page-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { base64, docxWithText, pdfWithText } from './helpers/knowledge-files.js';

const PATH = '/api/v1/chatbot/rag';
/** The fake site is on loopback: the app's page policy lets 127.0.0.1 through, and nothing else the production policy refuses. */
const LOOPBACK_ONLY = { isForbidden: (address: string) => address !== '127.0.0.1' && isForbiddenAddress(address) };

let app: TestApp;
let pages: FakePages;
let user: TestUser;

beforeAll(async () => {
  pages = await startFakePages();
  app = await startTestApp({}, { chatbot: { pages: { policy: LOOPBACK_ONLY, totalMs: 1500, maxBytes: 256 * 1024 } } });
  user = await app.signUp();
});
afterAll(async () => {
  await app?.close();
  await pages?.close();
});

const ask = async (message: string, scope?: string | string[], who = user) =>
  (await app.post(PATH, { action: 'chat', message, ...(scope ? { scope } : {}) }, who.apiKey)).body;

describe('index {file}: one entry per file, its name kept and shown in answers', () => {
  it('reads a PDF text layer (every page), a DOCX, Markdown, HTML and plain text', async () => {
    const files = [
      {
        name: '휴가 규정.pdf',
        data: pdfWithText([['연차 휴가는 입사 1년 후 15일이 주어집니다.'], ['경조사 휴가는 본인 결혼 시 5일입니다.']]),
        question: '본인 결혼 경조사 휴가는 며칠인가요?',
        expected: '5일',
      },
      {
        name: '출장비.docx',
        data: await docxWithText('출장 규정', ['국내 출장 일비는 하루 3만원을 지급합니다.', '숙박비는 실비로 정산합니다.']),
        question: '국내 출장 일비는 하루 얼마인가요?',
        expected: '3만원',
      },
      {
        name: 'onboarding.md',
        data: Buffer.from('# 입사 안내\n\n- **노트북 수령**은 첫날 오전 IT 지원실에서 합니다.\n- 사원증은 인사팀에서 발급합니다.\n'),
        question: '노트북 수령은 어디서 하나요?',
        expected: 'IT 지원실',
      },
      {
        name: '주차.html',
        data: Buffer.from(
          '<!doctype html><html><head><title>주차 안내</title><script>document.write("스크립트 글")</script></head>' +
            '<body><p>방문객 주차는 지하 2층 B구역을 이용합니다.</p></body></html>',
        ),
        question: '방문객 주차는 어디에 하나요?',
        expected: '지하 2층',
      },
      {
        name: '와이파이.txt',
        data: Buffer.from('\ufeff손님용 와이파이 이름은 GUEST-5G이고 비밀번호는 안내 데스크에서 받습니다.\r\n'),
        question: '손님용 와이파이 이름이 뭔가요?',
        expected: 'GUEST-5G',
      },
    ];
    const ids: number[] = [];
    for (const file of files) {
      const res = await app.post(PATH, { action: 'index', file: { name: file.name, base64: base64(file.data) } }, user.apiKey);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ success: true, id: expect.any(Number), source: file.name, chars: expect.any(Number) });
      ids.push(res.body.id);
    }
    const list = await app.post(PATH, { action: 'list' }, user.apiKey);
    const html = list.body.knowledge_list.find((entry: { source: string }) => entry.source === '주차.html');
    // Scripts are never run nor kept: only the page's text.
    expect(html.content).not.toContain('스크립트');
    expect(list.body.knowledge_list.find((entry: { source: string }) => entry.source === '휴가 규정.pdf').content).toContain(
      '경조사 휴가는 본인 결혼 시 5일입니다.',
    );
    for (const [i, file] of files.entries()) {
      const body = await ask(file.question);
      expect(body.answer, file.name).toContain(file.expected);
      expect(body.sources[0]).toMatchObject({ id: ids[i], source: file.name, url: null });
      expect(body.passage).toContain(file.expected);
    }
  });

  it('refuses what it cannot read with a clear 4xx, free of charge', async () => {
    const before = await app.remaining(user.apiKey, 'chatbot-rag');
    const cases: Array<[object, number, RegExp]> = [
      [{ name: '보고서.hwp', base64: base64('HWP Document File') }, 422, /PDF나 DOCX로 저장/],
      [{ name: 'fake.pdf', base64: base64('not a pdf at all') }, 400, /PDF 파일이 아닙니다/],
      [{ name: 'broken.pdf', base64: base64('%PDF-1.4\n garbage') }, 400, /PDF를 읽지 못했습니다/],
      [{ name: 'fake.docx', base64: base64('plain text') }, 400, /DOCX 파일이 아닙니다/],
      [{ name: 'image.png', base64: base64('\x89PNG') }, 422, /PDF, DOCX, Markdown/],
      [{ name: 'empty.txt', base64: base64('   ') }, 422, /읽을 수 있는 글자가 없습니다/],
      [{ name: 'a.txt' }, 400, /file\.base64/],
    ];
    for (const [file, status, message] of cases) {
      const res = await app.post(PATH, { action: 'index', file }, user.apiKey);
      expect(res.status, JSON.stringify(file)).toBe(status);
      expect(res.body.error).toMatch(message);
    }
    const both = await app.post(PATH, { action: 'index', content: 'x', file: { name: 'a.txt', base64: base64('y') } }, user.apiKey);
    expect(both.status).toBe(400);
    expect(await app.remaining(user.apiKey, 'chatbot-rag')).toBe(before);
  });
});

describe('index {entries}: bulk loading, one charge per entry, one gate turn', () => {
  it('adds 16 entries in one call (no 429 from the concurrency gate) and charges 16', async () => {
    const bulkUser = await app.signUp();
    const before = (await app.remaining(bulkUser.apiKey, 'chatbot-rag'))!;
    const rooms = [
      '한라',
      '백두',
      '지리',
      '설악',
      '태백',
      '소백',
      '덕유',
      '계룡',
      '속리',
      '월악',
      '오대',
      '치악',
      '가야',
      '내장',
      '무등',
      '주왕',
    ];
    const entries = rooms.map((room, i) => ({ content: `${room}실 회의실은 본관 ${i + 3}층에 있습니다.`, source: `${room}실` }));
    const res = await app.post(PATH, { action: 'index', entries }, bulkUser.apiKey);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.ids).toHaveLength(16);
    expect(res.body.entries[0]).toEqual({ id: res.body.ids[0], source: '한라실', chars: entries[0]!.content.length });
    expect(res.body.remaining).toBe(before - 16);
    expect(await app.remaining(bulkUser.apiKey, 'chatbot-rag')).toBe(before - 16);
    const body = await ask('계룡실 회의실은 몇 층에 있나요?', undefined, bulkUser);
    expect(body.answer).toContain('10층');
    expect(body.sources[0]).toMatchObject({ id: res.body.ids[7], source: '계룡실' });
  });

  it('a batch larger than the quota left is a 429 before any work, with nothing stored or charged', async () => {
    const small = await app.signUp();
    await app.runtime.db
      .update(subscriptions)
      .set({ remaining: 3 })
      .where(and(eq(subscriptions.accountId, small.accountId), eq(subscriptions.api, 'chatbot-rag')));
    const entries = Array.from({ length: 5 }, (_, i) => ({ content: `항목 ${i}` }));
    const res = await app.post(PATH, { action: 'index', entries }, small.apiKey);
    expect(res.status).toBe(429);
    const list = await app.post(PATH, { action: 'list' }, small.apiKey);
    expect(list.body.total).toBe(0);
    expect(list.body.remaining).toBe(2); // the list call itself
  });

  it('refuses more than 100 entries, an empty list and a bad entry, naming what to fix', async () => {
    const many = await app.post(PATH, { action: 'index', entries: Array.from({ length: 101 }, () => ({ content: 'a' })) }, user.apiKey);
    expect(many.status).toBe(400);
    expect(many.body.error).toContain('100개까지');
    const empty = await app.post(PATH, { action: 'index', entries: [] }, user.apiKey);
    expect(empty.status).toBe(400);
    const bad = await app.post(PATH, { action: 'index', entries: [{ content: 'a', url: 'https://example.com' }] }, user.apiKey);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('하나만');
  });
});

describe('index {url}: public pages only, every hop checked', () => {
  it('stores the main text of an HTML page with its title and URL (without its query) as the source', async () => {
    pages.routes.set('/notice', {
      body:
        '<html><head><title>사내 공지</title></head><body><nav>홈 | 공지 | 메뉴</nav><article><h1>보안 교육</h1>' +
        '<p>전 직원 보안 교육은 12월 3일 오후 2시에 대강당에서 열립니다. 불참자는 온라인으로 다시 듣습니다.</p>'.repeat(3) +
        '</article><footer>저작권 표시</footer></body></html>',
    });
    // The page's query (it may carry a token) is not kept with the source.
    pages.routes.set('/moved', { status: 301, location: '/notice?session=s3cr3t' });
    const res = await app.post(PATH, { action: 'index', url: pages.url('/moved') }, user.apiKey);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.source).toBe('사내 공지');
    const body = await ask('보안 교육은 언제 어디서 열리나요?');
    expect(body.answer).toContain('대강당');
    expect(body.sources[0]).toMatchObject({ id: res.body.id, source: '사내 공지', url: pages.url('/notice') });
    const list = await app.post(PATH, { action: 'list', limit: 1 }, user.apiKey);
    expect(list.body.knowledge_list[0].content).not.toContain('저작권');
  });

  it('reads a PDF page, and refuses other types, errors, oversize and slow pages', async () => {
    pages.routes.set('/rules.pdf', { type: 'application/pdf', body: pdfWithText([['식대는 한 끼 1만 2천원까지 법인카드로 결제합니다.']]) });
    const pdf = await app.post(PATH, { action: 'index', url: pages.url('/rules.pdf') }, user.apiKey);
    expect(pdf.status, JSON.stringify(pdf.body)).toBe(200);
    expect((await ask('식대는 한 끼 얼마까지인가요?')).answer).toContain('1만 2천원');

    pages.routes.set('/image', { type: 'image/png', body: Buffer.from('\x89PNG') });
    pages.routes.set('/json', { type: 'application/json', body: '{}' });
    pages.routes.set('/gone', { status: 404 });
    pages.routes.set('/huge', { huge: true });
    pages.routes.set('/slow', { slow: true });
    const cases: Array<[string, number, RegExp]> = [
      ['/image', 422, /HTML 페이지와 PDF만/],
      ['/json', 422, /HTML 페이지와 PDF만/],
      ['/gone', 422, /HTTP 404/],
      ['/huge', 413, /너무 큽니다/],
      ['/slow', 504, /초 안에/],
    ];
    const before = await app.remaining(user.apiKey, 'chatbot-rag');
    for (const [path, status, message] of cases) {
      const res = await app.post(PATH, { action: 'index', url: pages.url(path) }, user.apiKey);
      expect(res.status, path).toBe(status);
      expect(res.body.error).toMatch(message);
    }
    expect(await app.remaining(user.apiKey, 'chatbot-rag')).toBe(before);
  });

  it('SSRF: internal addresses are refused at the first hop and at every redirect, before any connection', async () => {
    const targets = [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.1/',
      'http://[::1]/',
      'http://0.0.0.0/',
      'http://[::ffff:169.254.169.254]/',
    ];
    for (const target of targets) {
      const direct = await app.post(PATH, { action: 'index', url: target }, user.apiKey);
      expect(direct.status, target).toBe(400);
      expect(direct.body.error).toContain('내부망');
      pages.routes.set('/to-inside', { status: 302, location: target });
      const redirected = await app.post(PATH, { action: 'index', url: pages.url('/to-inside') }, user.apiKey);
      expect(redirected.status, target).toBe(400);
      expect(redirected.body.error).toContain('내부망');
    }
    for (const location of ['file:///etc/passwd', 'gopher://127.0.0.1:25/']) {
      pages.routes.set('/to-scheme', { status: 302, location });
      const res = await app.post(PATH, { action: 'index', url: pages.url('/to-scheme') }, user.apiKey);
      expect(res.status).toBe(422);
    }
    for (const url of ['ftp://example.com/a', 'http://user:pw@example.com/', 'javascript:alert(1)']) {
      expect((await app.post(PATH, { action: 'index', url }, user.apiKey)).status, url).toBe(400);
    }
    // A name that resolves inside is refused too (the resolver's answer is checked, then pinned).
    const fetcher = createPageFetcher({ resolve: async () => [{ address: '192.168.0.10', family: 4 }] });
    await expect(fetcher('http://intranet.example/')).rejects.toMatchObject({ status: 400 });
    // With the production policy, the loopback fake itself is out of reach.
    const production = createPageFetcher();
    await expect(production(pages.url('/notice'))).rejects.toMatchObject({ status: 400, message: expect.stringContaining('내부망') });
  });
});

describe('scope: per-channel knowledge never answers elsewhere', () => {
  it('searches the given scopes with the common entries, and nothing of another scope', async () => {
    const owner = await app.signUp();
    const entries = [
      { content: '디자인팀 주간 회의는 월요일 오전 11시에 합니다.', scope: 'slack:CDESIGN' },
      { content: '개발팀 주간 회의는 화요일 오후 4시에 합니다.', scope: 'slack:CDEV' },
      { content: '전사 월례 회의는 매달 첫째 금요일 오후 5시에 합니다.' },
    ];
    const stored = await app.post(PATH, { action: 'index', entries }, owner.apiKey);
    expect(stored.status).toBe(200);
    const [design, dev, common] = stored.body.ids as number[];

    const inDesign = await ask('디자인팀 주간 회의는 언제인가요?', 'slack:CDESIGN', owner);
    expect(inDesign.sources[0].id).toBe(design);
    expect(inDesign.sources.map((s: { id: number }) => s.id)).not.toContain(dev);
    // Asked in the design channel, the dev team's meeting is not known there.
    const devFromDesign = await ask('개발팀 주간 회의는 언제인가요?', 'slack:CDESIGN', owner);
    expect(devFromDesign.answer).not.toContain('화요일');
    expect(devFromDesign.sources.map((s: { id: number }) => s.id)).not.toContain(dev);
    // Without a scope: common entries only.
    const unscoped = await ask('개발팀 주간 회의는 언제인가요?', undefined, owner);
    expect(unscoped.sources.map((s: { id: number }) => s.id)).not.toContain(dev);
    expect((await ask('전사 월례 회의는 언제인가요?', 'slack:CDEV', owner)).sources[0].id).toBe(common);
    expect((await ask('개발팀 주간 회의는 언제인가요?', ['slack:CDEV', 'discord-server:1'], owner)).sources[0].id).toBe(dev);

    const listed = await app.post(PATH, { action: 'list', scope: 'slack:CDEV' }, owner.apiKey);
    expect(listed.body.knowledge_list.map((e: { id: number }) => e.id).sort()).toEqual([dev, common].sort());
    expect(listed.body.total).toBe(2);
    const all = await app.post(PATH, { action: 'list' }, owner.apiKey);
    expect(all.body.total).toBe(3);
    expect(all.body.knowledge_list.find((e: { id: number }) => e.id === design).scope).toBe('slack:CDESIGN');

    // Another account's scope of the same name sees nothing of this one.
    const other = await app.signUp();
    expect((await ask('디자인팀 주간 회의는 언제인가요?', 'slack:CDESIGN', other)).sources).toEqual([]);
    const bad = await app.post(PATH, { action: 'chat', message: 'a', scope: 'a\u0000b' }, owner.apiKey);
    expect(bad.status).toBe(400);
  });
});
