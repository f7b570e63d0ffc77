import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { sniffFormat } from '../src/operations/ocr-idcard/image-input.js';
import { prepareImage } from '../src/operations/ocr-idcard/preprocess.js';
import { renderPdfFirstPage } from '../src/providers/ocr/pdf-page.js';
import { pdfWithHugeImage, pdfWithImage } from './helpers/id-pdf.js';

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
    const huge = await sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
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

describe('PDF input', () => {
  it('renders the first page of a PDF to pixels', { timeout: 60_000 }, async () => {
    const red = await sharp({ create: { width: 300, height: 420, channels: 3, background: '#d00' } })
      .png()
      .toBuffer();
    const page = await renderPdfFirstPage(await pdfWithImage(red, 2));
    expect(page.width).toBeGreaterThan(page.height * 0.6);
    expect(Math.max(page.width, page.height)).toBe(2000);
    // The middle pixel is the image's red, not the blank page's white.
    const middle = (Math.floor(page.height / 2) * page.width + Math.floor(page.width / 2)) * 4;
    expect(page.data[middle]).toBeGreaterThan(180);
    expect(page.data[middle + 1]).toBeLessThan(60);
  });

  it('answers a broken PDF with a Korean 400', { timeout: 60_000 }, async () => {
    await expect(renderPdfFirstPage(Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF'))).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('PDF'),
    });
  });
});

describe('PDF images obey the image limits', () => {
  it('refuses a page drawing one 12,000 × 12,000 image with a 413 saying what to send', { timeout: 60_000 }, async () => {
    const pdf = pdfWithHugeImage(12_000);
    expect(pdf.length).toBeLessThan(100_000);
    await expect(renderPdfFirstPage(pdf)).rejects.toMatchObject({
      status: 413,
      message: expect.stringMatching(/PDF 안의 이미지.*JPEG, PNG/),
    });
  });

  it('renders such pages one at a time: two at once are both refused, neither decoded', { timeout: 60_000 }, async () => {
    const results = await Promise.allSettled([renderPdfFirstPage(pdfWithHugeImage(16_000)), renderPdfFirstPage(pdfWithHugeImage(12_000))]);
    expect(results.map((r) => (r.status === 'rejected' ? (r.reason as { status: number }).status : 200))).toEqual([413, 413]);
  });

  it('still renders a page whose image is within the limit', { timeout: 60_000 }, async () => {
    const page = await renderPdfFirstPage(pdfWithHugeImage(3_000));
    expect(Math.max(page.width, page.height)).toBe(2000);
  });
});
