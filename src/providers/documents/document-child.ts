import { writeFileSync } from 'node:fs';
import { hasDtd, openBoundedZip, ZipLimitError } from './bounded-unzip.js';
import { openPdf, renderOnWhite } from '../pdfjs-modules.js';

/**
 * The child process that reads one uploaded file (sandbox.ts starts it with a heap cap, a
 * memory cap the kernel enforces, a time limit and no environment). It gets one job over IPC,
 * answers once and exits. Nothing in the file is executed: pdf.js runs without eval, mammoth
 * reads the DOCX's XML through the bounded unzip, and linkedom never runs scripts.
 */

export type ChildJob =
  | { kind: 'pdf'; data: Uint8Array; maxPages: number; maxOcrPages: number; longSide: number; maxImagePixels: number; maxChars: number }
  | { kind: 'docx' | 'markdown' | 'html' | 'html-main'; data: Uint8Array; maxChars: number; maxHtmlElements: number }
  | { kind: 'pdf-page'; data: Uint8Array; longSide: number; maxImagePixels: number };

export type ChildAnswer =
  | { text: string; title: string; error?: undefined }
  | { pages: Array<{ text?: string; png?: Uint8Array }>; error?: undefined }
  | { pixels: Uint8Array; width: number; height: number; error?: undefined }
  | { error: string; pages?: number };

/** Set by pdf.js's warning (through console.log) about an image over `maxImageSize`, which it drops. */
let imageTooLarge = false;
console.log =
  console.info =
  console.warn =
    (message: unknown) => {
      if (String(message).includes('exceeded maximum allowed size')) imageTooLarge = true;
    };
console.error = () => {};

const BLOCK =
  /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|BR|DD|DIV|DL|DT|FIGCAPTION|FIGURE|FOOTER|FORM|H[1-6]|HEADER|HR|LI|MAIN|NAV|OL|P|PRE|SECTION|TABLE|TBODY|TD|TH|THEAD|TR|UL)$/;
const SKIP = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|SVG|IFRAME|OBJECT|EMBED|CANVAS|HEAD)$/;

interface DomNode {
  nodeType: number;
  textContent: string | null;
  tagName?: string;
  childNodes: ArrayLike<DomNode>;
}

/** The text of a DOM tree, a line break around each block; a walk with its own stack, so deep nesting cannot overflow the call stack. */
function blockText(root: DomNode): string {
  const out: string[] = [];
  const stack: Array<DomNode | string> = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node === 'string') {
      out.push(node);
      continue;
    }
    if (node !== root && node.nodeType === 3) {
      out.push(node.textContent ?? '');
      continue;
    }
    if (node !== root && node.nodeType !== 1) continue;
    const tag = (node.tagName ?? '').toUpperCase();
    if (node !== root && SKIP.test(tag)) continue;
    const block = node !== root && BLOCK.test(tag);
    if (block) out.push('\n');
    if (block) stack.push('\n');
    for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return out.join('');
}

function tidy(text: string): string {
  // Control characters (a PDF font's unmapped space comes out as U+0001) read as spaces.
  return text
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** More code points than `max`, counted without copying the text. */
function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let count = 0;
  for (const _ of text) if (++count > max) return true;
  return false;
}

