import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';
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
  it('checks every URL of a message, charges one call for the message and one per URL, and explains the smishing verdict', async () => {
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
      remaining: before - 3,
      scam_type: 'parcel',
      scam_label: '택배 사칭',
    });
    const body = res.body as { urls: Array<{ url: string; final_url: string; category: string }>; reasons: string[] };
    expect(body.urls.map((entry) => [entry.url, entry.final_url])).toEqual([
      ['http://cj-track.example/a', 'http://cj-track.example/a'],
      ['https://www.cjlogistics.com/ko', 'https://www.cjlogistics.com/ko'],
    ]);
    expect(body.urls[1]?.category).toBe('clean');
    expect(body.reasons).toContain("문자에 'CJ대한통운'이 나오지만 링크(cj-track.example)는 CJ대한통운의 공식 주소가 아닙니다.");
    expect(await remaining()).toBe(before - 3);
  });

  it('reads a QR code image', async () => {
    const qr = await QRCode.toBuffer('https://bit.ly/3abcDEF', { width: 300 });
    const res = await app.post(SCAN, { base64_image: qr.toString('base64') }, user.apiKey);
    expect(res.status).toBe(200);
    expect((res.body as { urls: Array<{ url: string }> }).urls.map((entry) => entry.url)).toEqual(['https://bit.ly/3abcDEF']);
  });

  it('checks the first 20 of a longer list, charges 21 (the message and 20 URLs) and says so', async () => {
    const before = await remaining();
    const text = Array.from({ length: 23 }, (_, i) => `https://shop${i}.example.com/item`).join('\n');
    const res = await app.post(SCAN, { text }, user.apiKey);
    expect(res.status).toBe(200);
    const body = res.body as { urls: unknown[]; urls_found: number; reasons: string[]; remaining: number };
    expect(body.urls).toHaveLength(20);
    expect(body.urls_found).toBe(23);
    expect(body.reasons.at(-1)).toBe('링크가 23개 있어 처음 20개만 검사했습니다.');
    expect(body.remaining).toBe(before - 21);
  });

  it('judges an ordinary message without links as not a scam, for one call', async () => {
    const before = await remaining();
    const res = await app.post(SCAN, { text: '내일 회의는 3시입니다. 자료는 v2.1 버전으로 부탁드려요.' }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ urls: [], is_smishing: false, scam_type: null, scam_label: null, urls_found: 0 });
    expect(await remaining()).toBe(before - 1);
  });

  it('calls a family-impersonation message without a link a scam, with what to do now', async () => {
    const res = await app.post(SCAN, { text: '엄마 나 폰 액정 깨져서 수리 맡겼어 이 번호로 문자줘' }, user.apiKey);
    expect(res.status).toBe(200);
    const body = res.body as {
      is_smishing: boolean;
      scam_type: string;
      scam_label: string;
      advice: string;
      score: number;
      reasons: string[];
    };
    expect(body).toMatchObject({ is_smishing: true, scam_type: 'family_impersonation', scam_label: '가족·지인 사칭', urls: [] });
    expect(body.score).toBeGreaterThanOrEqual(0.9);
    expect(body.advice).toMatch(/이미 알고 있는 번호로 직접 전화해 확인하세요/);
    expect(body.reasons.join(' ')).not.toMatch(/링크를 찾지 못했습니다/);
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

describe('POST /api/v1/url/scan with an LLM configured', () => {
  let llm: FakeOpenAI;
  let withLlm: TestApp;
  let someone: TestUser;
  // A script the data set holds few of: the offline judgement leaves it in the uncertain middle.
  const prosecutor = '[서울중앙지검] 귀하 명의의 대포통장이 범죄에 연루되어 연락드립니다. 수사관에게 전화 주세요 02-3480-2000';
  beforeAll(async () => {
    llm = await startFakeOpenAI();
    withLlm = await startTestApp({ OPENAI_BASE_URL: llm.url, OPENAI_API_KEY: 'sk-test' }, { llm: { retryBaseDelayMs: 1 } });
    someone = await withLlm.signUp();
    await withLlm.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, someone.apiKey);
  });
  afterAll(async () => {
    await withLlm.close();
    await llm.close();
  });

  it('asks the LLM about the uncertain middle only, with the fixed prompt, and says it did', async () => {
    llm.reset();
    llm.chat({ json: { is_scam: true, scam_type: 'institution_impersonation', reason: '수사기관은 문자로 연락해 계좌를 묻지 않습니다.' } });
    const res = await withLlm.post(SCAN, { text: prosecutor }, someone.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ is_smishing: true, scam_type: 'institution_impersonation', scam_label: '검찰·경찰·금감원·정부 사칭' });
    const body = res.body as { reasons: string[]; score: number };
    expect(body.score).toBeLessThan(0.9);
    expect(body.reasons.at(-1)).toBe('오프라인 판정이 애매해 AI(LLM)에게 물었습니다: 수사기관은 문자로 연락해 계좌를 묻지 않습니다.');
    const asked = llm.requestsTo('chat');
    expect(asked).toHaveLength(1);
    expect(JSON.stringify(asked[0]!.body.messages[0])).toMatch(/스미싱이나 사기인지 판단하는 보안 도우미/);
    // Clear verdicts never reach it.
    await withLlm.post(SCAN, { text: '엄마 나 폰 액정 깨져서 수리 맡겼어 이 번호로 문자줘' }, someone.apiKey);
    await withLlm.post(SCAN, { text: '오늘 점심 뭐 먹을까? 회사 앞 국밥집 어때' }, someone.apiKey);
    expect(llm.requestsTo('chat')).toHaveLength(1);
  });

  it('keeps the offline verdict when the LLM fails or answers outside the schema, and says which was used', async () => {
    for (const reply of [{ status: 500, error: { message: 'boom' } }, { json: { is_scam: 'yes' } }]) {
      llm.reset();
      llm.onChat(() => reply);
      const res = await withLlm.post(SCAN, { text: prosecutor }, someone.apiKey);
      expect(res.status).toBe(200);
      const body = res.body as { is_smishing: boolean; reasons: string[] };
      expect(body.is_smishing).toBe(false);
      expect(body.reasons.at(-1)).toBe('AI(LLM) 판단을 받지 못해 오프라인 판정(규칙과 학습 모델)을 따랐습니다.');
    }
  });
});
