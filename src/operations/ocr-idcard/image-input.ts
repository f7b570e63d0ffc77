import { AppError, fieldError } from '../../errors.js';
import { MAX_IMAGE_BYTES } from './preprocess.js';

const DATA_URI = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[\w.-]+)*);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64_URL = /^[A-Za-z0-9_-]*={0,2}$/;

/**
 * The image bytes of `base64_image`: an optional data-URI prefix, standard or URL-safe
 * alphabet, line breaks allowed. Not Base64 is 400; more than 10 MB decoded is 413.
 */
export function decodeBase64Image(value: string): Buffer {
  const body = value.replace(DATA_URI, '').replace(/\s+/g, '');
  if (body.length === 0) {
    throw fieldError('base64_image', { ko: '이미지 데이터가 비어 있습니다.', en: 'The image data is empty.' });
  }
  if (!BASE64.test(body) && !BASE64_URL.test(body)) {
    throw fieldError('base64_image', { ko: 'Base64 형식이 아닙니다.', en: 'Not Base64.' });
  }
  // Checked before decoding, so an oversized string is never copied.
  if (Math.floor((body.length * 3) / 4) > MAX_IMAGE_BYTES + 2) {
    throw new AppError('PAYLOAD_TOO_LARGE', `이미지가 너무 큽니다 (최대 ${MAX_IMAGE_BYTES / 1024 / 1024}MB).`).en(`The image is too large (at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB).`);
  }
  const bytes = Buffer.from(body, BASE64.test(body) ? 'base64' : 'base64url');
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `이미지가 너무 큽니다 (최대 ${MAX_IMAGE_BYTES / 1024 / 1024}MB).`).en(`The image is too large (at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB).`);
  }
  if (bytes.length < 16) {
    throw fieldError('base64_image', { ko: '이미지로 읽을 수 없는 데이터입니다.', en: 'Not an image.' });
  }
  return bytes;
}
