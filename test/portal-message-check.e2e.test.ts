import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, launchChromium, runBrowserTests } from './helpers/browser.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * Issue 47's portal items in Chromium: the landing page says 스미싱 and lists the message check,
 * "try it" offers `/url/scan` with a Korean message and shows its verdict in words, and the
 * English usage says "1 call", not "1 calls".
 */
describe.skipIf(!runBrowserTests)(`portal: the message check and English counts (${CHROMIUM})`, () => {
  let app: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function open(lang: 'ko' | 'en', token?: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(app.url);
    await page.evaluate(
      ([language, session]) => {
        (globalThis as any).localStorage.setItem('lang', language);
        if (session) (globalThis as any).sessionStorage.setItem('token', session);
      },
      [lang, token ?? ''] as const,
    );
    await page.goto(app.url);
    await page.locator(token ? '#account' : '#intro-url-scan').waitFor({ state: 'visible' });
    return page;
  }

  it('says 스미싱 on the landing page and lists the message check with its path', async () => {
    const page = await open('ko');
    expect(await page.locator('.lead').textContent()).toContain('스미싱');
    const item = (await page.locator('#intro-url-scan').textContent()) ?? '';
    expect(item).toContain('이거 스미싱이야?');
    expect(item).toContain('POST /api/v1/url/scan');
    expect(item).toContain('구독 후 사용');
    await page.close();
  });

  it('tries /url/scan with a Korean message and shows the verdict above the JSON', async () => {
    const user = await app.signUp();
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, user.apiKey);
    const page = await open('ko', user.token);
    await page.locator('#try-api').selectOption('url-scan');
    const example = JSON.parse(await page.locator('#try-body').inputValue()) as { text: string };
    expect(example.text).toMatch(/[가-힣].*https?:\/\//);
    await page.locator('#try-key').fill(user.apiKey);
    await page.locator('#send').click();
    await page.locator('#result-verdict').waitFor({ state: 'visible' });
    const answer = JSON.parse((await page.locator('#result-body').textContent()) ?? '{}');
    const verdict = (await page.locator('#result-verdict').textContent()) ?? '';
    expect(verdict).toContain(answer.is_smishing ? '스미싱으로 보입니다' : '스미싱 징후를 찾지 못했습니다');
    // The message judge's fields, when the answer carries them.
    if (answer.scam_label) expect(verdict).toContain(answer.scam_label);
    if (typeof answer.score === 'number') expect(verdict).toContain(`점수 ${answer.score.toFixed(2)}`);
    await page.close();
  });

  it('counts in English with the noun agreeing: 1 call, 2 calls', async () => {
    const user = await app.signUp();
    await app.post('/api/v1/url/shorten', { url: 'https://example.com/one' }, user.apiKey);
    const page = await open('en', user.token);
    const card = page.locator('#api-url-shortener');
    await expect(card.textContent()).resolves.toContain('1 call this period');
    expect(await page.locator('#usage').textContent()).not.toMatch(/\b1 calls\b/);
    await page.close();
  });
});
