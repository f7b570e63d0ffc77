import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Canvas } from '@napi-rs/canvas';
import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist/types/src/pdf.js';

const require = createRequire(import.meta.url);
const PDFJS_DIR = dirname(require.resolve('pdfjs-dist/package.json'));

/**
 * Korean PDFs (홈택스's among them) use CID fonts that need Adobe's CMaps; standard fonts that
 * are not embedded come from pdf.js's own files. Both are read from disk, never fetched.
 */
const CMAP_URL = `${join(PDFJS_DIR, 'cmaps')}/`;
const STANDARD_FONT_DATA_URL = `${join(PDFJS_DIR, 'standard_fonts')}/`;

/**
 * A PDF opened with pdf.js as both PDF readers need it (the ID reader's first page and the
 * knowledge documents, each in the document child process): no eval, no system fonts, every
 * image over `maxImagePixels` dropped before decoding. pdf.js is loaded here, on first use.
 */
export async function openPdf(data: Uint8Array, maxImagePixels: number, verbosity: number): Promise<PDFDocumentProxy> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs.getDocument({
    data,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity,
    maxImageSize: maxImagePixels,
    isOffscreenCanvasSupported: false,
    cMapUrl: CMAP_URL,
    cMapPacked: true,
    standardFontDataUrl: STANDARD_FONT_DATA_URL,
  }).promise;
}

/** The page drawn on white with its long side `longSide` pixels. */
export async function renderOnWhite(page: PDFPageProxy, longSide: number): Promise<Canvas> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: longSide / Math.max(base.width, base.height) });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  type RenderParameters = Parameters<PDFPageProxy['render']>[0];
  await page.render({
    canvasContext: context as unknown as RenderParameters['canvasContext'],
    viewport,
    canvas: canvas as unknown as RenderParameters['canvas'],
  }).promise;
  return canvas;
}
