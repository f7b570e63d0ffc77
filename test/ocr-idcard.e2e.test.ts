import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { makeDocument, type DocumentKind, type ExpectedInfo } from './helpers/id-documents.js';
import { assertKoreanFonts, renderImage } from './helpers/id-images.js';
import { pdfWithHugeImage, pdfWithImage } from './helpers/id-pdf.js';

const PATH = '/api/v1/ocr/idcard';

/** Clean documents of the tuning seed, read exactly by the embedded engine. */
async function documentImage(kind: DocumentKind, format: 'png' | 'jpeg' | 'webp' = 'png') {
  const spec = makeDocument(kind, 1, 0);
  const png = await renderImage(spec, 'clean', 1);
  const image = format === 'png' ? png : await sharp(png)[format]({ quality: 90 }).toBuffer();
  return { expected: spec.expected, base64: image.toString('base64') };
}

function infoOf(expected: ExpectedInfo) {
  return { ...expected };
}

async function textImage(lines: string[]): Promise<string> {
  const text = lines.map((line, i) => `<text x="40" y="${80 + i * 60}" font-size="36">${line}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="400"><rect width="100%" height="100%" fill="#fff"/><g font-family="NanumGothic, Noto Sans KR, sans-serif">${text}</g></svg>`;
  return (await sharp(Buffer.from(svg)).png().toBuffer()).toString('base64');
}

const logLines: string[] = [];
let app: TestApp;
let user: TestUser;

async function remaining(target = app, apiKey = user.apiKey): Promise<number> {
  return (await target.remaining(apiKey, 'ocr-idcard'))!;
}

beforeAll(async () => {
  assertKoreanFonts();
  const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  app = await startTestApp({}, { logger, ocr: { size: 1 } });
  user = await app.signUp();
});
afterAll(() => app?.close());

describe('POST /api/v1/ocr/idcard', () => {
  it('reads a resident registration card and charges one call', async () => {
    const { expected, base64 } = await documentImage('resident');
    const before = await remaining();
    const res = await app.post(PATH, { base64_image: base64 }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true,
      info: infoOf(expected),
      api: 'ocr-idcard',
      engine: 'tesseract',
      remaining: before - 1,
    });
    expect(res.body.raw_text).toContain(expected.id_number);
    // Words as written (issue 35): the card's letter-spaced title and labels come back joined.
    expect(res.body.raw_text).toContain('주민등록증');
    expect(res.body.raw_text).not.toMatch(/(?<![가-힣])[가-힣] [가-힣](?![가-힣])/);
    expect(Array.isArray(res.body.warnings)).toBe(true);
    expect(res.headers.get('ratelimit')).toContain(`r=${before - 1}`);
    expect(await remaining()).toBe(before - 1);
  });

  it('reads a driver licence from a data URI: id_number is the resident number, license_number apart', async () => {
    const { expected, base64 } = await documentImage('license', 'jpeg');
    const res = await app.post(PATH, { base64_image: `data:image/jpeg;base64,${base64}` }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.info).toEqual(infoOf(expected));
    expect(res.body.info.license_number).toMatch(/^\d{2}-\d{2}-\d{6}-\d{2}$/);
  });

  it('reads a business registration certificate sent as WebP', async () => {
    const { expected, base64 } = await documentImage('business', 'webp');
    const res = await app.post(PATH, { base64_image: base64 }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.info).toEqual(infoOf(expected));
    expect(res.body.warnings).toEqual([]);
  });

  it('reads a business registration certificate sent as a PDF (its first page)', { timeout: 60_000 }, async () => {
    const spec = makeDocument('business', 1, 0);
    const pdf = await pdfWithImage(await renderImage(spec, 'clean', 1), 2);
    const res = await app.post(PATH, { base64_image: `data:application/pdf;base64,${pdf.toString('base64')}` }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.info).toEqual(infoOf(spec.expected));
    expect(res.body.confidence.id_number).toBeGreaterThan(0.5);
  });

  it('refuses SVG before decoding it, free of charge', async () => {
    const before = await remaining();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><defs><g id="a"><use href="#b"/></g></defs></svg>';
    const res = await app.post(PATH, { base64_image: Buffer.from(svg).toString('base64') }, user.apiKey);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error_code: 'INVALID_REQUEST', field: 'base64_image' });
    expect(res.body.error).toContain('SVG');
    expect(await remaining()).toBe(before);
  });

  it('masks the resident number tail and the licence serial in info and raw_text with mask: true', async () => {
    const { expected, base64 } = await documentImage('license');
    const res = await app.post(PATH, { base64_image: base64, mask: true }, user.apiKey);
    expect(res.status).toBe(200);
    const tail = expected.id_number.slice(8);
    const serial = expected.license_number!.split('-')[2]!;
    expect(res.body.info.id_number).toBe(`${expected.id_number.slice(0, 8)}******`);
    expect(res.body.info.license_number).toBe(expected.license_number!.replace(serial, '******'));
    expect(res.body.info.name).toBe(expected.name);
    expect(JSON.stringify(res.body)).not.toContain(tail);
    expect(JSON.stringify(res.body)).not.toContain(serial);
  });

  it('never logs the image, the text or the fields: sizes, type and timings only', async () => {
    const { expected } = await documentImage('license');
    const all = logLines.join('\n');
    expect(all).toContain('ocr-idcard read');
    expect(all).toMatch(/"ocrMs":\d+/);
    for (const secret of [expected.name, expected.id_number.slice(7), expected.address.split(' ')[2]!, expected.license_number!]) {
      expect(all).not.toContain(secret);
    }
    expect(all).not.toMatch(/iVBOR|base64,/);
  });

  it('answers 400 naming base64_image when it is missing, not Base64, or not an image, free of charge', async () => {
    const before = await remaining();
    const missing = await app.post(PATH, {}, user.apiKey);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ success: false, code: 400, error_code: 'INVALID_REQUEST', field: 'base64_image' });
    const notBase64 = await app.post(PATH, { base64_image: '이건 이미지가 아닙니다!' }, user.apiKey);
    expect(notBase64.status).toBe(400);
    expect(notBase64.body.error).toContain('Base64');
    const notImage = await app.post(
      PATH,
      { base64_image: Buffer.from('just some text, not a picture at all').toString('base64') },
      user.apiKey,
    );
    expect(notImage.status).toBe(400);
    expect(notImage.body.error).toContain('이미지');
    const wrongType = await app.post(PATH, { base64_image: 12345 }, user.apiKey);
    expect(wrongType.status).toBe(400);
    expect(await remaining()).toBe(before);
  });

  it('answers 413 for an image over 10 MB or over the pixel limit, free of charge', async () => {
    const before = await remaining();
    const big = await app.post(PATH, { base64_image: Buffer.alloc(11 * 1024 * 1024, 7).toString('base64') }, user.apiKey);
    expect(big.status).toBe(413);
    expect(big.body.error_code).toBe('PAYLOAD_TOO_LARGE');
    const bomb = await sharp({ create: { width: 9000, height: 6000, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const wide = await app.post(PATH, { base64_image: bomb.toString('base64') }, user.apiKey);
    expect(wide.status).toBe(413);
    expect(wide.body.error).toContain('해상도');
    // The same limit holds for an image a PDF page draws: a 12,000² one is refused, not decoded.
    const hostile = await app.post(PATH, { base64_image: pdfWithHugeImage(12_000).toString('base64') }, user.apiKey);
    expect(hostile.status).toBe(413);
    expect(hostile.body).toMatchObject({
      success: false,
      error_code: 'PAYLOAD_TOO_LARGE',
      error: expect.stringContaining('PDF 안의 이미지'),
    });
    expect(await remaining()).toBe(before);
  });

  it('answers 422 with a Korean explanation for a blank image or another document, free of charge', async () => {
    const before = await remaining();
    const blank = await sharp({ create: { width: 800, height: 500, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const empty = await app.post(PATH, { base64_image: blank.toString('base64') }, user.apiKey);
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ success: false, code: 422, error_code: 'UNPROCESSABLE' });
    expect(empty.body.error).toContain('글자를 읽지 못했습니다');
    const memo = await app.post(
      PATH,
      { base64_image: await textImage(['오늘 점심 메뉴는 김치찌개', '회의는 세 시에 시작합니다', '장소는 본관 회의실']) },
      user.apiKey,
    );
    expect(memo.status).toBe(422);
    expect(memo.body.error).toContain('주민등록증, 자동차운전면허증, 사업자등록증');
    expect(await remaining()).toBe(before);
  });

  it('answers 401 without a key', async () => {
    const res = await app.post(PATH, { base64_image: 'AAAA' });
    expect(res.status).toBe(401);
  });
});

describe('engine limits', () => {
  let limited: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    // A timeout no image can meet.
    limited = await startTestApp({}, { ocr: { size: 1, timeoutMs: 1 } });
    owner = await limited.signUp();
  });
  afterAll(() => limited?.close());

  it('answers a caller whose image takes too long with a 422 saying what to send (never a 5xx), refunded', async () => {
    const { base64 } = await documentImage('resident');
    const before = await remaining(limited, owner.apiKey);
    const res = await limited.post(PATH, { base64_image: base64 }, owner.apiKey);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ success: false, code: 422, error: expect.stringContaining('2000픽셀') });
    expect(await remaining(limited, owner.apiKey)).toBe(before);
  });
});