async function html(source: string, main: boolean, job: { maxChars: number; maxHtmlElements: number }): Promise<ChildAnswer> {
  // Counted before parsing: a million nested elements would cost linkedom gigabytes.
  const elements = source.match(/<[A-Za-z]/g)?.length ?? 0;
  if (elements > job.maxHtmlElements) return { error: 'TooManyElements' };
  const { parseHTML } = await import('linkedom');
  // linkedom reads a fragment's first element as the root: a fragment is given its document.
  const whole = /<(html|body)[\s>]/i.test(source) ? source : `<!doctype html><html><head></head><body>${source}</body></html>`;
  const { document } = parseHTML(whole);
  const title = (document.querySelector('title')?.textContent ?? '').trim();
  if (main) {
    const { Readability } = await import('@mozilla/readability');
    try {
      const article = new Readability(document.cloneNode(true) as ConstructorParameters<typeof Readability>[0], {
        charThreshold: 200,
      }).parse();
      if (article?.content) {
        const inner = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`).document;
        const text = tidy(blockText(inner.body as unknown as DomNode));
        if (text.length > 0) return checkedText(text, (article.title ?? title).trim(), job.maxChars);
      }
    } catch {
      // Readability recurses over the tree; a page too deep for it is read whole below.
    }
  }
  const root = (document.body ?? document.documentElement) as unknown as DomNode | null;
  return checkedText(root ? tidy(blockText(root)) : '', title, job.maxChars);
}

function checkedText(text: string, title: string, maxChars: number): ChildAnswer {
  return longerThan(text, maxChars) ? { error: 'TooLong' } : { text, title };
}

/** A DOCX through mammoth, its parts read from the bounded unzip (never JSZip, which inflates whatever the archive asks). */
async function docx(data: Uint8Array, job: { maxChars: number; maxHtmlElements: number }): Promise<ChildAnswer> {
  const zip = openBoundedZip(Buffer.from(data.buffer, data.byteOffset, data.length));
  const file = {
    exists: (name: string) => zip.exists(name),
    read: async (name: string, encoding?: string) => {
      const bytes = zip.read(name);
      if (!encoding) return bytes;
      if (encoding === 'base64') return bytes.toString('base64');
      const text = new TextDecoder(encoding).decode(bytes);
      if (/\.(xml|rels)$/i.test(name) && hasDtd(text)) throw new ZipLimitError('DtdInPart');
      return text;
    },
    write: () => {},
    toArrayBuffer: async () => new ArrayBuffer(0),
  };
  const mammoth = (await import('mammoth')).default;
  const result = await mammoth.convertToHtml({ file } as unknown as { buffer: Buffer }, {
    convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
  });
  return html(result.value, false, job);
}

async function pdf(job: Extract<ChildJob, { kind: 'pdf' }>): Promise<ChildAnswer> {
  // verbosity 1: pdf.js's warning about a too large image is what sets imageTooLarge.
  const doc = await openPdf(job.data, job.maxImagePixels, 1);
  if (doc.numPages > job.maxPages) return { error: 'TooManyPages', pages: doc.numPages };
  const pages: Array<{ text?: string; png?: Uint8Array }> = [];
  let scanned = 0;
  let chars = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
    if (text.replace(/\s/g, '').length >= 10) {
      pages.push({ text: tidy(text) });
      chars += text.length;
      if (longerThan(text, job.maxChars) || chars > job.maxChars * 2) return { error: 'TooLong' };
    } else {
      // No text layer: a scanned page, drawn for the OCR engine (within the page limit).
      scanned++;
      if (scanned > job.maxOcrPages) return { error: 'TooManyScannedPages', pages: doc.numPages };
      const canvas = await renderOnWhite(page, job.longSide);
      if (imageTooLarge) return { error: 'ImageTooLarge' };
      pages.push({ png: new Uint8Array(await canvas.encode('png')) });
    }
    page.cleanup();
  }
  await doc.destroy();
  return { pages };
}

async function pdfPage(job: Extract<ChildJob, { kind: 'pdf-page' }>): Promise<ChildAnswer> {
  // verbosity 1: pdf.js's warning about a too large image is what sets imageTooLarge.
  const doc = await openPdf(job.data, job.maxImagePixels, 1);
  const canvas = await renderOnWhite(await doc.getPage(1), job.longSide);
  if (imageTooLarge) return { error: 'ImageTooLarge' };
  return { pixels: new Uint8Array(canvas.data()), width: canvas.width, height: canvas.height };
}

async function run(job: ChildJob): Promise<ChildAnswer> {
  if (job.kind === 'pdf') return pdf(job);
  if (job.kind === 'pdf-page') return pdfPage(job);
  if (job.kind === 'docx') return docx(job.data, job);
  const source = Buffer.from(job.data).toString('utf8');
  if (job.kind === 'markdown') {
    const { marked } = await import('marked');
    return html(await marked.parse(source, { async: true }), false, job);
  }
  return html(source, job.kind === 'html-main', job);
}

function errorName(error: unknown): string {
  if (error instanceof ZipLimitError) return `Zip:${error.reason}`;
  if (error instanceof RangeError && /allocation failed|Invalid (string|array|typed array) length/i.test(error.message))
    return 'OutOfMemory';
  return String((error as { name?: string } | undefined)?.name ?? error);
}

// If the machine runs short of memory, the kernel ends this process before the server.
try {
  writeFileSync('/proc/self/oom_score_adj', '1000');
} catch {
  // Not Linux, or not allowed: the caps still hold.
}
process.once('message', (job: ChildJob) => {
  run(job)
    .catch((error: unknown): ChildAnswer => ({ error: errorName(error) }))
    .then((answer) => process.send!(answer, () => process.exit(0)));
});
