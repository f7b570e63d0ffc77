import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { makeDocument } from './helpers/id-documents.js';
import { makeIndependentItem } from './helpers/id-independent.js';
import { assertKoreanFonts, renderImage } from './helpers/id-images.js';

/**
 * `mask: true` returns the page with the numbers covered: read the masked image again and the
 * back digits and serials are gone while the rest of the document still reads. Cards of both
 * generators (two layouts of each kind, clean scans).
 */
let app: TestApp;
let user: TestUser;

beforeAll(async () => {
  assertKoreanFonts();
  app = await startTestApp({}, { ocr: { size: 1 } });
  user = await app.signUp();
});
afterAll(() => app?.close());

interface Reading {
  info: { type: string; id_number: string; license_number?: string };
  masked_image?: string;
}

async function read(image: Buffer): Promise<Reading> {
  const res = await app.post('/api/v1/ocr/idcard', { base64_image: image.toString('base64'), mask: true }, user.apiKey);
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
  return res.body as Reading;
}

const cards = [
  { name: 'resident card, first generator', image: () => renderImage(makeDocument('resident', 1, 0), 'clean', 1) },
  { name: "driver's licence, first generator", image: () => renderImage(makeDocument('license', 1, 0), 'clean', 1) },
  { name: 'resident card, independent generator', image: async () => (await makeIndependentItem('tune', 'resident', 'clean', 0)).image },
  { name: "driver's licence, independent generator", image: async () => (await makeIndependentItem('tune', 'licence', 'clean', 0)).image },
];

describe('mask: true covers the numbers in the image too', () => {
  it.each(cards)(
    '$name',
    async ({ image }) => {
      const first = await read(await image());
      expect(first.masked_image, 'a masked image for a card whose number was read').toBeDefined();
      const masked = Buffer.from(first.masked_image!, 'base64');
      expect((await sharp(masked).metadata()).format).toBe('png');

      const again = await read(masked);
      // The birth date still reads; the seven digits after it do not.
      const front = first.info.id_number.slice(0, 6);
      expect(again.info.id_number.startsWith(front) || again.info.id_number === '').toBe(true);
      expect(again.info.id_number.replace(/\D/g, '').length).toBeLessThan(13);
      if (first.info.license_number) expect(again.info.license_number ?? '').not.toMatch(/\d{6}-\d{2}$/);
    },
    120_000,
  );
});
