import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UrlSafetyChecker, UrlVerdict } from '../src/operations/url-detect/checker.js';
import { createMessageImageDecoder } from '../src/providers/message-image.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

/** Issue 36 (bulk, limits, QR, UTM, stats, preview) and issue 40 item 6 (rescan), over real HTTP on PGlite and PostgreSQL. */
const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SLACKBOT = 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)';

/** The checker behind check_harmful, the shortener's list refusal and the rescan: a fake of its declared interface. */
const harmful = new Set<string>();
const listed = new Set<string>(['https://listed.example/']);
const verdict = (url: string): UrlVerdict =>
  harmful.has(url) || listed.has(url)
    ? { isMalicious: true, category: 'phishing', reason: '피싱으로 확인된 주소입니다.' }
    : { isMalicious: false, category: 'clean', reason: '알려진 위험 신호가 없습니다.' };
const checker: UrlSafetyChecker = {
  check: async (url) => verdict(url),
  listCheck: (url) => (listed.has(url) ? verdict(url) : undefined),
};
const posted: Array<{ channelId: string; text: string }> = [];

let now = Date.parse('2026-11-27T03:00:00Z');
let app: TestApp;
let user: TestUser;
beforeAll(async () => {
  app = await startTestApp(
    { PUBLIC_BASE_URL: 'http://127.0.0.1:1', DEFAULT_QUOTA: '1000' },
    {
      clock: () => new Date(now),
      urlChecker: checker,
      watches: {
        notifier: {
          platforms: ['slack'],
          post: async (target, message) => (posted.push({ channelId: target.channelId, text: message.text }), { ok: true }),
          postToUser: async () => ({ ok: true }),
        },
      },
    },
  );
  user = await app.signUp();
});
afterAll(() => app?.close());

const shorten = (body: unknown, key = user.apiKey) => app.post('/api/v1/url/shorten', body, key);
const bulk = (body: unknown, key = user.apiKey) => app.post('/api/v1/url/shorten/bulk', body, key);
const stats = (code: string, key = user.apiKey) => app.get(`/api/v1/url/shorten/${code}/stats`, { 'x-api-key': key });
/** A click as a browser (or the given agent) makes it, from an address behind the local proxy. */
function click(code: string, options: { ua?: string; ip?: string; accept?: string; query?: string; referer?: string } = {}) {
  return fetch(`${app.url}/s/${code}${options.query ?? ''}`, {
    redirect: 'manual',
    headers: {
      'user-agent': options.ua ?? BROWSER,
      accept: options.accept ?? 'text/html',
      ...(options.ip ? { 'x-forwarded-for': options.ip } : {}),
      ...(options.referer ? { referer: options.referer } : {}),
    },
  });
}

