import { AppError } from '../../errors.js';
import { runInChild } from '../documents/sandbox.js';
import { MAX_IMAGE_PIXELS } from './image-limits.js';

/** Longest side of the rendered page: an A4 certificate at ~170 dpi, plenty for its 10-pt text. */
const PAGE_LONG_SIDE = 2000;
const RENDER_TIMEOUT_MS = 15_000;
/**
 * Pages rendered at once in the whole process, and callers that may wait for one. Each render
 * runs in the document child process (documents/sandbox.ts: a heap cap, a memory cap the
 * kernel enforces, no environment), so a hostile PDF ends only that child; one at a time keeps
 * a core for everyone else.
 */
const RENDERS_AT_ONCE = 1;
const MAX_WAITING = 8;

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

async function renderInWorker(bytes: Buffer, signal?: AbortSignal): Promise<RawImage> {
  const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const answer = await runInChild(
    { kind: 'pdf-page', data, longSide: PAGE_LONG_SIDE, maxImagePixels: MAX_IMAGE_PIXELS },
    RENDER_TIMEOUT_MS,
    signal,
  );
  if ('pixels' in answer && answer.pixels) {
    const { pixels, width, height } = answer;
    return { data: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.length), width, height, channels: 4 };
  }
  switch (answer.error) {
    case 'Timeout':
      throw new AppError('UNPROCESSABLE', 'PDF를 그리는 데 시간이 너무 오래 걸립니다. 첫 페이지를 이미지로 보내 주세요.');
    case 'Aborted':
      throw signal?.reason ?? new Error('aborted');
    // A PDF that asks for more memory than the child may have: too large, as an image over the limit is.
    case 'ImageTooLarge':
    case 'OutOfMemory':
      throw imageTooLarge();
    case 'Unavailable':
      throw busy();
    case 'PasswordException':
      throw new AppError('INVALID_REQUEST', "'base64_image' 필드: 암호가 걸린 PDF는 읽을 수 없습니다.", { field: 'base64_image' });
    default:
      throw new AppError('INVALID_REQUEST', UNREADABLE_PDF, { field: 'base64_image' });
  }
}
