import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const PDFJS_DIR = dirname(require.resolve('pdfjs-dist/package.json'));

/**
 * Where a worker thread loads pdf.js and its canvas from (the ID reader's PDF pages and the
 * knowledge documents). Korean PDFs (홈택스's among them) use CID fonts that need Adobe's CMaps;
 * standard fonts that are not embedded come from pdf.js's own files. Both are read from disk,
 * never fetched.
 */
export const PDFJS_MODULES = {
  pdfjs: pathToFileURL(join(PDFJS_DIR, 'legacy/build/pdf.mjs')).href,
  canvas: pathToFileURL(require.resolve('@napi-rs/canvas')).href,
  cMapUrl: `${join(PDFJS_DIR, 'cmaps')}/`,
  standardFontDataUrl: `${join(PDFJS_DIR, 'standard_fonts')}/`,
};

/**
 * Source text both PDF worker threads include (they run as strings, so they cannot import it):
 * a PDF opened with pdf.js as both need it (no eval, no system fonts, the image pixel limit,
 * CMaps and standard fonts from disk), and a page drawn on white at a given long side.
 */
export const PDFJS_WORKER_HELPERS = `
function openPdf(pdfjs, modules, data, maxImagePixels, verbosity) {
  return pdfjs.getDocument({
    data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity,
    maxImageSize: maxImagePixels, isOffscreenCanvasSupported: false,
    cMapUrl: modules.cMapUrl, cMapPacked: true, standardFontDataUrl: modules.standardFontDataUrl,
  }).promise;
}
async function renderOnWhite(page, createCanvas, longSide) {
  const base = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: longSide / Math.max(base.width, base.height) });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: context, viewport, canvas }).promise;
  return canvas;
}
`;
