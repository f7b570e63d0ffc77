import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

const SCAN = '/api/v1/url/scan';
let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  app = await startTestApp({ DEFAULT_QUOTA: '50' });
  user = await app.signUp();
  await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, user.apiKey);
});
afterAll(async () => {
  await app.close();
});

const remaining = async () => (await app.remaining(user.apiKey, 'harmful-url-detection'))!;

describe('POST /api/v1/url/scan', () => {
  it('checks every URL of a message, charges one call per URL and explains the smishing verdict', async () => {
    const before = await remaining();
    const text =
      '[CJ대한통운] 고객님 택배가 주소지 불일치로 반송 예정입니다. 주소확인 hxxp://cj-track[.]example/a 또는 https://www.cjlogistics.com/ko';
    const res = await app.post(SCAN, { text }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      is_smishing: true,
      urls_found: 2,
      api: 'harmful-url-detection',
      remaining: before - 2,
    });
    const body = res.body as { urls: Array<{ url: string; final_url: string; category: string }>; reasons: string[] };
    expect(body.urls.map((entry) => [entry.url, entry.final_url])).toEqual([
      ['http://cj-track.example/a', 'http://cj-track.example/a'],
      ['https://www.cjlogistics.com/ko', 'https://www.cjlogistics.com/ko'],
    ]);
    expect(body.urls[1]?.category).toBe('clean');
    expect(body.reasons).toContain("문자에 'CJ대한통운'이 나오지만 링크(cj-track.example)는 CJ대한통운의 공식 주소가 아닙니다.");
    expect(await remaining()).toBe(before - 2);
  });

  it('reads a QR code image', async () => {
    const qr = await QRCode.toBuffer('https://bit.ly/3abcDEF', { width: 300 });
    const res = await app.post(SCAN, { base64_image: qr.toString('base64') }, user.apiKey);
    expect(res.status).toBe(200);
    expect((res.body as { urls: Array<{ url: string }> }).urls.map((entry) => entry.url)).toEqual(['https://bit.ly/3abcDEF']);
  });

  it('checks the first 20 of a longer list, charges 20 and says so', async () => {
    const before = await remaining();
    const text = Array.from({ length: 23 }, (_, i) => `https://shop${i}.example.com/item`).join('\n');
    const res = await app.post(SCAN, { text }, user.apiKey);
    expect(res.status).toBe(200);
    const body = res.body as { urls: unknown[]; urls_found: number; reasons: string[]; remaining: number };
    expect(body.urls).toHaveLength(20);
    expect(body.urls_found).toBe(23);
    expect(body.reasons.at(-1)).toBe('링크가 23개 있어 처음 20개만 검사했습니다.');
    expect(body.remaining).toBe(before - 20);
  });

  it('charges nothing for a message without links', async () => {
    const before = await remaining();
    const res = await app.post(SCAN, { text: '내일 회의는 3시입니다. 자료는 v2.1 버전으로 부탁드려요.' }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ urls: [], is_smishing: false, urls_found: 0 });
    expect(await remaining()).toBe(before);
  });

  it('answers 400 in the contract shape for neither text nor image, and for an image that is not one', async () => {
    const before = await remaining();
    const empty = await app.post(SCAN, {}, user.apiKey);
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({
      success: false,
      error_code: 'INVALID_REQUEST',
      error: "'text'(메시지 글)나 'base64_image'(문자 캡처·QR 코드 사진) 중 하나를 보내 주세요.",
    });
    const notImage = await app.post(
      SCAN,
      { base64_image: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>').toString('base64') },
      user.apiKey,
    );
    expect(notImage.status).toBe(400);
    expect(await remaining()).toBe(before);
  });

  it('needs the harmful-URL subscription (403) and is in the OpenAPI document', async () => {
    const other = await app.signUp();
    const res = await app.post(SCAN, { text: 'https://a.example.com/' }, other.apiKey);
    expect(res.status).toBe(403);
    const doc = (await app.get('/openapi.json')).body as { paths: Record<string, { post?: { operationId?: string } }> };
    expect(doc.paths[SCAN]?.post?.operationId).toBe('scanMessage');
  });
});
