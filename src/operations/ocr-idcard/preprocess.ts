import { availableParallelism } from 'node:os';
import type { Box } from '../../providers/ocr/read-page.js';
import sharp, { type Metadata } from 'sharp';
import { AppError } from '../../errors.js';
import { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS } from '../../providers/ocr/image-limits.js';
import type { RawImage } from '../../providers/ocr/pdf-page.js';
import type { OcrEngine, OcrText } from '../../providers/ocr/tesseract-pool.js';
import { findDocumentQuad, warpQuad } from './document-quad.js';

/**
 * libvips threads per image. sharp takes one on glibc Linux (fewer malloc arenas); two, where
 * the machine has them, halve the decoding, scaling and 3×3 median of a card (143 → 72 ms) and
 * cut a phone photo's from about 300 to 110 ms when the other core is free, for about 30 MB
 * more held (README). Under full load the cores are shared either way.
 */
sharp.concurrency(Math.min(2, availableParallelism()));

/** The decoding limits, shared with the PDF renderer (providers/ocr/image-limits.ts). */
export { MAX_IMAGE_BYTES, MAX_IMAGE_PIXELS };

/** Long side after scaling: text on a card lands near the height Tesseract reads best. */
const TARGET_LONG_SIDE = 1400;
/**
 * An upright page (a 사업자등록증, scanned, photographed or from a PDF) prints its text about
 * half as high, relative to its long side, as a card: it is read larger, up to this. Measured
 * on the tuning photo set: fields 93.8% → 96.9–97.9%, its four certificate misreads gone
 * (1600 px kept them; 2000 px read as well, slower).
 */
const PAGE_LONG_SIDE = 1800;
const MAX_SKEW_DEGREES = 9;

export interface PreparedImage {
  png: Buffer;
  width: number;
  height: number;
  format: string;
  skewDegrees: number;
  /** With `drop-seal`: the share of the page's pixels whitened as pale red only (a faded seal's). */
  sealShare?: number;
}

export interface PrepareOptions {
  /**
   * `drop-colour` (default) whitens strongly coloured print; `luminance` keeps it as grey;
   * `drop-seal` also whitens pale red (a faded seal on a scan: see {@link SEAL_RED_EXCESS}).
   */
  ink?: 'drop-colour' | 'luminance' | 'drop-seal';
  /** Long side after scaling (default 1400 px for a card; an upright page 1400–1800, as it is when between). */
  longSide?: number;
  /**
   * Find the paper in a photo and undo its perspective. Off by default: measured with
   * `npm run eval:ocr -- --detect`, it lowered field accuracy on every set (README).
   */
  detect?: boolean;
}

interface Grey {
  data: Buffer;
  width: number;
  height: number;
}

/** The paper cut out of the photo and warped upright; the image unchanged when none stands out. */
async function straighten(image: Grey, luminance: Buffer): Promise<Grey> {
  const scale = 320 / Math.max(image.width, image.height);
  const small = await sharp(luminance, { raw: { width: image.width, height: image.height, channels: 1 } })
    .resize(Math.round(image.width * scale), Math.round(image.height * scale))
    .blur(1.5)
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const quad = findDocumentQuad(small.data, small.info.width, small.info.height);
  if (!quad) return image;
  const full = quad.map(([x, y]) => [x / scale, y / scale] as [number, number]);
  return warpQuad(image.data, image.width, image.height, full);
}

/**
 * Decodes any image sharp reads (JPEG, PNG, WebP, GIF, TIFF, AVIF; a PDF page as pixels),
 * applies the EXIF orientation, turns it grey, scales it, evens out uneven light, stretches
 * contrast and straightens a skew of up to ~9°. The result is a PNG for Tesseract.
 */
