/**
 * Document detection and perspective correction for photos: the paper is the largest bright
 * region; its four corners are the extreme points of that region along the diagonals, and the
 * quadrilateral is warped back to a rectangle. Measured by `npm run eval:ocr`; see
 * PrepareOptions.detect for whether the service uses it.
 */

type Point = [number, number];

/** Otsu's threshold of a grey histogram. */
function otsu(data: Uint8Array | Buffer): number {
  const histogram = new Float64Array(256);
  for (const value of data) histogram[value]!++;
  let sum = 0;
  for (let i = 0; i < 256; i++) sum += i * (histogram[i] as number);
  let below = 0;
  let belowSum = 0;
  let best = 128;
  let bestVariance = -1;
  for (let t = 0; t < 256; t++) {
    below += histogram[t] as number;
    if (below === 0 || below === data.length) continue;
    belowSum += t * (histogram[t] as number);
    const above = data.length - below;
    const variance = below * above * (belowSum / below - (sum - belowSum) / above) ** 2;
    if (variance > bestVariance) [best, bestVariance] = [t, variance];
  }
  return best;
}

/** The largest 4-connected region of bright pixels, as a mask, and its size. */
function largestBrightRegion(
  data: Uint8Array | Buffer,
  width: number,
  height: number,
  threshold: number,
): { mask: Uint8Array; area: number } {
  const label = new Int32Array(width * height);
  const stack: number[] = [];
  let best = 0;
  let bestArea = 0;
  let next = 0;
  for (let start = 0; start < label.length; start++) {
    if (label[start] !== 0 || (data[start] as number) <= threshold) continue;
    next++;
    let area = 0;
    label[start] = next;
    stack.push(start);
    while (stack.length > 0) {
      const at = stack.pop() as number;
      area++;
      const x = at % width;
      const neighbours = [x > 0 ? at - 1 : -1, x < width - 1 ? at + 1 : -1, at - width, at + width];
      for (const n of neighbours) {
        if (n < 0 || n >= label.length || label[n] !== 0 || (data[n] as number) <= threshold) continue;
        label[n] = next;
        stack.push(n);
      }
    }
    if (area > bestArea) [best, bestArea] = [next, area];
  }
  const mask = new Uint8Array(label.length);
  for (let i = 0; i < label.length; i++) if (label[i] === best) mask[i] = 1;
  return { mask, area: bestArea };
}

/**
 * The document's corners (top-left, top-right, bottom-right, bottom-left) in a small grey
 * image, or undefined when no region between 20% and 92% of the frame stands out (the
 * document fills the frame already, or there is no clear paper edge).
 */
export function findDocumentQuad(data: Uint8Array | Buffer, width: number, height: number): Point[] | undefined {
  const { mask, area } = largestBrightRegion(data, width, height, otsu(data));
  const share = area / (width * height);
  if (share < 0.2 || share > 0.92) return undefined;
  let tl: Point = [0, 0];
  let tr: Point = [0, 0];
  let br: Point = [0, 0];
  let bl: Point = [0, 0];
  let [minSum, maxSum, maxDiff, minDiff] = [Infinity, -Infinity, -Infinity, Infinity];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      if (x + y < minSum) [minSum, tl] = [x + y, [x, y]];
      if (x + y > maxSum) [maxSum, br] = [x + y, [x, y]];
      if (x - y > maxDiff) [maxDiff, tr] = [x - y, [x, y]];
      if (x - y < minDiff) [minDiff, bl] = [x - y, [x, y]];
    }
  }
  // The quad must cover most of the region: a blob that is not four-cornered is left alone.
  const quadArea = Math.abs(shoelace([tl, tr, br, bl]));
  if (quadArea < area * 0.85) return undefined;
  return [tl, tr, br, bl];
}

function shoelace(points: Point[]): number {
  let sum = 0;
  points.forEach(([x, y], i) => {
    const [nx, ny] = points[(i + 1) % points.length] as Point;
    sum += x * ny - nx * y;
  });
  return sum / 2;
}

/** The 3×3 homography taking each `from` point to its `to` point. */
function homography(from: Point[], to: Point[]): number[] {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i] as Point;
    const [u, v] = to[i] as Point;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u], [0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let pivot = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
    [a[c], a[pivot]] = [a[pivot]!, a[c]!];
    for (let r = 0; r < 8; r++) {
      if (r === c || a[c]![c] === 0) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k < 9; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  return [...Array.from({ length: 8 }, (_, i) => a[i]![8]! / a[i]![i]!), 1];
}

const length = ([ax, ay]: Point, [bx, by]: Point) => Math.hypot(ax - bx, ay - by);

/** Warps the quadrilateral `quad` of a grey image to an upright rectangle (bilinear). */
export function warpQuad(data: Buffer, width: number, height: number, quad: Point[]): { data: Buffer; width: number; height: number } {
  const [tl, tr, br, bl] = quad as [Point, Point, Point, Point];
  const outWidth = Math.round(Math.max(length(tl, tr), length(bl, br)));
  const outHeight = Math.round(Math.max(length(tl, bl), length(tr, br)));
  const [a, b, c, d, e, f, g, h] = homography(
    [
      [0, 0],
      [outWidth, 0],
      [outWidth, outHeight],
      [0, outHeight],
    ],
    quad,
  ) as [number, number, number, number, number, number, number, number];
  const out = Buffer.alloc(outWidth * outHeight, 255);
  for (let y = 0; y < outHeight; y++) {
    for (let x = 0; x < outWidth; x++) {
      const z = g * x + h * y + 1;
      const u = (a * x + b * y + c) / z;
      const v = (d * x + e * y + f) / z;
      if (u < 0 || v < 0 || u >= width - 1 || v >= height - 1) continue;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      const fx = u - x0;
      const fy = v - y0;
      const i = y0 * width + x0;
      const top = (data[i] as number) * (1 - fx) + (data[i + 1] as number) * fx;
      const bottom = (data[i + width] as number) * (1 - fx) + (data[i + width + 1] as number) * fx;
      out[y * outWidth + x] = top * (1 - fy) + bottom * fy;
    }
  }
  return { data: out, width: outWidth, height: outHeight };
}