describe('POST /api/v1/url/shorten/bulk', () => {
  it('answers every item in order with its own body and charges one call per link made', async () => {
    const me = await app.signUp();
    const before = await app.remaining(me.apiKey, 'url-shortener');
    await shorten({ url: 'https://bulk.example/already' }, me.apiKey);
    const res = await bulk(
      {
        urls: [
          'https://bulk.example/a',
          'not a url',
          'https://listed.example/',
          'https://bulk.example/already',
          'https://bulk.example/b',
          42,
        ],
      },
      me.apiKey,
    );
    expect(res.status).toBe(200);
    const [a, bad, listedOne, already, b, notString] = res.body.results;
    expect(a).toMatchObject({
      success: true,
      url: 'https://bulk.example/a',
      created: true,
      short_url: expect.stringMatching(/\/s\/[0-9A-Za-z]{5}$/),
    });
    expect(bad).toMatchObject({ success: false, code: 400, error_code: 'INVALID_REQUEST', field: 'url' });
    expect(bad.error).toMatch(/[가-힣]/);
    expect(listedOne).toMatchObject({ success: false, code: 422, is_malicious: true, category: 'phishing', reason: expect.any(String) });
    expect(already).toMatchObject({ success: true, created: false });
    expect(b).toMatchObject({ success: true, created: true });
    expect(notString).toMatchObject({ success: false, code: 400 });
    expect(res.body).toMatchObject({ created: 2, failed: 3, api: 'url-shortener' });
    // One call for the single shorten before, two for the links made; failures and the existing link are free.
    expect(await app.remaining(me.apiKey, 'url-shortener')).toBe(before! - 3);
    expect(res.body.remaining).toBe(before! - 3);
  });

  it('takes items with their own options, and nothing is charged when nothing is made', async () => {
    const me = await app.signUp();
    const before = await app.remaining(me.apiKey, 'url-shortener');
    const res = await bulk(
      {
        items: [
          { url: 'https://bulk.example/x', max_clicks: 2 },
          { url: 'https://bulk.example/y', utm: { source: 'a', medium: 'b', campaign: 'c' } },
        ],
      },
      me.apiKey,
    );
    expect(res.body.results[0]).toMatchObject({ success: true, max_clicks: 2 });
    expect(res.body.results[1].url).toBe('https://bulk.example/y?utm_source=a&utm_medium=b&utm_campaign=c');
    const defaults = await bulk(
      { items: [{ url: 'https://bulk.example/z' }, { url: 'https://bulk.example/w', max_clicks: 9 }], max_clicks: 4 },
      me.apiKey,
    );
    expect(defaults.body.results.map((item: { max_clicks: number }) => item.max_clicks)).toEqual([4, 9]);
    expect(await app.remaining(me.apiKey, 'url-shortener')).toBe(before! - 4);

    const none = await bulk({ urls: ['nope', 'https://listed.example/'] }, me.apiKey);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ created: 0, failed: 2 });
    expect(await app.remaining(me.apiKey, 'url-shortener')).toBe(before! - 4);
  });

  it('refuses a malformed request as a whole: 400 naming the field', async () => {
    for (const body of [
      {},
      { urls: [] },
      { urls: Array.from({ length: 101 }, (_, i) => `https://e.example/${i}`) },
      { urls: ['https://a.example/'], items: [{ url: 'https://a.example/' }] },
      { urls: 'https://a.example/' },
    ]) {
      const res = await bulk(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toMatchObject({ success: false, code: 400, error_code: 'INVALID_REQUEST', field: 'urls' });
    }
  });

  it('gives 429 bodies to the items past the quota, and 403 once for check_harmful without the subscription', async () => {
    const small = await startTestApp({ DEFAULT_QUOTA: '2' }, { urlChecker: checker });
    try {
      const me = await small.signUp();
      const res = await small.post(
        '/api/v1/url/shorten/bulk',
        { urls: ['https://q.example/1', 'https://q.example/2', 'https://q.example/3'] },
        me.apiKey,
      );
      expect(res.body.results.map((item: { success: boolean; code: number | string }) => (item.success ? 200 : item.code))).toEqual([
        200, 200, 429,
      ]);
      expect(res.body.results[2].error_code).toBe('QUOTA_EXCEEDED');
      const fresh = await small.signUp();
      const check = await small.post('/api/v1/url/shorten/bulk', { urls: ['https://q.example/4'], check_harmful: true }, fresh.apiKey);
      expect(check.status).toBe(403);
      expect(check.body).toMatchObject({ error_code: 'SUBSCRIPTION_REQUIRED' });
      expect(await small.remaining(fresh.apiKey, 'url-shortener')).toBe(2);
    } finally {
      await small.close();
    }
  });
});

