import sharp from 'sharp';
import { makeDocument, type DocumentKind, type DocumentSpec } from './id-documents.js';
import { assertKoreanFonts } from './korean-fonts.js';
import { seededRandom } from './seeded-random.js';

/**
 * Renders the synthetic documents of id-documents.ts to images at three levels:
 * clean (PNG as drawn), mild (small rotation, blur, JPEG) and hard (rotation up to 7°,
 * half scale, noise, uneven light, JPEG).
 */

export type Level = 'clean' | 'mild' | 'hard';

export interface TestImage extends DocumentSpec {
  level: Level;
  image: Buffer;
}

/**
 * Without a Korean font librsvg draws empty boxes and every accuracy figure would be
 * meaningless: the fonts come from npm packages (korean-fonts.ts), and a missing one fails loudly.
 */
export { assertKoreanFonts };

/** A white page with lines of NanumGothic text, each `[x, baseline y, font size, text]`: for tests of the line detector and reader. */
export async function drawnPage(
  width: number,
  height: number,
  lines: ReadonlyArray<readonly [number, number, number, string]>,
): Promise<Buffer> {
  assertKoreanFonts();
  const text = lines
    .map(([x, y, size, value]) => `<text x="${x}" y="${y}" font-size="${size}" font-family="NanumGothic, sans-serif">${value}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function renderImage(spec: DocumentSpec, level: Level, seed: number): Promise<Buffer> {
  const png = await sharp(Buffer.from(spec.svg)).png().toBuffer();
  if (level === 'clean') return png;
  const rng = seededRandom(seed ^ 0x5eed);
  const sign = rng() < 0.5 ? -1 : 1;
  if (level === 'mild') {
    const angle = sign * (0.5 + rng() * 1.5);
    return sharp(png)
      .rotate(angle, { background: '#d8d8d8' })
      .blur(0.5 + rng() * 0.3)
      .jpeg({ quality: 75 })
      .toBuffer();
  }
  const angle = sign * (3 + rng() * 4);
  const rotated = await sharp(png).rotate(angle, { background: '#9a9a9a' }).png().toBuffer();
  const meta = await sharp(rotated).metadata();
  const width = Math.round((meta.width ?? spec.width) / 2);
  const height = Math.round((meta.height ?? spec.height) / 2);
  const light =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs>` +
    `<linearGradient id="g" x1="${rng()}" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ffffff"/>` +
    `<stop offset="1" stop-color="#8a8a8a"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/></svg>`;
  const noise = await sharp(gaussianNoise(rng, width * height, 128, 22), { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
  return sharp(rotated)
    .resize(width, height)
    .composite([
      { input: Buffer.from(light), blend: 'multiply' },
      { input: noise, blend: 'soft-light' },
    ])
    .jpeg({ quality: 65 })
    .toBuffer();
}

/** Seeded noise (sharp's own generator is not seeded, and test images must not change between runs). */
export function gaussianNoise(rng: () => number, length: number, mean: number, sigma: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(rng() || 1e-9)) * sigma;
    const angle = 2 * Math.PI * rng();
    out[i] = Math.max(0, Math.min(255, Math.round(mean + radius * Math.cos(angle))));
    if (i + 1 < length) out[i + 1] = Math.max(0, Math.min(255, Math.round(mean + radius * Math.sin(angle))));
  }
  return out;
}

/** `count` images of each kind at one level, from one seed. */
export async function makeImageSet(seed: number, level: Level, count: number, kinds?: DocumentKind[]): Promise<TestImage[]> {
  assertKoreanFonts();
  const out: TestImage[] = [];
  for (const kind of kinds ?? (['resident', 'license', 'business'] as const)) {
    for (let index = 0; index < count; index++) {
      const spec = makeDocument(kind, seed, index);
      out.push({ ...spec, level, image: await renderImage(spec, level, seed * 31 + index) });
    }
  }
  return out;
}
