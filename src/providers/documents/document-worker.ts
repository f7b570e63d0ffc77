import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { MAX_IMAGE_PIXELS } from '../ocr/image-limits.js';
import { PDFJS_MODULES, PDFJS_WORKER_HELPERS } from '../pdfjs-modules.js';

/**
 * Reading an uploaded document (PDF, DOCX, HTML, Markdown) happens in a worker thread with a
 * heap cap and a time limit, as the ID reader renders its PDFs: a hostile or huge file neither
 * blocks the event loop nor outlives its limit (the thread is terminated), and nothing in the
 * file is executed (pdf.js without eval, mammoth reads XML, HTML is parsed by linkedom, whose
 * scripts never run). Only the text (and, for a scanned PDF page, its picture) comes back.
 */

const require = createRequire(import.meta.url);
const MODULES = {
  ...PDFJS_MODULES,
  mammoth: pathToFileURL(require.resolve('mammoth')).href,
  linkedom: pathToFileURL(require.resolve('linkedom')).href,
  readability: pathToFileURL(require.resolve('@mozilla/readability')).href,
  marked: pathToFileURL(require.resolve('marked')).href,
};

/** The worker's JavaScript heap; a rendered page's pixels live outside it and obey the image limit. */
const WORKER_HEAP_MB = 256;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
console.log = console.info = console.warn = console.error = () => {};
${PDFJS_WORKER_HELPERS}
const BLOCK = /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|BR|DD|DIV|DL|DT|FIGCAPTION|FIGURE|FOOTER|FORM|H[1-6]|HEADER|HR|LI|MAIN|NAV|OL|P|PRE|SECTION|TABLE|TBODY|TD|TH|THEAD|TR|UL)$/;
const SKIP = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|SVG|IFRAME|OBJECT|EMBED|CANVAS|HEAD)$/;
function blockText(node, out) {
  for (const child of node.childNodes) {
    if (child.nodeType === 3) out.push(child.textContent);
    else if (child.nodeType === 1) {
      const tag = child.tagName.toUpperCase();
      if (SKIP.test(tag)) continue;
      const block = BLOCK.test(tag);
      if (block) out.push('\\n');
      blockText(child, out);
      if (block) out.push('\\n');
    }
  }
  return out;
}
function tidy(text) {
  // Control characters (a PDF font's unmapped space comes out as U+0001) read as spaces.
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ').replace(/[ \\t\\u00a0]+/g, ' ').replace(/ *\\n */g, '\\n').replace(/\\n{3,}/g, '\\n\\n').trim();
}
async function html(source, main) {
  const { parseHTML } = await import(workerData.modules.linkedom);
  // linkedom reads a fragment's first element as the root: a fragment is given its document.
  const whole = /<(html|body)[\s>]/i.test(source) ? source : '<!doctype html><html><head></head><body>' + source + '</body></html>';
  const { document } = parseHTML(whole);
  const title = (document.querySelector('title')?.textContent || '').trim();
  if (main) {
    const { Readability } = (await import(workerData.modules.readability)).default ?? (await import(workerData.modules.readability));
    const article = new Readability(document.cloneNode(true), { charThreshold: 200 }).parse();
    if (article && article.content) {
      const inner = parseHTML('<!doctype html><html><body>' + article.content + '</body></html>').document;
      const text = tidy(blockText(inner.body, []).join(''));
      if (text.length > 0) return { text, title: (article.title || title).trim() };
    }
  }
  const root = document.body || document.documentElement;
  return { text: root ? tidy(blockText(root, []).join('')) : '', title };
}
async function pdf(data) {
  const { modules, maxPages, maxOcrPages, longSide, maxImagePixels } = workerData;
  const pdfjs = await import(modules.pdfjs);
  const doc = await openPdf(pdfjs, modules, data, maxImagePixels, 0);
  if (doc.numPages > maxPages) return { error: 'TooManyPages', pages: doc.numPages };
  const pages = [];
  let scanned = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const text = content.items.map((item) => (item.str || '') + (item.hasEOL ? '\\n' : '')).join('');
    if (text.replace(/\\s/g, '').length >= 10) {
      pages.push({ text: tidy(text) });
    } else {
      // No text layer: a scanned page, drawn for the OCR engine (within the page limit).
      scanned++;
      if (scanned > maxOcrPages) return { error: 'TooManyScannedPages', pages: doc.numPages };
      const { createCanvas } = await import(modules.canvas);
      const canvas = await renderOnWhite(page, createCanvas, longSide);
      pages.push({ png: new Uint8Array(await canvas.encode('png')) });
    }
    page.cleanup();
  }
  await doc.destroy();
  return { pages };
}
(async () => {
  const { kind, data } = workerData;
  if (kind === 'pdf') return pdf(data);
  if (kind === 'docx') {
    const mammoth = (await import(workerData.modules.mammoth)).default;
    const result = await mammoth.convertToHtml({ buffer: Buffer.from(data) }, { convertImage: mammoth.images.imgElement(() => ({ src: '' })) });
    return html(result.value, false);
  }
  const source = Buffer.from(data).toString('utf8');
  if (kind === 'markdown') {
    const { marked } = await import(workerData.modules.marked);
    return html(await marked.parse(source, { async: true }), false);
  }
  return html(source, kind === 'html-main');
})().then(
  (result) => parentPort.postMessage(result),
  (error) => parentPort.postMessage({ error: String((error && error.name) || error) }),
);
`;

export type DocumentKind = 'pdf' | 'docx' | 'markdown' | 'html' | 'html-main';

export type WorkerResult =
  | { text: string; title: string; error?: undefined }
  | { pages: Array<{ text?: string; png?: Uint8Array }>; error?: undefined }
  | { error: string; pages?: number };

export interface WorkerLimits {
  timeoutMs: number;
  maxPages: number;
  maxOcrPages: number;
}

/** Longest side of a scanned page drawn for the OCR engine (~170 dpi on A4). */
const PAGE_LONG_SIDE = 2000;

/** Runs one extraction in a fresh worker thread; `Timeout` and `OutOfMemory` come back as errors too. */
export function runDocumentWorker(kind: DocumentKind, bytes: Buffer, limits: WorkerLimits, signal?: AbortSignal): Promise<WorkerResult> {
  return new Promise((resolve) => {
    const data = new Uint8Array(bytes);
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: {
        modules: MODULES,
        kind,
        data,
        maxPages: limits.maxPages,
        maxOcrPages: limits.maxOcrPages,
        longSide: PAGE_LONG_SIDE,
        maxImagePixels: MAX_IMAGE_PIXELS,
      },
      transferList: [data.buffer as ArrayBuffer],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
    });
    const finish = (result: WorkerResult) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      resolve(result);
    };
    const timer = setTimeout(() => finish({ error: 'Timeout' }), limits.timeoutMs);
    const onAbort = () => finish({ error: 'Aborted' });
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: WorkerResult) => finish(message));
    worker.once('error', (error: Error & { code?: string }) =>
      finish({ error: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'OutOfMemory' : 'Failed' }),
    );
    worker.once('exit', () => finish({ error: 'Failed' }));
  });
}
