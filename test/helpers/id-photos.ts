import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { makeDocument, type DocumentKind, type DocumentSpec } from './id-documents.js';
import { assertKoreanFonts, gaussianNoise } from './id-images.js';
import { seededRandom } from './seeded-random.js';
import { sharedDataPath } from './shared-data.js';

/**
 * Phone-style photos of the synthetic documents: the card's security print (guilloche waves,
 * a rosette, the issuer's red seal; a certificate on the real blank NTS form when it is
 * present in ../shared), then the camera: perspective up to ±8°, a desk behind it, a hand's
 * shadow, uneven light, a glare spot, defocus, sensor noise and JPEG at quality 50–75;
 * a quarter of the cards are small (400 px wide). Everything is seeded.
 */

type Rng = () => number;
const between = (rng: Rng, low: number, high: number) => low + rng() * (high - low);

/** The blank 사업자등록증 forms in ../shared (read in place, never copied). */
const NTS_BLANKS = ['a', 'b'].map((v) => sharedDataPath(`ocr-samples/assets/nts_blank_${v}.jpg`));

export interface PhotoImage extends DocumentSpec {
  level: 'photo';
  image: Buffer;
}

/** Light security print under a card's text: wavy guilloche lines and a rosette of circles. */
function guilloche(rng: Rng, width: number, height: number): string {
  const hue = Math.floor(between(rng, 0, 360));
  const colour = `hsl(${hue},45%,72%)`;
  const waves: string[] = [];
  const amplitude = between(rng, 10, 40);
  const period = between(rng, 80, 220);
  for (let k = 0; k < 26; k++) {
    const offset = (k * height) / 20 - height * 0.1;
    const phase = k * 0.35;
    let d = `M0 ${offset.toFixed(1)}`;
    for (let x = 0; x <= width; x += 16) d += ` L${x} ${(offset + amplitude * Math.sin(x / period + phase)).toFixed(1)}`;
    waves.push(`<path d="${d}" stroke="${colour}" stroke-width="1.2" fill="none" opacity="0.7"/>`);
  }
  const cx = between(rng, width * 0.3, width * 0.7);
  const cy = between(rng, height * 0.3, height * 0.7);
  const rosette = Array.from({ length: 24 }, (_, i) => {
    const angle = (i / 24) * Math.PI * 2;
    const r = height * 0.22;
    return `<circle cx="${(cx + Math.cos(angle) * r * 0.5).toFixed(1)}" cy="${(cy + Math.sin(angle) * r * 0.5).toFixed(1)}" r="${r.toFixed(1)}" stroke="hsl(${(hue + 40) % 360},40%,70%)" stroke-width="1" fill="none" opacity="0.6"/>`;
  }).join('');
  return `<g>${waves.join('')}${rosette}</g>`;
}

/** The issuer's square red seal, overlapping the end of the issuer line as on real cards. */
function seal(x: number, y: number, size: number): string {
  return (
    `<g opacity="0.75"><rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${size * 0.08}" fill="none" stroke="#c8262c" stroke-width="${size * 0.06}"/>` +
    `<text x="${x + size / 2}" y="${y + size * 0.45}" font-size="${size * 0.32}" text-anchor="middle" fill="#c8262c" font-family="NanumMyeongjo, Noto Sans KR, serif">廳長</text>` +
    `<text x="${x + size / 2}" y="${y + size * 0.85}" font-size="${size * 0.32}" text-anchor="middle" fill="#c8262c" font-family="NanumMyeongjo, Noto Sans KR, serif">之印</text></g>`
  );
}

