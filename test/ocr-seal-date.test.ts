import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { createOcrIdcardOperation } from '../src/operations/ocr-idcard/ocr-idcard.js';
import { prepareImage } from '../src/operations/ocr-idcard/preprocess.js';
import type { OcrEngine, OcrText } from '../src/providers/ocr/tesseract-pool.js';
import { sharedPreparation } from './helpers/prepared-images.js';

/**
 * The real preparation, each distinct image once in this file (helpers/prepared-images.ts): the
 * operation's engines here are fakes, and the first test's two pages are the ones the operation prepares.
 */
const prepare = sharedPreparation();

/**
 * A card's lower part as a low-quality scan prints it: a date in dark strokes, and a faded
 * seal's frame (pale pink: red above green and blue by 33, its channels 35 apart, under the 60
 * the usual preparation whitens) drawn over the date's last digits.
 */
const PINK = 'rgb(248,213,215)';
const FRAME = { left: 980, top: 560, width: 240, height: 220 };
async function sealedCard(): Promise<Buffer> {
  const digits = Array.from({ length: 10 }, (_, i) => `<rect x="${700 + i * 48}" y="600" width="14" height="60" fill="#222"/>`).join('');
  const { left, top, width, height } = FRAME;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="900">
    <rect width="1400" height="900" fill="#fff"/>${digits}
    <rect x="${left}" y="${top}" width="${width}" height="${height}" fill="none" stroke="${PINK}" stroke-width="10"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Grey at a point of the drawn card (1400 px wide) on a prepared page of any scale; a crop of it is none. */
async function greyAt(png: Buffer, x: number, y: number): Promise<number | undefined> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  if (info.width < 1000) return undefined;
  const scale = info.width / 1400;
  return data[(Math.round(y * scale) * info.width + Math.round(x * scale)) * info.channels];
}

/** A point on the frame's left stroke, between the date's digits (x 990 falls between two bars). */
const ON_FRAME = { x: FRAME.left, y: 700 };

describe("a faded seal over a card's issue date", () => {
  it('stays a grey line in the usual preparation and is whitened by `drop-seal`, the digits kept', async () => {
    const image = await sealedCard();
    const usual = await prepare(image);
    const cleared = await prepare(image, { ink: 'drop-seal' });
    expect(await greyAt(usual.png, ON_FRAME.x, ON_FRAME.y)).toBeLessThan(220);
    expect(await greyAt(cleared.png, ON_FRAME.x, ON_FRAME.y)).toBeGreaterThan(240);
    expect(await greyAt(cleared.png, 707, 630)).toBeLessThan(80);
    expect(cleared.sealShare).toBeGreaterThan(0.001);
    expect((await prepareImage(image, { ink: 'luminance' })).sealShare).toBeUndefined();
  });

  const ctx = {
    account: { id: 1, email: '1@example.com' },
    logger: createLogger('silent'),
    requestId: 't',
    charge: () => Promise.reject(new Error('the ID reader charges through the executor only')),
  };
  const CARD = ['자동차운전면허증', '홍길동', '900101-1234568', '서울특별시 종로구 세종대로 209 (세종로)', '11-20-123456-71'];
  const ISSUER = '서울특별시경찰청장';
  /** An engine that reads the date only where the frame is cleared: a struck-through date reads as "201". */
  function engine(dateWhenCleared: string) {
    const reads: boolean[] = [];
    const ocr: OcrEngine = {
      async recognize(png): Promise<OcrText> {
        const cleared = ((await greyAt(png, ON_FRAME.x, ON_FRAME.y)) ?? 0) > 240;
        reads.push(cleared);
        // The cleared page reads another name too: only its date may be taken.
        const texts = cleared ? [CARD[0]!, '김철수', ...CARD.slice(2), dateWhenCleared, ISSUER] : [...CARD, '201', ISSUER];
        const lines = texts.map((text, i) => ({ text, confidence: 90, box: { left: 100, top: 60 + i * 110, width: 700, height: 50 } }));
        return { text: texts.join('\n'), rotateRadians: 0, lines };
      },
      stats: () => ({ workers: 1, busy: 0, queued: 0 }),
      close: async () => {},
    };
    return { ocr, reads };
  }

  it("fills a licence's missing issue date from one reading with pale red whitened, and takes no other field from it", async () => {
    const { ocr, reads } = engine('2015.11.18.');
    const operation = createOcrIdcardOperation({ prepare, ocr: () => ocr, now: () => 0 });
    const result = await operation.run(ctx, { base64_image: (await sealedCard()).toString('base64'), mask: false });
    expect(result.info.issue_date).toBe('2015.11.18.');
    expect(result.info.name).toBe('홍길동');
    expect(result.warnings).not.toContainEqual(expect.objectContaining({ field: 'issue_date' }));
    // The usual readings saw the frame; the last one read the page with it whitened.
    expect(reads.at(-1)).toBe(true);
    expect(reads.slice(0, -1).every((cleared) => !cleared)).toBe(true);
  });

  it('adds no reading for a page without pale red, and leaves the date missing when the cleared page reads none', async () => {
    const white = (
      await sharp({ create: { width: 1400, height: 900, channels: 3, background: '#fff' } })
        .png()
        .toBuffer()
    ).toString('base64');
    const plain = engine('2015.11.18.');
    const readsWithout = await createOcrIdcardOperation({ prepare, ocr: () => plain.ocr, now: () => 0 })
      .run(ctx, { base64_image: white, mask: false })
      .then(() => plain.reads.length);
    expect(plain.reads.every((cleared) => !cleared)).toBe(true);
    const unread = engine('경찰청');
    const result = await createOcrIdcardOperation({ prepare, ocr: () => unread.ocr, now: () => 0 }).run(ctx, {
      base64_image: (await sealedCard()).toString('base64'),
      mask: false,
    });
    expect(result.info.issue_date).toBe('');
    expect(result.warnings).toContainEqual(expect.objectContaining({ field: 'issue_date', code: 'NOT_FOUND' }));
    // The sealed page had one reading more than the white one: the page with pale red whitened.
    expect(unread.reads.length).toBe(readsWithout + 1);
  });
});