describe('with a vision model (OPENAI_VISION_MODEL)', () => {
  let llm: FakeOpenAI;
  let vision: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    llm = await startFakeOpenAI();
    vision = await startTestApp(
      { OPENAI_BASE_URL: llm.url, OPENAI_VISION_MODEL: 'vision-test', LLM_TIMEOUT_MS: '2000' },
      { ocr: { size: 1 }, llm: { retryBaseDelayMs: 1, maxRetries: 0 } },
    );
    owner = await vision.signUp();
  });
  afterAll(async () => {
    await vision?.close();
    await llm?.close();
  });
  beforeEach(() => llm.reset());

  it('sends the image and the OCR text to the model and merges the readings', async () => {
    const { expected, base64 } = await documentImage('business');
    const { type, ...fields } = expected;
    // The model misreads the business number (its check digit fails) and adds nothing else new.
    const wrongNumber = `${expected.id_number.slice(0, -1)}${(Number(expected.id_number.slice(-1)) + 1) % 10}`;
    llm.chat({ content: JSON.stringify({ type, ...fields, id_number: wrongNumber, license_number: '' }) });
    const res = await vision.post(PATH, { base64_image: base64 }, owner.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.engine).toBe('tesseract+vision');
    expect(res.body.info).toEqual(infoOf(expected));
    const sent = llm.requestsTo('chat')[0]!.body;
    expect(sent.model).toBe('vision-test');
    const parts = sent.messages.find((m: { role: string }) => m.role === 'user').content;
    expect(parts.find((p: { type: string }) => p.type === 'image_url').image_url.url).toMatch(/^data:image\/jpeg;base64,/);
    expect(parts.find((p: { type: string }) => p.type === 'text').text).toContain(expected.id_number);
  });

  it('falls back to the embedded reading when the model fails', async () => {
    const { expected, base64 } = await documentImage('resident');
    llm.chat({ status: 500 });
    const res = await vision.post(PATH, { base64_image: base64 }, owner.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.engine).toBe('tesseract');
    expect(res.body.info).toEqual(infoOf(expected));
  });
});