export async function prepareImage(input: Buffer | RawImage, options: PrepareOptions = {}): Promise<PreparedImage> {
  const raw = Buffer.isBuffer(input) ? undefined : input;
  const bytes = Buffer.isBuffer(input) ? input : input.data;
  const decodeOptions = raw ? { raw: { width: raw.width, height: raw.height, channels: raw.channels } } : {};
  if (!raw && bytes.length > MAX_IMAGE_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `이미지가 너무 큽니다 (최대 ${MAX_IMAGE_BYTES / 1024 / 1024}MB).`);
  }
  const meta = await sharp(bytes, { limitInputPixels: false, ...decodeOptions })
    .metadata()
    .catch(() => {
      throw new AppError('INVALID_REQUEST', "'base64_image' 필드: 이미지로 읽을 수 없는 데이터입니다 (PNG, JPEG, WebP 등).", {
        field: 'base64_image',
      });
    });
  const pixels = (meta.width ?? 0) * (meta.height ?? 0) * Math.max(1, meta.pages ?? 1);
  const longSide = options.longSide ?? (isPortrait(meta) ? pageLongSide(meta) : TARGET_LONG_SIDE);
  if (pixels > MAX_IMAGE_PIXELS) {
    throw new AppError('PAYLOAD_TOO_LARGE', `이미지 해상도가 너무 큽니다 (최대 ${MAX_IMAGE_PIXELS / 1_000_000}백만 화소).`);
  }
  const colour = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'none', ...decodeOptions })
    .rotate()
    .flatten({ background: '#ffffff' })
    .resize({ width: longSide, height: longSide, fit: 'inside', kernel: 'lanczos3' })
    .median(3)
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      // sharp's libheif reads AVIF but not HEVC-coded HEIC (iPhone photos).
      const reason =
        meta.format === 'heif'
          ? 'HEIC 이미지는 지원하지 않습니다. JPEG나 PNG로 변환해 보내 주세요.'
          : '이미지를 해독하지 못했습니다. 손상된 파일인지 확인하세요.';
      throw new AppError('INVALID_REQUEST', `'base64_image' 필드: ${reason}`, { field: 'base64_image' });
    });
  const ink = inkChannel(colour.data, colour.info.channels, options.ink ?? 'drop-colour');
  let gray = { data: ink.grey, width: colour.info.width, height: colour.info.height };
  if (options.detect) {
    // The paper is found in plain luminance: a red or blue desk must not turn white.
    gray = await straighten(gray, inkChannel(colour.data, colour.info.channels, 'luminance').grey);
  }
  const { width, height } = gray;
  const flat = await flattenLight(gray.data, width, height);
  const skew = estimateSkew(flat, width, height);
  let image = sharp(flat, { raw: { width, height, channels: 1 } });
  if (Math.abs(skew) >= 0.3) image = image.rotate(-skew, { background: '#ffffff' });
  const png = await image.toColourspace('b-w').png({ compressionLevel: 1 }).toBuffer();
  const sealShare = options.ink === 'drop-seal' ? ink.paleRed / (colour.info.width * colour.info.height) : undefined;
  return {
    png,
    width,
    height,
    format: raw ? 'pdf' : (meta.format ?? 'unknown'),
    skewDegrees: skew,
    ...(sealShare === undefined ? {} : { sealShare }),
  };
}

/** A page between the card's scale and PAGE_LONG_SIDE is read as it is: enlarging it a little only blurs its strokes. */
function pageLongSide(meta: Metadata): number {
  return Math.min(PAGE_LONG_SIDE, Math.max(TARGET_LONG_SIDE, meta.width ?? 0, meta.height ?? 0));
}

/** Taller than wide once its EXIF orientation is applied (orientations 5–8 turn it a quarter). */
function isPortrait(meta: Metadata): boolean {
  const [width, height] = (meta.orientation ?? 1) >= 5 ? [meta.height ?? 0, meta.width ?? 0] : [meta.width ?? 0, meta.height ?? 0];
  return height > width * 1.2;
}

