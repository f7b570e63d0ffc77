import { describe, expect, it } from 'vitest';
import type { Box } from '../src/providers/ocr/read-page.js';
import { readingOrder } from '../src/providers/ocr/text-lines.js';

/** The reading order of the detector's boxes; the detector itself (an ONNX model) is `ocr-text-lines.e2e.test.ts`. */
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
