import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import { createOcrIdcardOperation } from '../src/operations/ocr-idcard/ocr-idcard.js';
import { pngSize } from '../src/operations/ocr-idcard/preprocess.js';
import type { OcrEngine, OcrText } from '../src/providers/ocr/tesseract-pool.js';
import { sharedPreparation } from './helpers/prepared-images.js';

/** The real preparation, each distinct image once in this file: the engines here are fakes (helpers/prepared-images.ts). */
const prepare = sharedPreparation();

const CARD = ['주민등록증', '홍길동', '900101-1234568', '서울특별시 종로구 세종대로 209', '2020. 8. 16.', '서울특별시 종로구청장'];

/** An engine that answers a card's lines when the test says so, and notes who was cancelled. */
function heldEngine() {
  const waiting: Array<() => void> = [];
  const aborted: unknown[] = [];
  const engine: OcrEngine = {
    recognize: (_png, signal) =>
      new Promise<OcrText>((resolve, reject) => {
        signal?.addEventListener('abort', () => (aborted.push(signal.reason), reject(signal.reason)));
        waiting.push(() =>
          resolve({
            text: CARD.join('\n'),
            rotateRadians: 0,
            lines: CARD.map((text) => ({ text, confidence: 91, box: { left: 0, top: 0, width: 1, height: 1 } })),
          }),
        );
      }),
    stats: () => ({ workers: 1, busy: 0, queued: waiting.length }),
    close: async () => {},
  };
  return { engine, release: () => waiting.splice(0).forEach((go) => go()), aborted, waiting };
}

const image = async () =>
  (
    await sharp({ create: { width: 120, height: 80, channels: 3, background: '#fff' } })
      .png()
      .toBuffer()
  ).toString('base64');
