import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderPdfFirstPage } from '../src/providers/ocr/pdf-page.js';
import { pdfWithHugeImage, pdfWithImage } from './helpers/id-pdf.js';

/**
 * A PDF's first page as the ID reader gets it: rendered by pdf.js in the document sandbox, a
 * child process per page (src/providers/documents/sandbox.ts), hence end to end. The formats
 * and the image limits before decoding are `ocr-input.test.ts`.
 */
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
