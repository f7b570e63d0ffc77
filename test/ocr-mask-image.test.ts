import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { coveredParts, maskedPagePng } from '../src/operations/ocr-idcard/mask-image.js';
import type { OcrLine } from '../src/providers/ocr/read-page.js';

const line = (words: Array<[text: string, left: number, width: number]>): OcrLine => ({
  text: words.map(([text]) => text).join(' '),
  confidence: 90,
  box: { left: 0, top: 30, width: 400, height: 40 },
  words: words.map(([text, left, width]) => ({ text, confidence: 90, box: { left, top: 30, width, height: 40 } })),
});

async function pixel(png: Buffer, x: number, y: number): Promise<number> {
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  return data[y * info.width + x]!;
}

const page = () =>
  sharp({ create: { width: 400, height: 100, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();

describe('the masked image', () => {
  it('paints over the seven digits after the birth date and leaves the date', async () => {
    const lines = [
      line([
        ['주민등록번호', 0, 40],
        ['900101-1234567', 50, 280],
      ]),
    ];
    const masked = (await maskedPagePng(await page(), lines, 0, ['1234567']))!;
    expect(await pixel(masked, 200, 50)).toBe(0);
    expect(await pixel(masked, 325, 50)).toBe(0);
    expect(await pixel(masked, 100, 50)).toBe(255);
  });

  it('covers a number split over words, and a licence serial after a region name', () => {
    const split = coveredParts(
      line([
        ['900101', 50, 120],
        ['-', 175, 10],
        ['1234567', 190, 140],
      ]),
    );
    expect(split).toEqual([{ digits: '1234567', box: expect.objectContaining({ left: expect.any(Number) }) }]);
    expect(split[0]!.box.left).toBeGreaterThanOrEqual(175);
    expect(split[0]!.box.left + split[0]!.box.width).toBeGreaterThanOrEqual(330);
    const licence = coveredParts(
      line([
        ['서울', 0, 40],
        ['05-123456-78', 50, 240],
      ]),
    );
    expect(licence.map((part) => part.digits)).toEqual(['123456']);
  });

  it('sends no image when a returned number was not found where it stands, or the page was read rotated', async () => {
    const lines = [line([['900101-1234567', 50, 280]])];
    expect(await maskedPagePng(await page(), lines, 0, ['7654321'])).toBeUndefined();
    expect(await maskedPagePng(await page(), lines, 0.05, ['1234567'])).toBeUndefined();
    expect(await maskedPagePng(await page(), [line([['홍길동', 50, 80]])], 0, [])).toBeUndefined();
  });
});