/** The document as printed: security print under the text, the seal over the issuer. */
async function printedDocument(spec: DocumentSpec, rng: Rng): Promise<Buffer> {
  const background = /<rect width="100%" height="100%" fill="[^"]+"\/>/;
  if (spec.kind === 'business') {
    const blank = NTS_BLANKS[Math.floor(rng() * NTS_BLANKS.length)] as string;
    const svg = existsSync(blank)
      ? spec.svg.replace(background, '')
      : spec.svg.replace(background, (rect) => rect + guilloche(rng, spec.width, spec.height));
    const withSeal = existsSync(blank) ? svg : svg.replace('</svg>', `${seal(820, 1440, 120)}</svg>`);
    const text = await sharp(Buffer.from(withSeal)).png().toBuffer();
    if (!existsSync(blank)) return text;
    return sharp(blank)
      .resize(spec.width, spec.height, { fit: 'fill' })
      .composite([{ input: text }])
      .png()
      .toBuffer();
  }
  const svg = spec.svg
    .replace(background, (rect) => rect + guilloche(rng, spec.width, spec.height))
    .replace('</svg>', `${spec.kind === 'resident' ? seal(668, 516, 104) : seal(928, 550, 82)}</svg>`);
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Solves the 3×3 homography mapping four points onto four others (Gaussian elimination). */
function homography(from: number[][], to: number[][]): number[] {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i] as [number, number];
    const [u, v] = to[i] as [number, number];
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let pivot = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(a[r]![c]!) > Math.abs(a[pivot]![c]!)) pivot = r;
    [a[c], a[pivot]] = [a[pivot]!, a[c]!];
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = a[r]![c]! / a[c]![c]!;
      for (let k = c; k < 9; k++) a[r]![k]! -= f * a[c]![k]!;
    }
  }
  return [...Array.from({ length: 8 }, (_, i) => a[i]![8]! / a[i]![i]!), 1];
}

/** A desk: a wood-like or fabric-like colour field with grain. */
function desk(rng: Rng, width: number, height: number): Buffer {
  const base = [between(rng, 60, 200), between(rng, 50, 170), between(rng, 40, 150)];
  const grain = between(rng, 4, 20);
  const out = Buffer.alloc(width * height * 3);
  const freq = between(rng, 0.01, 0.05);
  for (let y = 0; y < height; y++) {
    const stripe = Math.sin(y * freq + Math.sin(y * 0.003) * 4) * grain;
    for (let x = 0; x < width; x++) {
      const n = (rng() - 0.5) * grain;
      for (let c = 0; c < 3; c++) out[(y * width + x) * 3 + c] = Math.max(0, Math.min(255, (base[c] as number) + stripe + n));
    }
  }
  return out;
}

/** Places the document in a frame with perspective, bilinear sampling over the desk. */
async function photograph(document: Buffer, rng: Rng, small: boolean): Promise<{ data: Buffer; width: number; height: number }> {
  const meta = await sharp(document).metadata();
  const docWidth = meta.width as number;
  const docHeight = meta.height as number;
  const portrait = docHeight > docWidth;
  const cardWidth = small ? 400 : Math.round(between(rng, portrait ? 900 : 1000, portrait ? 1200 : 1450));
  const scale = cardWidth / docWidth;
  const src = await sharp(document)
    .resize(Math.round(docWidth * scale))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const w = src.info.width;
  const h = src.info.height;
  const margin = Math.round(w * between(rng, 0.08, 0.2));
  const width = w + 2 * margin;
  const height = h + 2 * margin;
  // Perspective: each corner moves by up to ~8° worth of the side it belongs to.
  const tilt = (side: number) => side * Math.tan((between(rng, -8, 8) * Math.PI) / 180) * 0.5;
  const corners = [
    [margin + tilt(h), margin + tilt(w)],
    [margin + w + tilt(h), margin + tilt(w)],
    [margin + w + tilt(h), margin + h + tilt(w)],
    [margin + tilt(h), margin + h + tilt(w)],
  ];
  const inverse = homography(corners, [
    [0, 0],
    [w, 0],
    [w, h],
    [0, h],
  ]);
  const data = desk(rng, width, height);
  const [a, b, c, d, e, f, g, k] = inverse as [number, number, number, number, number, number, number, number];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const z = g * x + k * y + 1;
      const u = (a * x + b * y + c) / z;
      const v = (d * x + e * y + f) / z;
      if (u < 0 || v < 0 || u >= w - 1 || v >= h - 1) continue;
      const x0 = Math.floor(u);
      const y0 = Math.floor(v);
      const fx = u - x0;
      const fy = v - y0;
      const i00 = (y0 * w + x0) * 3;
      const i10 = i00 + w * 3;
      const out = (y * width + x) * 3;
      for (let ch = 0; ch < 3; ch++) {
        const top = (src.data[i00 + ch] as number) * (1 - fx) + (src.data[i00 + 3 + ch] as number) * fx;
        const bottom = (src.data[i10 + ch] as number) * (1 - fx) + (src.data[i10 + 3 + ch] as number) * fx;
        data[out + ch] = top * (1 - fy) + bottom * fy;
      }
    }
  }
  return { data, width, height };
}