describe('expires_at and max_clicks', () => {
  it('redirects until the expiry, then answers 410 with a Korean page that does not reveal the target', async () => {
    const res = await shorten({ url: 'https://expiry.example/secret-path', expires_at: new Date(now + 3600_000).toISOString() });
    expect(res.status).toBe(200);
    expect(res.body.expires_at).toBe(new Date(now + 3600_000).toISOString());
    const code = res.body.code;
    expect((await click(code)).status).toBe(302);
    now += 2 * 3600_000;
    const gone = await click(code);
    expect(gone.status).toBe(410);
    const page = await gone.text();
    expect(page).toContain('유효 기간이 지난 링크');
    expect(page).not.toContain('expiry.example');
    const json = await click(code, { accept: 'application/json' });
    expect(await json.json()).toMatchObject({ success: false, code: 410, error_code: 'GONE' });
    expect((await stats(code)).body.status).toBe('expired');
    expect((await fetch(`${app.url}/s/${code}+`, { headers: { accept: 'text/html' } })).status).toBe(410);
  });

  it('refuses an expiry in the past or a bad max_clicks with 400 naming the field', async () => {
    expect((await shorten({ url: 'https://e.example/', expires_at: new Date(now - 1000).toISOString() })).body).toMatchObject({
      code: 400,
      field: 'expires_at',
    });
    expect((await shorten({ url: 'https://e.example/', expires_at: 'tomorrow' })).body).toMatchObject({ code: 400, field: 'expires_at' });
    expect((await shorten({ url: 'https://e.example/', max_clicks: 0 })).body).toMatchObject({ code: 400, field: 'max_clicks' });
    expect((await shorten({ url: 'https://e.example/', utm: { source: 'a' } })).body).toMatchObject({ code: 400 });
  });

  it('lets exactly max_clicks people through; bots and link previewers never use one up', async () => {
    const first = await shorten({ url: 'https://limit.example/', max_clicks: 3 });
    const second = await shorten({ url: 'https://limit.example/', max_clicks: 3 });
    expect(second.body.code).not.toBe(first.body.code); // a limited link is never shared
    const code = first.body.code;
    expect((await click(code, { ua: SLACKBOT })).status).toBe(302);
    expect((await click(code, { ua: 'Discordbot/2.0' })).status).toBe(302);
    for (let i = 0; i < 3; i++) expect((await click(code)).status).toBe(302);
    const gone = await click(code);
    expect(gone.status).toBe(410);
    expect(await gone.text()).toContain('클릭 수를 모두 사용');
    expect((await click(code, { ua: SLACKBOT })).status).toBe(410);
    const body = (await stats(code)).body;
    expect(body).toMatchObject({ status: 'used_up', max_clicks: 3, clicks_used: 3 });
    expect(body.clicks).toMatchObject({ human: 3, bot: 2 }); // a 410 is no click
  });

  it('stays exact under 200 concurrent clicks on one instance', async () => {
    const { code } = (await shorten({ url: 'https://race.example/', max_clicks: 37 })).body;
    const statuses = await Promise.all(Array.from({ length: 200 }, () => click(code).then((res) => res.status)));
    expect(statuses.filter((status) => status === 302)).toHaveLength(37);
    expect(statuses.filter((status) => status === 410)).toHaveLength(163);
  });
});

