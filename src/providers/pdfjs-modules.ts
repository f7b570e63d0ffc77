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
