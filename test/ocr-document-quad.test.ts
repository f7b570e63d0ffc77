import { describe, expect, it } from 'vitest';
import { findDocumentQuad, warpQuad } from '../src/operations/ocr-idcard/document-quad.js';

/** A bright quadrilateral (the paper) on a dark desk, as a grey image. */
function scene(width: number, height: number, quad: Array<[number, number]>): Buffer {
  const data = Buffer.alloc(width * height, 60);
  const inside = (x: number, y: number) =>
    quad.every(([ax, ay], i) => {
      const [bx, by] = quad[(i + 1) % quad.length]!;
      return (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0;
    });
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (inside(x, y)) data[y * width + x] = 230;
  return data;
}

describe('document detection', () => {
  it('finds the four corners of the paper in a photo', () => {
    const corners: Array<[number, number]> = [
      [60, 40],
      [250, 55],
      [240, 180],
      [50, 170],
    ];
    const quad = findDocumentQuad(scene(300, 220, corners), 300, 220);
    expect(quad).toBeDefined();
    quad!.forEach(([x, y], i) => {
      expect(Math.abs(x - corners[i]![0])).toBeLessThanOrEqual(2);
      expect(Math.abs(y - corners[i]![1])).toBeLessThanOrEqual(2);
    });
  });

  it('leaves alone a frame the document fills, or one with no paper', () => {
    expect(findDocumentQuad(Buffer.alloc(200 * 100, 230), 200, 100)).toBeUndefined();
    expect(
      findDocumentQuad(
        scene(200, 100, [
          [10, 10],
          [30, 10],
          [30, 30],
          [10, 30],
        ]),
        200,
        100,
      ),
    ).toBeUndefined();
  });

  it('warps the quadrilateral to an upright rectangle', () => {
    const corners: Array<[number, number]> = [
      [60, 40],
      [250, 55],
      [240, 180],
      [50, 170],
    ];
    const out = warpQuad(scene(300, 220, corners), 300, 220, corners);
    expect(out.width).toBeGreaterThan(185);
    expect(out.height).toBeGreaterThan(125);
    // The inside of the result is all paper.
    expect(out.data[Math.floor(out.height / 2) * out.width + Math.floor(out.width / 2)]).toBe(230);
  });
});
