import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * The developer portal in a real browser: Debian's Chromium driven by playwright-core.
 * `.ci/run` installs Chromium; without it this suite is reported as skipped, with the reason.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`[portal browser test] SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium)`);

describe.skipIf(!hasChromium)(`portal in Chromium (${CHROMIUM})`, () => {
  let app: TestApp;
  let browser: Browser;
  let landing: Server;
  let landingUrl: string;

  beforeAll(async () => {
    app = await startTestApp();
    landing = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<title>도착</title><h1>도착했습니다</h1>'));
    await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
    landingUrl = `http://127.0.0.1:${(landing.address() as AddressInfo).port}/landing`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    landing?.close();
    await app?.close();
  });

  it('signs up, creates a key, subscribes, shortens a URL and follows the short link', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } }); // a phone
    await page.goto(app.url);
    await expect(page.getByRole('heading', { name: '가입 / 로그인' }).isVisible()).resolves.toBe(true);

    await page.getByLabel('이메일').fill(`portal-${Date.now()}@example.com`);
    await page.getByLabel('비밀번호 (8자 이상)').fill('portal password');
    await page.getByRole('button', { name: '가입하기' }).click();
    await page.getByText('가입했습니다. 로그인했어요.').waitFor();

    await page.getByRole('button', { name: '새 키 만들기' }).click();
    await page.locator('#new-key').waitFor({ state: 'visible' });
    const key = (await page.locator('#new-key-value').textContent()) ?? '';
    expect(key).toMatch(/^aik_[0-9A-Za-z]{34}$/);
    expect(await page.locator('#try-key').inputValue()).toBe(key);

    await page.getByRole('button', { name: '구독: 유해 URL 탐지' }).click();
    await page.getByText('구독했습니다: 유해 URL 탐지').waitFor();
    await expect.poll(() => page.locator('#api-harmful-url-detection').textContent()).toContain('1000');

    await page.getByLabel('기능').selectOption('url-shortener');
    await page.getByLabel('요청 본문 (JSON)').fill(JSON.stringify({ url: landingUrl }));
    await page.getByRole('button', { name: '보내기' }).click();
    await page.getByText('HTTP 200').waitFor();
    const answer = JSON.parse((await page.locator('#result-body').textContent()) ?? '{}');
    expect(answer).toMatchObject({ success: true, api: 'url-shortener', url: landingUrl, remaining: 999 });
    await expect.poll(() => page.locator('#api-url-shortener').textContent()).toContain('999');

    await page.getByRole('link', { name: '짧은 링크 열기' }).click();
    await page.waitForURL(landingUrl);
    await expect(page.getByRole('heading', { name: '도착했습니다' }).isVisible()).resolves.toBe(true);

    // The English toggle relabels the page.
    await page.goto(app.url);
    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('button', { name: 'Create key' }).isVisible()).resolves.toBe(true);
    await page.close();
  });

  it('serves the OpenAPI document and the interactive docs', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/docs`);
    await page.getByText('AI Utility Hub API').first().waitFor();
    await expect(page.getByText('/api/v1/url/shorten').first().isVisible()).resolves.toBe(true);
    await page.close();
  });
});
