import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { urlListSources } from '../db/schema.js';
import { CHROMIUM, launchChromium, runBrowserTests } from './helpers/browser.js';
import { startTestApp, type TestApp } from './helpers/app.js';
import { makeDocument } from './helpers/id-documents.js';
import { renderImage } from './helpers/id-images.js';

/**
 * The developer portal in a real browser: Debian's Chromium driven by playwright-core.
 * `.ci/run` installs Chromium; without it this suite is reported as skipped, with the reason.
 */
/** The operator of this test server (ADMIN_EMAILS): the only account that sees the feeds. */
const OPERATOR_EMAIL = 'portal-operator@example.com';

describe.skipIf(!runBrowserTests)(`portal in Chromium (${CHROMIUM})`, () => {
  let app: TestApp;
  let browser: Browser;
  let landing: Server;
  let landingUrl: string;

  beforeAll(async () => {
    app = await startTestApp({ ADMIN_EMAILS: OPERATOR_EMAIL });
    landing = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<title>도착</title><h1>도착했습니다</h1>'),
    );
    await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
    landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}/landing`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    landing?.close();
    await app?.close();
  });

  it('signs up, creates a key, subscribes, shortens a URL and follows the short link', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } }); // a phone
    await page.goto(app.url);
    // The page's script draws its views after `goto` and each click returns: every check waits
    // for what it expects (read at once, "Create key" after the language switch failed once in CI).
    await page.getByRole('heading', { name: '가입 / 로그인' }).waitFor();

    await page.getByLabel('이메일').filter({ visible: true }).fill(`portal-${Date.now()}@example.com`);
    await page.getByLabel('비밀번호').filter({ visible: true }).fill('portal password');
    await page.getByRole('button', { name: '가입하기' }).click();
    await page.getByText('가입했습니다. 로그인했어요.').waitFor();

    await page.getByRole('button', { name: '새 키 만들기' }).click();
    await page.locator('#new-key').waitFor({ state: 'visible' });
    const key = (await page.locator('#new-key-value').textContent()) ?? '';
    expect(key).toMatch(/^aik_[0-9A-Za-z]{34}$/);
    expect(await page.locator('#try-key').inputValue()).toBe(key);

    await page.getByRole('button', { name: '구독: 유해 URL 탐지' }).click();
    await page.getByText('구독했습니다: 유해 URL 탐지').waitFor();
    await expect.poll(() => page.locator('#api-harmful-url-detection').textContent()).toContain('1,000');

    await page.getByLabel('기능').selectOption('url-shortener');
    await page.getByLabel('요청 본문 (JSON)').fill(JSON.stringify({ url: landingUrl }));
    await page.getByRole('button', { name: '보내기' }).click();
    await page.getByText('HTTP 200').waitFor();
    const answer = JSON.parse((await page.locator('#result-body').textContent()) ?? '{}');
    expect(answer).toMatchObject({ success: true, api: 'url-shortener', url: landingUrl, remaining: 999 });
    await expect.poll(() => page.locator('#api-url-shortener').textContent()).toContain('999 / 1,000');

    await page.getByRole('link', { name: '짧은 링크 열기' }).click();
    await page.waitForURL(landingUrl);
    await page.getByRole('heading', { name: '도착했습니다' }).waitFor();

    // The English toggle relabels the page.
    await page.goto(app.url);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('button', { name: 'Create key' }).waitFor();
    await page.close();
  });

  it('shortens several URLs at once and draws a link’s statistics with its QR code', async () => {
    const user = await app.signUp();
    const page = await browser.newPage({ viewport: { width: 1024, height: 900 } });
    await page.goto(app.url);
    await page.evaluate(
      (token) =>
        (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem('token', token),
      user.token,
    );
    await page.reload();
    await page.locator('#try-key').fill(user.apiKey);
    await page.getByLabel('줄일 URL (한 줄에 하나, 최대 100개)').fill(`${landingUrl}?a=1\nnot-a-url\n${landingUrl}?b=2`);
    await page.getByRole('button', { name: '한 번에 줄이기' }).click();
    await page.locator('#links-bulk-result li').nth(2).waitFor();
    const rows = await page.locator('#links-bulk-result li').allTextContents();
    expect(rows[0]).toMatch(/\/s\/[0-9A-Za-z]{5} \(만듦\)$/);
    expect(rows[1]).toContain('⚠');
    const shortUrl = (await page.locator('#links-bulk-result li a').first().textContent())!;
    await fetch(shortUrl, {
      redirect: 'manual',
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0 Safari/537.36' },
    });

    await page.getByLabel('통계를 볼 코드 또는 짧은 링크').fill(shortUrl);
    await page.getByRole('button', { name: '통계 보기' }).click();
    await page.locator('#links-state').waitFor();
    expect(await page.locator('#links-state').textContent()).toContain('사용 중');
    await expect.poll(() => page.locator('#links-stats').textContent()).toContain('Windows');
    expect(await page.locator('#links-stats meter').count()).toBeGreaterThan(4);
    const qr = page.locator('#links-stats img');
    await expect
      .poll(() =>
        qr.evaluate(
          (img) =>
            (img as unknown as { complete: boolean; naturalWidth: number }).complete &&
            (img as unknown as { naturalWidth: number }).naturalWidth,
        ),
      )
      .toBe(160);
    await page.close();
  });

  it('shows the harmful-URL feeds after login to an operator (ADMIN_EMAILS): name, category, entries, fetched at, last error', async () => {
    const fetchedAt = new Date('2026-11-22T06:00:04Z');
    await app.runtime.db.insert(urlListSources).values([
      {
        name: 'portal-gambling',
        url: 'http://127.0.0.1/gambling.txt',
        category: 'gambling',
        format: 'domains',
        entryCount: 12345,
        skippedCount: 2,
        fetchedAt,
        lastAttemptAt: fetchedAt,
        lastError: "2 lines not understood were skipped (e.g. '||ads.*^')",
      },
      {
        name: 'portal-malware',
        url: 'http://127.0.0.1/gone',
        category: 'malware',
        format: 'csv',
        entryCount: 0,
        lastAttemptAt: fetchedAt,
        lastError: 'HTTP 404',
      },
    ]);
    try {
      const page = await browser.newPage();
      await page.goto(app.url);
      await page.getByLabel('이메일').filter({ visible: true }).fill(OPERATOR_EMAIL);
      await page.getByLabel('비밀번호').filter({ visible: true }).fill('portal password');
      await page.getByRole('button', { name: '가입하기' }).click();
      await page.getByRole('heading', { name: '유해 URL 목록 상태' }).waitFor();
      const gambling = page.locator('#feed-portal-gambling');
      await gambling.waitFor();
      const row = (await gambling.textContent()) ?? '';
      expect(row).toContain('도박');
      expect(row).toContain('12,345');
      expect(row).toContain("'||ads.*^'");
      expect(row).toContain('2026');
      const failed = (await page.locator('#feed-portal-malware').textContent()) ?? '';
      expect(failed).toContain('악성코드');
      expect(failed).toContain('아직 받지 못함');
      expect(failed).toContain('HTTP 404');
      expect(await page.locator('#lists-summary').textContent()).toMatch(/지금 탐지에 쓰는 항목 [\d,]+개/);
      await page.close();
    } finally {
      await app.runtime.db.delete(urlListSources).where(like(urlListSources.name, 'portal-%'));
    }
  });

  it('shows a logged-out visitor what the service is, in either language, with terms and privacy', async () => {
    const page = await browser.newPage();
    await page.goto(app.url);
    const items = page.locator('#api-list li');
    // The eight APIs and the message check ("이거 스미싱이야?", POST /api/v1/url/scan).
    await expect.poll(() => items.count()).toBe(9);
    await expect(page.locator('#intro-translation').textContent()).resolves.toContain('한국어, 영어, 일본어, 중국어');
    // No LLM on this test server: the AI-only APIs say so in a customer's words, once.
    const translation = (await page.locator('#intro-translation').textContent()) ?? '';
    expect(translation).toContain('이 서버에서는 지금 쓸 수 없습니다 (AI 모델이 연결되어 있지 않습니다)');
    expect(translation).not.toMatch(/OPENAI|쓸 수 없음/);
    await expect(page.locator('#intro-delivery-tracking').textContent()).resolves.toContain('구독 후 사용');
    await expect(page.locator('#quota-note').textContent()).resolves.toContain('한 달에 1,000회까지 무료');
    await expect(page.locator('#example-request').textContent()).resolves.toContain(`${app.url}/api/v1/url/shorten`);
    expect(JSON.parse((await page.locator('#example-response').textContent()) ?? '{}')).toMatchObject({
      success: true,
      api: 'url-shortener',
    });

    // Everything switches to English, the API names too.
    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.locator('#intro-ocr-idcard strong').textContent()).resolves.toBe('ID card / business registration reader');
    await page.getByRole('heading', { name: 'The APIs' }).waitFor();
    await expect(page.locator('#quota-note').textContent()).resolves.toContain('1,000 times a month for free');
    const visible = await page.locator('body').innerText();
    expect(visible.replace(/한국어/g, '')).not.toMatch(/[가-힣]/);

    // The privacy notice, in the language chosen, says what happens to resident numbers.
    await page.getByRole('link', { name: 'Privacy notice' }).first().click();
    await page.waitForURL(`${app.url}/privacy`);
    await page.getByRole('heading', { name: 'Privacy notice' }).waitFor();
    await page.getByRole('button', { name: '한국어' }).click();
    const notice = await page.locator('main').innerText();
    expect(notice).toContain('주민등록번호');
    expect(notice).toContain('저장하지 않습니다');
    expect((await page.goto(`${app.url}/terms`))?.status()).toBe(200);
    await page.getByRole('heading', { name: '이용약관' }).waitFor();
    await page.close();
  });

  it('try it: clears the old answer on a new request, and reads an ID image picked from disk', async () => {
    const user = await app.signUp();
    const page = await browser.newPage();
    await page.goto(app.url);
    await page.evaluate((token) => (globalThis as any).sessionStorage.setItem('token', token), user.token);
    await page.goto(app.url);
    await page.locator('#try-key').fill(user.apiKey);

    await page.getByLabel('기능').selectOption('url-shortener');
    await page.getByLabel('요청 본문 (JSON)').fill(JSON.stringify({ url: 'https://www.example.com/a' }));
    await page.getByRole('button', { name: '보내기' }).click();
    await page.getByText('HTTP 200').waitFor();

    // A request that is refused before it leaves the page leaves no old answer behind.
    await page.getByLabel('요청 본문 (JSON)').fill('{ not json');
    await page.getByRole('button', { name: '보내기' }).click();
    await expect.poll(() => page.locator('#result-body').textContent()).toBe('');
    await expect(page.locator('#result-status').textContent()).resolves.toBe('');

    const spec = makeDocument('resident', 1, 0);
    const png = await renderImage(spec, 'clean', 1);
    await page.getByLabel('기능').selectOption('ocr-idcard');
    await page.getByLabel('신분증·사업자등록증 이미지 또는 PDF').setInputFiles({ name: 'card.png', mimeType: 'image/png', buffer: png });
    await expect.poll(() => page.getByLabel('요청 본문 (JSON)').inputValue()).toContain('card.png');
    await page.getByRole('button', { name: '보내기' }).click();
    await page.getByText('HTTP 200').waitFor({ timeout: 60_000 });
    const answer = JSON.parse((await page.locator('#result-body').textContent()) ?? '{}');
    expect(answer).toMatchObject({ success: true, api: 'ocr-idcard', info: { name: spec.expected.name } });
    expect(answer.info.id_number).toMatch(/^\d{6}-\d\*{6}$/);
    // The image was read in the browser and sent; nothing of it was kept in the page's storage.
    expect(
      await page.evaluate(() => JSON.stringify({ ...(globalThis as any).localStorage, ...(globalThis as any).sessionStorage })),
    ).not.toContain('base64');
    await page.close();
  }, 120_000);

  it('serves the OpenAPI document and the interactive docs', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/docs`);
    await page.getByText('AI Utility Hub API').first().waitFor();
    await page.getByText('/api/v1/url/shorten').first().waitFor();
    await page.close();
  });
});