/**
 * Red above both green and blue by more than this: a licence's or card's seal faded to pale
 * pink on a low-quality scan (its channels differ by 25–41, under the 60 that `drop-colour`
 * whitens). Whitening it on every page cost other fields (the first generator's photos 93 → 91
 * of 96), so `drop-seal` is used only to read a card's missing issue date again (ocr-idcard.ts).
 */
const SEAL_RED_EXCESS = 18;

/**
 * Grey for the engine. With `drop-colour`, a strongly coloured pixel takes its brightest
 * channel, so the red seal over the issuer and saturated guilloche turn light and drop out,
 * while black and grey ink (and faintly tinted card stock) keep their luminance. `drop-seal`
 * also gives its brightest channel to a pale red pixel (red above green and blue by more than
 * SEAL_RED_EXCESS), so a faded seal's frame no longer strikes through the digits under it;
 * `paleRed` counts those pixels (whitened only by that test, not by the colour one).
 */
function inkChannel(data: Buffer, channels: number, ink: PrepareOptions['ink']): { grey: Buffer; paleRed: number } {
  if (channels === 1) return { grey: data, paleRed: 0 };
  const grey = Buffer.alloc(data.length / channels);
  const seal = ink === 'drop-seal';
  let paleRed = 0;
  for (let i = 0, j = 0; j < grey.length; i += channels, j++) {
    const r = data[i] as number;
    const g = data[i + 1] as number;
    const b = data[i + 2] as number;
    const max = Math.max(r, g, b);
    const coloured = ink !== 'luminance' && max - Math.min(r, g, b) > 60;
    const faded = seal && !coloured && r - Math.max(g, b) > SEAL_RED_EXCESS;
    if (faded) paleRed++;
    grey[j] = coloured || faded ? max : Math.round(0.299 * r + 0.587 * g + 0.114 * b);
  }
  return { grey, paleRed };
}

/** Width and height from a PNG header. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * A band of the page between the given edges, rounded and kept inside the page, or undefined
 * when what is left is too thin or too short to hold a line of text.
 */
export function pageBand(
  edges: { left: number; right: number; top: number; bottom: number },
  width: number,
  height: number,
): { left: number; top: number; width: number; height: number } | undefined {
  const left = Math.max(0, Math.round(edges.left));
  const right = Math.min(width, Math.round(edges.right));
  const top = Math.max(0, Math.round(edges.top));
  const bottom = Math.min(height, Math.round(edges.bottom));
  if (bottom - top < 8 || right - left < 16) return undefined;
  return { left, top, width: right - left, height: bottom - top };
}

/**
 * A band cut from a page already read (its straightened image) is read at no rotation:
 * tesseract finds no skew in one or two lines and reports the previous image's instead, so
 * the same band read differently depending on what its worker had read before (석촌/식존).
 */
export function readBand(engine: OcrEngine, png: Buffer, signal?: AbortSignal): Promise<OcrText> {
  return engine.recognize(png, signal, 0);
}

/** A part of a prepared page with a white margin, as a PNG for the engine; `scale` enlarges it first. */
export async function cropPng(png: Buffer, box: { left: number; top: number; width: number; height: number }, scale = 1): Promise<Buffer> {
  const margin = { top: 10, bottom: 10, left: 10, right: 10, background: '#ffffff' };
  if (scale === 1) return sharp(png).extract(box).extend(margin).png().toBuffer();
  const crop = await sharp(png)
    .extract(box)
    .resize({ width: Math.round(box.width * scale), kernel: 'cubic' })
    .png()
    .toBuffer();
  return sharp(crop).extend(margin).png().toBuffer();
}