/** Light and shadow as SVG overlays: a gradient, a soft shadow edge and a glare spot. */
function lighting(rng: Rng, width: number, height: number): { multiply: string; screen: string } {
  const dark = Math.round(between(rng, 120, 200));
  const shadowX = between(rng, -0.2, 0.4) * width;
  const multiply =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs>` +
    `<linearGradient id="l" x1="${rng().toFixed(2)}" y1="${rng().toFixed(2)}" x2="1" y2="1"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="rgb(${dark},${dark},${dark})"/></linearGradient>` +
    `<filter id="s"><feGaussianBlur stdDeviation="${(width / 40).toFixed(1)}"/></filter></defs>` +
    `<rect width="100%" height="100%" fill="url(#l)"/>` +
    (rng() < 0.6
      ? `<ellipse cx="${shadowX.toFixed(0)}" cy="${(height * between(rng, 0.6, 1.1)).toFixed(0)}" rx="${(width * 0.35).toFixed(0)}" ry="${(height * 0.45).toFixed(0)}" fill="rgb(150,150,150)" filter="url(#s)"/>`
      : '') +
    '</svg>';
  const glare = rng() < 0.7;
  const gx = between(rng, 0.15, 0.85) * width;
  const gy = between(rng, 0.15, 0.85) * height;
  const gr = between(rng, 0.04, 0.1) * width;
  const screen =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs>` +
    `<radialGradient id="g"><stop offset="0" stop-color="#fff" stop-opacity="${glare ? between(rng, 0.5, 0.85).toFixed(2) : 0}"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient></defs>` +
    `<ellipse cx="${gx.toFixed(0)}" cy="${gy.toFixed(0)}" rx="${(gr * 1.6).toFixed(0)}" ry="${gr.toFixed(0)}" fill="url(#g)"/></svg>`;
  return { multiply, screen };
}

export async function renderPhoto(spec: DocumentSpec, seed: number): Promise<Buffer> {
  const rng = seededRandom(seed ^ 0x9407);
  const small = spec.kind !== 'business' && rng() < 0.25;
  const shot = await photograph(await printedDocument(spec, rng), rng, small);
  const { width, height } = shot;
  const light = lighting(rng, width, height);
  const noise = await sharp(gaussianNoise(rng, width * height, 128, between(rng, 8, 18)), { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
  const lit = await sharp(shot.data, { raw: { width, height, channels: 3 } })
    .composite([
      { input: Buffer.from(light.multiply), blend: 'multiply' },
      { input: Buffer.from(light.screen), blend: 'screen' },
      { input: noise, blend: 'soft-light' },
    ])
    .png()
    .toBuffer();
  const sigma = between(rng, 0.4, small ? 0.9 : 1.6);
  return sharp(lit)
    .blur(sigma)
    .jpeg({ quality: Math.round(between(rng, 50, 75)) })
    .toBuffer();
}

/** `count` photos of each kind from one seed. */
export async function makePhotoSet(seed: number, count: number, kinds?: DocumentKind[]): Promise<PhotoImage[]> {
  assertKoreanFonts();
  const out: PhotoImage[] = [];
  for (const kind of kinds ?? (['resident', 'license', 'business'] as const)) {
    for (let index = 0; index < count; index++) {
      const spec = makeDocument(kind, seed, index);
      out.push({ ...spec, level: 'photo', image: await renderPhoto(spec, seed * 131 + index * 7 + kind.length) });
    }
  }
  return out;
}
