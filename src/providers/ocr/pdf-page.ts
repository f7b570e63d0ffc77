import { Worker } from 'node:worker_threads';
import { AppError } from '../../errors.js';
import { PDFJS_MODULES, PDFJS_WORKER_HELPERS } from '../pdfjs-modules.js';
import { MAX_IMAGE_PIXELS } from './image-limits.js';

/** Longest side of the rendered page: an A4 certificate at ~170 dpi, plenty for its 10-pt text. */
const PAGE_LONG_SIDE = 2000;
const RENDER_TIMEOUT_MS = 15_000;
/**
 * Pages rendered at once in the whole process, and callers that may wait for one. Each render
 * holds at most one decoded image of MAX_IMAGE_PIXELS (pdf.js drops larger ones before
 * decoding) and its scratch canvas, about 400 MB at worst: one at a time bounds the total.
 */
const RENDERS_AT_ONCE = 1;
const MAX_WAITING = 8;
/** The worker's JavaScript heap; decoded pixels live outside it and are bounded by the image limit. */
const WORKER_HEAP_MB = 256;

const MODULES = PDFJS_MODULES;

/**
 * Runs in a worker thread, so a hostile or huge PDF neither blocks the event loop nor
 * outlives its time limit (the thread is terminated). Renders page 1 to a PNG.
 * Every image the page draws obeys the direct images' pixel limit: pdf.js's \`maxImageSize\`
 * drops a larger one before decoding it, and says so only as a warning, which is caught here
 * (pdf.js warns through console.log) so the caller hears what to fix instead of a blank page.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
${PDFJS_WORKER_HELPERS}
let imageTooLarge = false;
console.log = console.info = console.warn = (message) => {
  if (String(message).includes('exceeded maximum allowed size')) imageTooLarge = true;
};
(async () => {
  const { modules, data, longSide, maxImagePixels } = workerData;
  const pdfjs = await import(modules.pdfjs);
  const { createCanvas } = await import(modules.canvas);
  // verbosity 1: pdf.js's warning about a too large image is what sets imageTooLarge.
  const doc = await openPdf(pdfjs, modules, data, maxImagePixels, 1);
  const canvas = await renderOnWhite(await doc.getPage(1), createCanvas, longSide);
  if (imageTooLarge) {
    parentPort.postMessage({ error: 'ImageTooLarge' });
    return;
  }
  const pixels = canvas.data();
  parentPort.postMessage({ pixels: new Uint8Array(pixels), width: canvas.width, height: canvas.height });
  await doc.destroy();
})().catch((error) => parentPort.postMessage({ error: String(error && error.name || error) }));
`;

const UNREADABLE_PDF = "'base64_image' 필드: PDF를 읽지 못했습니다. 손상되었거나 암호가 걸린 파일인지 확인하세요.";
const imageTooLarge = () =>
  new AppError(
    'PAYLOAD_TOO_LARGE',
    `PDF 안의 이미지 해상도가 너무 큽니다 (이미지 하나에 최대 ${MAX_IMAGE_PIXELS / 1_000_000}백만 화소). 첫 페이지를 사진(JPEG, PNG)으로 보내 주세요.`,
  ).en(
    `An image inside the PDF is too large (at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels each). Send the first page as a JPEG or PNG.`,
  );
const busy = () => new AppError('UNAVAILABLE', 'PDF를 처리하는 요청이 많습니다. 잠시 후 다시 보내 주세요.', {}, 5);

let rendering = 0;
const waiting: Array<() => void> = [];

/** A render slot, or a 503 when too many callers already wait for one. */
function takeSlot(): Promise<void> | AppError {
  if (rendering < RENDERS_AT_ONCE) {
    rendering++;
    return Promise.resolve();
  }
  if (waiting.length >= MAX_WAITING) return busy();
  return new Promise((resolve) => waiting.push(resolve));
}

function releaseSlot(): void {
  const next = waiting.shift();
  if (next) next();
  else rendering--;
}

/** Uncompressed RGBA pixels: encoding the page only to decode it again would waste a second. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
}

/**
 * The first page of a PDF as RGBA pixels (a 홈택스 사업자등록증 is one), rendered with pdf.js and
 * @napi-rs/canvas in a worker thread with a time limit, one page at a time in the process.
 * A PDF that cannot be read is 400; one drawing an image over the pixel limit is 413.
 */
export async function renderPdfFirstPage(bytes: Buffer, signal?: AbortSignal): Promise<RawImage> {
  const slot = takeSlot();
  if (slot instanceof AppError) throw slot;
  await slot;
  try {
    signal?.throwIfAborted();
    return await renderInWorker(bytes, signal);
  } finally {
    releaseSlot();
  }
}

function renderInWorker(bytes: Buffer, signal?: AbortSignal): Promise<RawImage> {
  return new Promise((resolve, reject) => {
    const data = new Uint8Array(bytes);
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { modules: MODULES, data, longSide: PAGE_LONG_SIDE, maxImagePixels: MAX_IMAGE_PIXELS },
      transferList: [data.buffer as ArrayBuffer],
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 32 },
    });
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      settle();
    };
    const timer = setTimeout(
      () =>
        finish(() => reject(new AppError('UNPROCESSABLE', 'PDF를 그리는 데 시간이 너무 오래 걸립니다. 첫 페이지를 이미지로 보내 주세요.'))),
      RENDER_TIMEOUT_MS,
    );
    const onAbort = () => finish(() => reject(signal?.reason ?? new Error('aborted')));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (message: { pixels?: Uint8Array; width: number; height: number; error?: string }) => {
      const { pixels, width, height } = message;
      if (pixels) finish(() => resolve({ data: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.length), width, height, channels: 4 }));
      else if (message.error === 'ImageTooLarge') finish(() => reject(imageTooLarge()));
      else {
        const locked = message.error === 'PasswordException';
        finish(() =>
          reject(
            new AppError('INVALID_REQUEST', locked ? "'base64_image' 필드: 암호가 걸린 PDF는 읽을 수 없습니다." : UNREADABLE_PDF, {
              field: 'base64_image',
            }),
          ),
        );
      }
    });
    // A worker that runs out of its heap ends with an error: the PDF asked for too much.
    worker.once('error', (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? imageTooLarge()
            : new AppError('INVALID_REQUEST', UNREADABLE_PDF, { field: 'base64_image' }),
        ),
      ),
    );
  });
}