/** The operation itself never charges (the executor does, before `run`). */
const ctx = (id: number, signal?: AbortSignal) => ({
  account: { id, email: `${id}@example.com` },
  logger: createLogger('silent'),
  requestId: 't',
  signal,
  charge: () => Promise.reject(new Error('the ID reader charges through the executor only')),
});
const until = async (check: () => boolean) => {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('ID reader operation', () => {
  it('lets one account have two images in work; the third is a 429 with Retry-After, others go on', async () => {
    const held = heldEngine();
    const operation = createOcrIdcardOperation({ prepare, ocr: () => held.engine });
    const input = { base64_image: await image(), mask: false };
    const first = operation.run(ctx(1), input);
    const second = operation.run(ctx(1), input);
    await expect(operation.run(ctx(1), input)).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 2 });
    const other = operation.run(ctx(2), input);
    await until(() => held.waiting.length === 3);
    held.release();
    const results = await Promise.all([first, second, other]);
    expect(results.map((r) => r.info.name)).toEqual(['홍길동', '홍길동', '홍길동']);
    // The slots are given back: the same account may send again.
    const again = operation.run(ctx(1), input);
    await until(() => held.waiting.length === 1);
    held.release();
    expect((await again).info.id_number).toBe('900101-1234568');
  });

  it('gives each field a confidence, and a Korean warning for the uncertain ones', async () => {
    const held = heldEngine();
    const operation = createOcrIdcardOperation({ prepare, ocr: () => held.engine });
    const run = operation.run(ctx(3), { base64_image: await image(), mask: false });
    await until(() => held.waiting.length === 1);
    held.release();
    const result = await run;
    expect(result.confidence).toMatchObject({ name: 0.91, id_number: 0.91, address: 0.91, issue_date: 0.91 });
    expect(result.warnings).toEqual([]);
  });

  it('stops the work when the caller goes away', async () => {
    const held = heldEngine();
    const operation = createOcrIdcardOperation({ prepare, ocr: () => held.engine });
    const controller = new AbortController();
    const run = operation.run(ctx(4, controller.signal), { base64_image: await image(), mask: false }).catch((e: unknown) => e);
    await until(() => held.waiting.length === 1);
    controller.abort(new Error('gone'));
    expect(await run).toMatchObject({ message: 'gone' });
    expect(held.aborted).toHaveLength(1);
  });

  it('fills the missing issue date of a card from its band alone, without reading the whole image a second time', async () => {
    const lines = [
      '주민등록증',
      '홍길동',
      '900101-1234568',
      '서울특별시 종로구 세종대로 209 (세종로)',
      '2020 8 !| 으',
      '서울특별시 종로구청장',
    ];
    const pageWidths: number[] = [];
    const engine: OcrEngine = {
      recognize: async (png) => {
        const { width, height } = pngSize(png);
        if (height < 400) {
          // A band cut from the page: its date line, clearly read.
          return {
            text: '2020. 8. 16.',
            rotateRadians: 0,
            lines: [{ text: '2020. 8. 16.', confidence: 90, box: { left: 0, top: 0, width, height: 40 } }],
          };
        }
        pageWidths.push(width);
        const box = (i: number) => ({ left: 100, top: 100 + i * 120, width: 600, height: 60 });
        return { text: lines.join('\n'), rotateRadians: 0, lines: lines.map((text, i) => ({ text, confidence: 91, box: box(i) })) };
      },
      stats: () => ({ workers: 1, busy: 0, queued: 0 }),
      close: async () => {},
    };
    const operation = createOcrIdcardOperation({ prepare, ocr: () => engine });
    const card = (
      await sharp({ create: { width: 1400, height: 900, channels: 3, background: '#fff' } })
        .png()
        .toBuffer()
    ).toString('base64');
    const result = await operation.run(ctx(5), { base64_image: card, mask: false });
    expect(result.info.issue_date).toBe('2020.08.16.');
    expect(result.warnings).toEqual([]);
    // The page was read once: no second preparation (1800 px) was read.
    expect(pageWidths).toEqual([1400]);
  });

  describe('a slow image is answered in time, never with a 5xx', () => {
    /** A card without its issue date: the reader would read the image again to find it. */
    const partial = ['주민등록증', '홍길동', '900101-1234568', '서울특별시 종로구 세종대로 209 (세종로)', '서울특별시 종로구청장'];
    const counting = (first: () => Promise<OcrText>, later: () => Promise<OcrText>) => {
      let calls = 0;
      const engine: OcrEngine = {
        recognize: () => (calls++ === 0 ? first() : later()),
        stats: () => ({ workers: 1, busy: 0, queued: 0 }),
        close: async () => {},
      };
      return { engine, calls: () => calls };
    };
    const reading = async (): Promise<OcrText> => ({
      text: partial.join('\n'),
      rotateRadians: 0,
      lines: partial.map((text, i) => ({ text, confidence: 90, box: { left: 10, top: 10 + i * 50, width: 400, height: 40 } })),
    });
    const timedOut = () => Promise.reject(new AppError('UPSTREAM_TIMEOUT', 'timed out'));

    it('starts no further reading once its budget is spent: the first reading is the answer, its gaps warned', async () => {
      const engine = counting(reading, reading);
      // The clock says the first reading took 9 s of an 8 s budget.
      const times = [0, 9_000];
      const operation = createOcrIdcardOperation({ prepare, ocr: () => engine.engine, budgetMs: 8_000, now: () => times.shift() ?? 9_000 });
      const result = await operation.run(ctx(6), { base64_image: await image(), mask: false });
      expect(engine.calls()).toBe(1);
      expect(result.info.name).toBe('홍길동');
      expect(result.warnings).toContainEqual(expect.objectContaining({ field: 'issue_date', code: 'NOT_FOUND' }));
    });

    it('reads again within its budget', async () => {
      const engine = counting(reading, reading);
      const operation = createOcrIdcardOperation({ prepare, ocr: () => engine.engine, budgetMs: 8_000, now: () => 0 });
      await operation.run(ctx(7), { base64_image: await image(), mask: false });
      expect(engine.calls()).toBeGreaterThan(1);
    });

    it('keeps the first reading when a further one times out', async () => {
      const engine = counting(reading, timedOut);
      const operation = createOcrIdcardOperation({ prepare, ocr: () => engine.engine, now: () => 0 });
      const result = await operation.run(ctx(8), { base64_image: await image(), mask: false });
      expect(result.info.id_number).toBe('900101-1234568');
    });

    it('answers a first reading that times out with a 422 saying what to send', async () => {
      const engine = counting(timedOut, reading);
      const operation = createOcrIdcardOperation({ prepare, ocr: () => engine.engine });
      await expect(operation.run(ctx(9), { base64_image: await image(), mask: false })).rejects.toMatchObject({
        status: 422,
        message: expect.stringContaining('2000픽셀'),
      });
    });
  });
});

