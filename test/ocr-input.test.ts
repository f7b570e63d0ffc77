import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { sniffFormat } from '../src/operations/ocr-idcard/image-input.js';
import { prepareImage } from '../src/operations/ocr-idcard/preprocess.js';
import { cachedFixture } from './helpers/fixture-cache.js';
import { pdfWithImage } from './helpers/id-pdf.js';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('not refused');
};

describe('input formats', () => {
  it('recognises photo formats and PDF by their first bytes', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(sniffFormat(png)).toBe('png');
    expect(sniffFormat(await sharp(png).jpeg().toBuffer())).toBe('jpeg');
    expect(sniffFormat(await sharp(png).webp().toBuffer())).toBe('webp');
    expect(sniffFormat(await sharp(png).avif().toBuffer())).toBe('avif');
    expect(sniffFormat(await pdfWithImage(png))).toBe('pdf');
  });

  it('refuses SVG before decoding it, with a Korean 400 naming the formats to use', () => {
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><use href="#a"/></svg>');
    const error = refusal(() => sniffFormat(svg));
    expect(error).toMatchObject({ status: 400, code: 'INVALID_REQUEST' });
    expect(error.message).toContain('SVG');
    expect(error.message).toContain('JPEG, PNG, WebP');
    expect(refusal(() => sniffFormat(Buffer.from('<html><body>hi</body></html>'))).message).toContain('HTML');
    expect(refusal(() => sniffFormat(Buffer.from('just some text, not an image'))).status).toBe(400);
  });

  it('explains how to send an iPhone HEIC photo instead', () => {
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic\0\0\0\0mif1heic'), Buffer.alloc(32)]);
    expect(refusal(() => sniffFormat(heic)).message).toContain('HEIC');
  });

  it('refuses an image of more pixels than the limit from its header, before decoding', async () => {
    const huge = await cachedFixture('white-8000x6000.png', 'sharp create 8000x6000 rgb #fff, png compressionLevel 9', () =>
      sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
        .png({ compressionLevel: 9 })
        .toBuffer(),
    );
    await expect(prepareImage(huge)).rejects.toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('reads an upright page larger than a card, whose text is about twice as high for its size', async () => {
    const blank = (width: number, height: number) =>
      sharp({ create: { width, height, channels: 3, background: '#fff' } })
        .jpeg()
        .toBuffer();
    const card = await prepareImage(await blank(856, 540));
    expect([card.width, card.height]).toEqual([1400, 883]);
    expect((await prepareImage(await blank(1654, 2339))).height).toBe(1800);
    // Between the two it is read as it is: enlarging it a little only blurs its strokes.
    expect((await prepareImage(await blank(1240, 1754))).height).toBe(1754);
    // A page photographed sideways and turned upright by its EXIF orientation is a page too.
    const sideways = await sharp(await blank(2339, 1654))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect((await prepareImage(sideways)).height).toBe(1800);
  });
});
