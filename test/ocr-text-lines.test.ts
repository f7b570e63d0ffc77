import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import type { Box } from '../src/providers/ocr/read-page.js';
import { createTextLineDetector, readingOrder } from '../src/providers/ocr/text-lines.js';
import { drawnPage } from './helpers/id-images.js';

/** A page with a title, a label and its value far apart on one row, and an address below. */
const page = () =>
  drawnPage(1000, 600, [
    [330, 100, 44, '사 업 자 등 록 증'],
    [60, 260, 30, '상호'],
    [520, 260, 30, '주식회사 한빛상사'],
    [60, 420, 30, '서울특별시 중구 세종대로 110'],
  ]);

const middle = (box: Box) => box.top + box.height / 2;
const detector = createTextLineDetector();
afterAll(() => detector.close());

describe('the text-line detector (PaddleOCR DB, ONNX)', () => {
  it('finds each printed line where it stands, top to bottom and left to right, and nothing on blank paper', async () => {
    const boxes = await detector.detect(await page());
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
    const small = await detector.detect(await page());
    const large = await detector.detect(
      await sharp(await page())
        .resize(3000)
        .png()
        .toBuffer(),
    );
    expect(large).toHaveLength(small.length);
    large.forEach((box, i) => expect(Math.abs(middle(box) / 3 - middle(small[i] as Box))).toBeLessThan(6));
  });
});

describe('reading order', () => {
  it('reads a row left to right even when its boxes differ a little in height, then the next row', () => {
    const box = (left: number, top: number, height = 30): Box => ({ left, top, width: 100, height });
    const order = readingOrder([box(600, 204, 26), box(50, 300), box(50, 200, 34)]);
    expect(order.map((b) => [b.left, b.top])).toEqual([
      [50, 200],
      [600, 204],
      [50, 300],
    ]);
  });
});
