import { afterAll, describe, expect, it } from 'vitest';
import { readByLines } from '../src/providers/ocr/read-lines.js';
import { createTesseractPool } from '../src/providers/ocr/tesseract-pool.js';
import { createTextLineDetector } from '../src/providers/ocr/text-lines.js';
import { drawnPage } from './helpers/id-images.js';

const pool = createTesseractPool({ size: 1 });
const detector = createTextLineDetector();
afterAll(async () => {
  await pool.close();
  await detector.close();
});

/** A label and its value far apart on one row, and small print under it. */
const page = () =>
  drawnPage(1000, 400, [
    [60, 120, 32, '등록번호'],
    [560, 120, 32, '123-45-67890'],
    [60, 260, 18, '서울특별시 중구 세종대로 110'],
  ]);

describe('a page read line by line', () => {
  it('reads each detected line alone and places its words back on the page, a row cut at its column gap', async () => {
    const read = await readByLines(pool, detector, await page());
    expect(read.lines.map((line) => line.text.replace(/\s/g, ''))).toEqual(['등록번호', '123-45-67890', '서울특별시중구세종대로110']);
    const [label, number, address] = read.lines;
    // The words stand where they were printed: the number's at x ≈ 560, the small line's (enlarged to be read) at y ≈ 245–265.
    expect(Math.abs(number!.box.left - 560)).toBeLessThan(12);
    // One row: compared by their middles, since Tesseract may give a Hangul syllable a box twice its
    // height (it did for 록 in Google's NanumGothic), and a line's box is the union of its words'.
    const middle = (box: { top: number; height: number }) => box.top + box.height / 2;
    expect(Math.abs(middle(number!.box) - middle(label!.box))).toBeLessThan(10);
    expect(address!.box.top).toBeGreaterThan(235);
    expect(address!.box.top + address!.box.height).toBeLessThan(275);
    expect(address!.words?.[0]?.box?.left).toBeLessThan(75);
  });
});
