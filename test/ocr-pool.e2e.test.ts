import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { createTesseractPool, langPathFor, type OcrEngine } from '../src/providers/ocr/tesseract-pool.js';
import { assertKoreanFonts } from './helpers/id-images.js';

/** Body-size text with room around it, as a prepared document line looks. */
async function textPng(text: string): Promise<Buffer> {
  assertKoreanFonts();
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="900" height="200"><rect width="100%" height="100%" fill="#fff"/>' +
    `<text x="40" y="110" font-size="36" font-family="NanumGothic, sans-serif">${text}</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

let pool: OcrEngine | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** A page of several lines turned by `degrees`, so tesseract finds a skew in it. */
async function turnedPage(degrees: number): Promise<Buffer> {
  const lines = ['서울특별시 강남구 테헤란로 12', '경기도 성남시 분당구 판교역로 235', '부산광역시 해운대구 센텀중앙로 79'];
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="400"><rect width="100%" height="100%" fill="#fff"/>' +
    lines
      .map((line, i) => `<text x="40" y="${110 + i * 90}" font-size="36" font-family="NanumGothic, sans-serif">${line}</text>`)
      .join('') +
    '</svg>';
  return sharp(Buffer.from(svg)).rotate(degrees, { background: '#fff' }).png().toBuffer();
}

describe('tesseract pool', () => {
  it('reads a band at the rotation it is given, whatever image the worker read before', async () => {
    pool = createTesseractPool({ size: 1 });
    const band = await textPng('석촌호수로 022 거리');
    const before = await pool.recognize(band, undefined, 0);
    // Tesseract finds no skew in one line and reported the turned page's instead.
    expect((await pool.recognize(await turnedPage(4))).rotateRadians).not.toBe(0);
    const after = await pool.recognize(band, undefined, 0);
    expect(after.rotateRadians).toBe(0);
    expect([after.text, after.lines[0]?.confidence]).toEqual([before.text, before.lines[0]?.confidence]);
  });

  it('reads Korean offline from the npm model, writing nothing to the working directory', async () => {
    // Tesseract caches a language model it fetched as `<lang>.traineddata` in its cache path ('.' by
    // default). Only such files are looked for: other tests build `dist/` here at the same time.
    const models = () => readdirSync('.').filter((name) => name.includes('traineddata'));
    const before = models();
    pool = createTesseractPool({ size: 1 });
    const result = await pool.recognize(await textPng('사업자등록증 123-45-67890'));
    expect(result.text.replace(/\s+/g, '')).toContain('사업자등록증123-45-67890');
    expect(result.lines.length).toBeGreaterThan(0);
    expect(models()).toEqual(before);
  });

  it('links Korean and English into one temporary folder per process, removed when the process exits', async () => {
    expect(langPathFor('kor+eng')).toBe(langPathFor('kor+eng'));
    const code = `import { existsSync } from 'node:fs';
      import { langPathFor } from './src/providers/ocr/tesseract-pool.ts';
      const dir = langPathFor('kor+eng');
      console.log(JSON.stringify({ dir, kor: existsSync(dir + '/kor.traineddata.gz'), eng: existsSync(dir + '/eng.traineddata.gz') }));`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
      cwd: new URL('..', import.meta.url),
    });
    const seen = JSON.parse(stdout) as { dir: string; kor: boolean; eng: boolean };
    expect(seen).toMatchObject({ kor: true, eng: true });
    // Each start made one before and left it behind in the temporary directory.
    expect(existsSync(seen.dir)).toBe(false);
  });

  it('answers 503 with Retry-After when the queue is full, and runs the queued image', async () => {
    pool = createTesseractPool({ size: 1, maxQueue: 1 });
    const image = await textPng('주민등록증');
    const running = pool.recognize(image);
    const queued = pool.recognize(image);
    const refused = await pool.recognize(image).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: 'UNAVAILABLE', status: 503, retryAfterSeconds: 5 });
    expect(pool.stats()).toMatchObject({ busy: 1, queued: 1 });
    const [first, second] = await Promise.all([running, queued]);
    expect(compact(first.text)).toContain('주민등록증');
    expect(compact(second.text)).toContain('주민등록증');
  });

  it('answers 504 past the per-image timeout and replaces the worker', async () => {
    pool = createTesseractPool({ size: 1, timeoutMs: 1 });
    const error = await pool.recognize(await textPng('운전면허증')).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UPSTREAM_TIMEOUT', status: 504 });
    expect(pool.stats().workers).toBe(0);
  });

  it('drops a queued image at once when its caller goes away', async () => {
    pool = createTesseractPool({ size: 1 });
    const image = await textPng('주민등록증');
    const running = pool.recognize(image);
    const controller = new AbortController();
    const queued = pool.recognize(image, controller.signal).catch((error: unknown) => error);
    expect(pool.stats().queued).toBe(1);
    controller.abort(new Error('client went away'));
    expect(await queued).toMatchObject({ message: 'client went away' });
    expect(pool.stats().queued).toBe(0);
    expect(compact((await running).text)).toContain('주민등록증');
  });

  it('refuses work after close', async () => {
    pool = createTesseractPool({ size: 1 });
    await pool.close();
    await expect(pool.recognize(await textPng('주민'))).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });
});

function compact(text: string): string {
  return text.replace(/\s+/g, '');
}