describe('QR codes', () => {
  it('draws the short link with the ?qr=1 marker as SVG and PNG, and scans are counted apart', async () => {
    const { code, short_url } = (await shorten({ url: 'https://qr.example/page' })).body;
    const decoder = createMessageImageDecoder();
    const svg = await fetch(`${app.url}/s/${code}/qr`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const svgText = await svg.text();
    expect(svgText).toContain('<svg');
    expect(await decoder.qrText(Buffer.from(svgText))).toBe(`${short_url}?qr=1`);
    const png = await fetch(`${app.url}/s/${code}/qr?format=png&size=200`);
    expect(png.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await png.arrayBuffer());
    expect(bytes.readUInt32BE(16)).toBe(200); // IHDR width
    expect(await decoder.qrText(bytes)).toBe(`${short_url}?qr=1`);

    expect((await fetch(`${app.url}/s/${code}/qr?format=gif`)).status).toBe(400);
    expect(((await (await fetch(`${app.url}/s/${code}/qr?size=9999`)).json()) as { field: string }).field).toBe('size');
    expect((await fetch(`${app.url}/s/ZZZZZ/qr`)).status).toBe(404);

    await click(code, { query: '?qr=1' });
    await click(code, { query: '?qr=1' });
    await click(code);
    const body = (await stats(code)).body;
    expect(body.clicks).toMatchObject({ total: 3, qr: 2, direct: 1 });
    expect(body.clicks.daily.at(-1).qr).toBe(2);
  });
});

describe('utm', () => {
  it('appends the tags once-encoded, keeps the target’s own parameters, and dedupes on the final target', async () => {
    const utm = { source: 'news letter', medium: 'e&mail', campaign: '겨울' };
    const res = await shorten({ url: 'https://utm.example/p?a=1&b=%20x&utm_source=old#frag', utm });
    expect(res.body.url).toBe(
      'https://utm.example/p?a=1&b=%20x&utm_source=news%20letter&utm_medium=e%26mail&utm_campaign=%EA%B2%A8%EC%9A%B8#frag',
    );
    const again = await shorten({ url: res.body.url });
    expect(again.body.code).toBe(res.body.code);
    const plain = await shorten({ url: 'https://utm.example/p?a=1&b=%20x&utm_source=old#frag' });
    expect(plain.body.code).not.toBe(res.body.code);
    expect((await click(res.body.code)).headers.get('location')).toBe(res.body.url);
  });
});

describe('GET /api/v1/url/shorten/{code}/stats', () => {
  it('tells people from bots, counts unique visitors per day by hash, and names referrers and families', async () => {
    const { code } = (await shorten({ url: 'https://stats.example/' })).body;
    await click(code, { ip: '203.0.113.7', referer: 'https://news.example.kr/a?x=1' });
    await click(code, { ip: '203.0.113.7', referer: 'https://news.example.kr/b' });
    await click(code, { ip: '198.51.100.9', ua: DESKTOP });
    await click(code, { ua: SLACKBOT });
    const body = (await stats(code)).body;
    expect(body.clicks).toMatchObject({ total: 4, human: 3, bot: 1 });
    expect(body.unique_visitors).toEqual([{ date: '2026-11-27', visitors: 2 }]);
    expect(body.referrers).toEqual(
      expect.arrayContaining([
        { host: 'news.example.kr', clicks: 2 },
        { host: '(direct)', clicks: 1 },
      ]),
    );
    expect(body.devices).toEqual(
      expect.arrayContaining([
        { name: 'mobile', clicks: 2 },
        { name: 'desktop', clicks: 1 },
      ]),
    );
    expect(body.os).toEqual(
      expect.arrayContaining([
        { name: 'iOS', clicks: 2 },
        { name: 'Windows', clicks: 1 },
      ]),
    );
    expect(body.browsers).toEqual(
      expect.arrayContaining([
        { name: 'Safari', clicks: 2 },
        { name: 'Chrome', clicks: 1 },
      ]),
    );
    expect(body.countries).toBeNull();
    expect(body.countries_note).toContain('GEOIP_DB');
    expect(body.safety.state).toBe('unchecked');
    // The address itself is stored nowhere.
    const stored = JSON.stringify(await rawVisitorRows());
    expect(stored).not.toContain('203.0.113.7');
  });

  it('is the owner’s only', async () => {
    const { code } = (await shorten({ url: 'https://stats.example/own' })).body;
    const other = await app.signUp();
    expect((await stats(code, other.apiKey)).status).toBe(404);
  });
});

async function rawVisitorRows(): Promise<unknown[]> {
  const { rawRows } = await import('../db/rows.js');
  return rawRows(app.runtime.db, 'select * from link_visitors', []);
}

describe('preview page <code>+', () => {
  it('shows the target, its safety and the creation date without redirecting', async () => {
    const { code } = (await shorten({ url: 'https://preview.example/path?q=<b>' })).body;
    const page = await fetch(`${app.url}/s/${code}+`, { headers: { accept: 'text/html' }, redirect: 'manual' });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('https://preview.example/path?q=%3Cb%3E');
    expect(html).toContain('알려진 위험 신호가 없습니다');
    expect(html).toContain('2026년 11월');
    const json = await (await fetch(`${app.url}/s/${code}+`, { headers: { accept: 'application/json' } })).json();
    expect(json).toMatchObject({ success: true, code, url: 'https://preview.example/path?q=%3Cb%3E', safety: { is_malicious: false } });
    expect((await stats(code)).body.clicks.total).toBe(0);
  });
});

describe('rescan (URL_RESCAN) and click jumps', () => {
  it('puts a link that turned harmful behind the warning page, tells its owner and its channel', async () => {
    const { code } = (await shorten({ url: 'https://turns-bad.example/' })).body;
    await app.runtime.shortLinks.setOrigin(user.accountId, [code], { platform: 'slack', workspaceId: 'T1', channelId: 'C-LINKS' });
    expect((await click(code)).status).toBe(302); // cached on this instance
    harmful.add('https://turns-bad.example/');
    now += 86_400_000;
    const result = await app.runtime.linkRescan.runOnce(86_400_000);
    expect(result.harmful).toBeGreaterThanOrEqual(1);
    const warned = await click(code);
    expect(warned.status).toBe(403);
    expect(await warned.text()).toContain('위험한 링크');
    const body = (await stats(code)).body;
    expect(body.status).toBe('blocked');
    expect(body.safety).toMatchObject({ state: 'harmful', category: 'phishing', reason: '피싱으로 확인된 주소입니다.' });
    const told = posted.find((post) => post.channelId === 'C-LINKS');
    expect(told?.text).toContain(`/s/${code}`);
    expect(told?.text).not.toContain('turns-bad.example');
    // Clean links are marked checked, and not checked again within half a period.
    const clean = (await shorten({ url: 'https://stays-clean.example/' })).body.code;
    now += 86_400_000;
    await app.runtime.linkRescan.runOnce(86_400_000);
    const checked = (await stats(clean)).body.safety;
    expect(checked).toMatchObject({ state: 'ok', checked_at: new Date(now).toISOString() });
    now += 3600_000;
    await app.runtime.linkRescan.runOnce(86_400_000);
    expect((await stats(clean)).body.safety.checked_at).toBe(checked.checked_at);
  });

  it('checks a link at once when its clicks jump', async () => {
    const { code } = (await shorten({ url: 'https://jump.example/' })).body;
    harmful.add('https://jump.example/');
    for (let i = 0; i < 100; i++) await click(code, { accept: 'application/json' });
    await app.runtime.linkRescan.idle();
    expect((await click(code, { accept: 'application/json' })).status).toBe(403);
  });
});

describe('OpenAPI', () => {
  it('documents the new routes and fields', async () => {
    const doc = (await app.get('/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/url/shorten/bulk', '/s/{code}/qr', '/s/{code}+']));
    expect(doc.paths['/s/{code}/qr'].get.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:code',
      'query:format',
      'query:size',
    ]);
    expect(doc.paths['/s/{code}/qr'].get.responses['200'].content).toHaveProperty('image/png');
    expect(doc.paths['/s/{code}'].get.responses).toHaveProperty('410');
    const shorten = JSON.stringify(doc.paths['/api/v1/url/shorten'].post.requestBody);
    for (const field of ['expires_at', 'max_clicks', 'utm']) expect(shorten).toContain(field);
    const stats = JSON.stringify(doc.paths['/api/v1/url/shorten/{code}/stats'].get.responses['200']);
    for (const field of ['unique_visitors', 'referrers', 'browsers', 'countries_note', 'safety']) expect(stats).toContain(field);
  });
});