describe('ID reader: fields left missing or unsure are looked for line by line', () => {
  const page = async () =>
    (
      await sharp({ create: { width: 600, height: 400, channels: 3, background: '#fff' } })
        .png()
        .toBuffer()
    ).toString('base64');
  const line = (text: string, confidence: number, top = 10) => ({
    text,
    confidence,
    box: { left: 10, top, width: 300, height: 30 },
    words: [{ text, confidence, box: { left: 10, top, width: 300, height: 30 } }],
  });
  /** The detector's boxes: one per line, told apart by their widths (a crop is its box plus a 10 px margin). */
  const detected = (texts: string[]) => texts.map((_, i) => ({ left: 10, top: 10 + i * 60, width: 100 + i * 20, height: 40 }));

  function engines(pageLines: Array<[string, number]>, lineTexts: Array<[string, number]>) {
    let lineReads = 0;
    const engine: OcrEngine = {
      async recognize(png, _signal, _rotation, segmentation) {
        if (segmentation !== 'line') {
          const lines = pageLines.map(([text, confidence], i) => line(text, confidence, 10 + i * 50));
          return { text: lines.map((l) => l.text).join('\n'), lines, rotateRadians: 0 };
        }
        lineReads++;
        const [text, confidence] = lineTexts[(pngSize(png).width - 20 - 100) / 20] as [string, number];
        return { text, lines: [line(text, confidence)], rotateRadians: 0 };
      },
      stats: () => ({ workers: 1, busy: 0, queued: 0 }),
      close: async () => {},
    };
    const detector = { detect: async () => detected(lineTexts.map(([text]) => text)), close: async () => {} };
    return { engine, detector, lineReads: () => lineReads };
  }

  const card = (name: string, confidence: number, date?: string): Array<[string, number]> => [
    ['주민등록증', 95],
    [name, confidence],
    ['900101-1234568', 95],
    ['서울특별시 종로구 세종대로 209', 95],
    ...(date ? [[date, 95] as [string, number]] : []),
    ['서울특별시 종로구청장', 95],
  ];

  it('fills a field the page reading missed from the lines read one by one', async () => {
    const { engine, detector, lineReads } = engines(card('홍길동', 95), card('홍길동', 95, '2020. 8. 16.'));
    const operation = createOcrIdcardOperation({ prepare, ocr: () => engine, textLines: { detector, use: 'fallback' }, now: () => 0 });
    const result = await operation.run(ctx(20), { base64_image: await page(), mask: false });
    expect(lineReads()).toBe(6);
    expect(result.info.issue_date).toMatch(/^2020\D+0?8\D+16/);
    expect(result.warnings.filter((warning) => warning.field === 'issue_date')).toEqual([]);
  });

  it('replaces an unsure field only with a reading sure of it (no warning, a higher confidence)', async () => {
    const surer = engines(card('홍길동', 40, '2020. 8. 16.'), card('홍길둥', 96, '2020. 8. 16.'));
    const operation = createOcrIdcardOperation({
      prepare,
      ocr: () => surer.engine,
      textLines: { detector: surer.detector, use: 'fallback' },
    });
    expect((await operation.run(ctx(21), { base64_image: await page(), mask: false })).info.name).toBe('홍길둥');
    const lessSure = engines(card('홍길동', 40, '2020. 8. 16.'), card('홍길둥', 30, '2020. 8. 16.'));
    const other = createOcrIdcardOperation({
      prepare,
      ocr: () => lessSure.engine,
      textLines: { detector: lessSure.detector, use: 'fallback' },
    });
    expect((await other.run(ctx(22), { base64_image: await page(), mask: false })).info.name).toBe('홍길동');
  });

  it('reads no line when nothing is missing or unsure, and stops between lines once the budget is spent', async () => {
    const sure = engines(card('홍길동', 95, '2020. 8. 16.'), card('홍길동', 95, '2020. 8. 16.'));
    const operation = createOcrIdcardOperation({
      prepare,
      ocr: () => sure.engine,
      textLines: { detector: sure.detector, use: 'fallback' },
    });
    await operation.run(ctx(23), { base64_image: await page(), mask: false });
    expect(sure.lineReads()).toBe(0);
    const late = engines(card('홍길동', 95), card('홍길동', 95, '2020. 8. 16.'));
    const budgeted = createOcrIdcardOperation({
      prepare,
      ocr: () => late.engine,
      textLines: { detector: late.detector, use: 'fallback' },
      budgetMs: 8_000,
      // The budget runs out once the first lines are being read.
      now: () => (late.lineReads() > 0 ? 9_000 : 0),
    });
    await budgeted.run(ctx(24), { base64_image: await page(), mask: false });
    expect(late.lineReads()).toBeGreaterThan(0);
    expect(late.lineReads()).toBeLessThan(6);
  });
});
