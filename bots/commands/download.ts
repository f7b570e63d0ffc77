import { AppError } from '../../src/errors.js';
import { BodyTooLargeError, readCappedBody } from '../../src/net/capped-body.js';

/** The reader's own limit (SPEC leaves it open; the HTTP door takes 10 MB too). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** Fetches an image of at most 10 MB; anything else is a Korean AppError. */
export async function downloadImage(url: string, headers: Record<string, string> = {}): Promise<Buffer> {
  let res: Response;
  try {
    res = await fetch(url, { headers, redirect: 'follow', signal: AbortSignal.timeout(15_000) });
  } catch {
    throw new AppError('UPSTREAM_ERROR', '이미지를 내려받지 못했습니다. 잠시 후 다시 시도해 주세요.').en(
      'Could not download the file. Please try again shortly.',
    );
  }
  if (!res.ok)
    throw new AppError('UPSTREAM_ERROR', `이미지를 내려받지 못했습니다 (HTTP ${res.status}).`).en(
      `Could not download the file (HTTP ${res.status}).`,
    );
  const type = res.headers.get('content-type') ?? '';
  const readable = ['image/', 'application/pdf', 'application/octet-stream', 'binary/'];
  if (type && !readable.some((prefix) => type.startsWith(prefix))) {
    throw new AppError('INVALID_REQUEST', '이미지나 PDF 파일이 아닙니다.').en('Not an image or PDF file.');
  }
  if (Number(res.headers.get('content-length') ?? 0) > MAX_IMAGE_BYTES) {
    void res.body?.cancel();
    throw tooLarge();
  }
  try {
    // Streamed with a ceiling: a file that lies about (or omits) its length stops at 10 MB.
    return await readCappedBody(res.body, MAX_IMAGE_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw tooLarge();
    throw new AppError('UPSTREAM_ERROR', '이미지를 내려받는 중에 연결이 끊겼습니다. 잠시 후 다시 시도해 주세요.').en(
      'The download was interrupted. Please try again shortly.',
    );
  }
}

function tooLarge(): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', '파일이 너무 큽니다 (최대 10MB).').en('The file is too large (at most 10 MB).');
}