/** A copy for a vision model: upright, at most 1600 px, JPEG, as a data URL. */
export async function visionImage(bytes: Buffer): Promise<string> {
  const jpeg = await sharp(bytes, { limitInputPixels: MAX_IMAGE_PIXELS })
    .rotate()
    .resize({ width: 1600, height: 1600, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
}

/** `DIVIDED[background * 256 + value]`: the value over its background, as 0–255 (flattenLight). */
const DIVIDED = (() => {
  const table = new Uint8Array(256 * 256);
  for (let background = 0; background < 256; background++) {
    for (let value = 0; value < 256; value++)
      table[background * 256 + value] = Math.min(255, Math.round((value * 255) / Math.max(1, background)));
  }
  return table;
})();

/**
 * Flat-field correction: the background is the local maximum (a window wider than any pen
 * stroke, so ink disappears from it), softened; dividing by it turns uneven light and large
 * flat areas (photo, table) white while ink stays dark. Then stretches so the darkest 0.5% is black and the paper (the brightest 60%) white, which also clears paper noise.
 */
async function flattenLight(data: Buffer, width: number, height: number): Promise<Buffer> {
  // The background varies slowly: it is estimated at half size (a quarter of the work) and
  // scaled back. Averaging down also smooths noise, so the maximum follows the paper rather
  // than the brightest speck.
  const smallWidth = Math.ceil(width / 2);
  const smallHeight = Math.ceil(height / 2);
  const window = Math.max(5, Math.round(Math.max(smallWidth, smallHeight) / 60)) | 1;
  const small = await sharp(data, { raw: { width, height, channels: 1 } })
    .resize(smallWidth, smallHeight, { kernel: 'linear' })
    .blur(1)
    .extractChannel(0)
    .raw()
    .toBuffer();
  const maxed = maxFilter(small, smallWidth, smallHeight, window);
  const background = await sharp(maxed, { raw: { width: smallWidth, height: smallHeight, channels: 1 } })
    .blur(window / 2)
    .resize(width, height, { kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  // Both per-pixel steps go through tables: a division per pixel cost more than the rest.
  const out = Buffer.alloc(data.length);
  const histogram = new Uint32Array(256);
  for (let i = 0; i < data.length; i++) {
    const value = DIVIDED[background[i]! * 256 + data[i]!]!;
    out[i] = value;
    histogram[value]!++;
  }
  const low = percentileOf(histogram, data.length * 0.005);
  const high = Math.max(low + 1, percentileOf(histogram, data.length * 0.4));
  const scale = 255 / (high - low);
  const stretched = new Uint8Array(256);
  for (let value = 0; value < 256; value++) stretched[value] = Math.max(0, Math.min(255, Math.round((value - low) * scale)));
  for (let i = 0; i < out.length; i++) out[i] = stretched[out[i]!]!;
  return out;
}

/**
 * Separable running maximum (van Herk / Gil-Werman: three passes per line whatever the window).
 * The vertical pass runs over whole rows at once, so it reads memory in order.
 */
function maxFilter(data: Buffer, width: number, height: number, window: number): Buffer {
  const rows = new Uint8Array(data.length);
  // Scratch for one row: the vertical pass has its own, a whole image each.
  const forward = new Uint8Array(width);
  const backward = new Uint8Array(width);
  for (let y = 0; y < height; y++)
    runningMax(data.subarray(y * width, (y + 1) * width), window, rows.subarray(y * width), forward, backward);
  return verticalRunningMax(rows, width, height, window);
}

/** `out[i]` = the maximum of `line` within `window >> 1` of i; `forward`/`backward` are scratch space. */
function runningMax(line: Uint8Array, window: number, out: Uint8Array, forward: Uint8Array, backward: Uint8Array): void {
  const length = line.length;
  const radius = window >> 1;
  for (let i = 0; i < length; i++) forward[i] = i % window === 0 ? line[i]! : Math.max(forward[i - 1]!, line[i]!);
  for (let i = length - 1; i >= 0; i--) {
    backward[i] = i === length - 1 || (i + 1) % window === 0 ? line[i]! : Math.max(backward[i + 1]!, line[i]!);
  }
  for (let i = 0; i < length; i++) out[i] = Math.max(backward[Math.max(0, i - radius)]!, forward[Math.min(length - 1, i + radius)]!);
}

/** runningMax down every column, a whole row at a time. */
function verticalRunningMax(data: Uint8Array, width: number, height: number, window: number): Buffer {
  const radius = window >> 1;
  const forward = new Uint8Array(data.length);
  const backward = new Uint8Array(data.length);
  const out = Buffer.alloc(data.length);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    if (y % window === 0) forward.set(data.subarray(row, row + width), row);
    else for (let x = 0; x < width; x++) forward[row + x] = Math.max(forward[row - width + x]!, data[row + x]!);
  }
  for (let y = height - 1; y >= 0; y--) {
    const row = y * width;
    if (y === height - 1 || (y + 1) % window === 0) backward.set(data.subarray(row, row + width), row);
    else for (let x = 0; x < width; x++) backward[row + x] = Math.max(backward[row + width + x]!, data[row + x]!);
  }
  for (let y = 0; y < height; y++) {
    const low = Math.max(0, y - radius) * width;
    const high = Math.min(height - 1, y + radius) * width;
    for (let x = 0; x < width; x++) out[y * width + x] = Math.max(backward[low + x]!, forward[high + x]!);
  }
  return out;
}

function percentileOf(histogram: Uint32Array, rank: number): number {
  let seen = 0;
  for (let value = 0; value < 256; value++) {
    seen += histogram[value] as number;
    if (seen >= rank) return value;
  }
  return 255;
}

/**
 * Projection-profile skew estimate: rotate the dark pixels' coordinates by each candidate
 * angle and keep the angle whose row histogram is sharpest (text lines line up).
 * Tesseract's own deskew (rotateAuto) then handles what is left.
 */
export function estimateSkew(data: Buffer, width: number, height: number): number {
  const step = Math.max(1, Math.round(Math.max(width, height) / 600));
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 0; y < height; y += step) {
    for (let x = 0; x < width; x += step) {
      if ((data[y * width + x] as number) < 110) {
        xs.push(x / step);
        ys.push(y / step);
      }
    }
  }
  if (xs.length < 50) return 0;
  const rows = Math.ceil((width + height) / step) + 2;
  const offset = Math.ceil(width / step) + 1;
  const bins = new Float64Array(rows + offset);
  const score = (degrees: number): number => {
    const radians = (degrees * Math.PI) / 180;
    const sin = Math.sin(radians);
    const cos = Math.cos(radians);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) {
      const row = Math.round((ys[i] as number) * cos - (xs[i] as number) * sin) + offset;
      bins[row]!++;
    }
    let sum = 0;
    for (let i = 0; i < bins.length; i++) sum += (bins[i] as number) * (bins[i] as number);
    return sum;
  };
  let best = 0;
  let bestScore = score(0);
  for (let degrees = -MAX_SKEW_DEGREES; degrees <= MAX_SKEW_DEGREES; degrees += 0.5) {
    const s = score(degrees);
    if (s > bestScore) [best, bestScore] = [degrees, s];
  }
  for (let degrees = best - 0.4; degrees <= best + 0.4; degrees += 0.1) {
    const s = score(degrees);
    if (s > bestScore) [best, bestScore] = [degrees, s];
  }
  return Math.round(best * 10) / 10;
}

/** `mask: true`: the page as a PNG with black boxes painted over it, each clamped to the page. */
export async function paintBoxes(png: Buffer, boxes: Box[]): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(png).metadata();
  const painted = boxes
    .map((box) => {
      const left = Math.max(0, Math.round(box.left));
      const top = Math.max(0, Math.round(box.top));
      const right = Math.min(width, Math.round(box.left + box.width));
      const bottom = Math.min(height, Math.round(box.top + box.height));
      return { left, top, width: right - left, height: bottom - top };
    })
    .filter((box) => box.width > 0 && box.height > 0);
  return sharp(png)
    .composite(
      painted.map((box) => ({
        input: { create: { width: box.width, height: box.height, channels: 3 as const, background: '#000000' } },
        left: box.left,
        top: box.top,
      })),
    )
    .png()
    .toBuffer();
}
