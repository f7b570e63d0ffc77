import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Box } from '../src/providers/ocr/read-page.js';
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

/** For the detector alone: a page with a title, a label and its value far apart on one row, and an address below. */
const titledPage = () =>
  drawnPage(1000, 600, [
    [330, 100, 44, '사 업 자 등 록 증'],
    [60, 260, 30, '상호'],
    [520, 260, 30, '주식회사 한빛상사'],
    [60, 420, 30, '서울특별시 중구 세종대로 110'],
  ]);

const middle = (box: Box) => box.top + box.height / 2;

describe('the text-line detector (PaddleOCR DB, ONNX)', () => {
  it('finds each printed line where it stands, top to bottom and left to right, and nothing on blank paper', async () => {
    const boxes = await detector.detect(await titledPage());
    // Four pieces of text: the title, the label and its value (one row), the address.
    expect(boxes).toHaveLength(4);
    const [title, label, value, address] = boxes as [Box, Box, Box, Box];
    expect(middle(title)).toBeGreaterThan(65);
    expect(middle(title)).toBeLessThan(100);
    expect(Math.abs(middle(label) - middle(value))).toBeLessThan(8);
    expect(label.left).toBeLessThan(70);
    expect(label.left + label.width).toBeLessThan(200);
    expect(value.left).toBeGreaterThan(500);
    expect(value.left).toBeLessThan(530);
    expect(middle(address)).toBeGreaterThan(395);
    expect(middle(address)).toBeLessThan(420);
    // The box reaches the glyphs' edges: a 30 px line of text is 25 to 50 px high once grown back.
    expect(address.height).toBeGreaterThan(25);
    expect(address.height).toBeLessThan(50);
    expect(boxes.every((box) => box.top + box.height < 460)).toBe(true);
  });

  it('bounds the model input: a page far larger than its side limit is found at the same places, scaled', async () => {
    const small = await detector.detect(await titledPage());
    const large = await detector.detect(
      await sharp(await titledPage())
        .resize(3000)
        .png()
        .toBuffer(),
    );
    expect(large).toHaveLength(small.length);
    large.forEach((box, i) => expect(Math.abs(middle(box) / 3 - middle(small[i] as Box))).toBeLessThan(6));
  });
});
