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
    throw new AppError('PAYLOAD_TOO_LARGE', `이미지가 너무 큽니다 (최대 ${MAX_IMAGE_BYTES / 1024 / 1024}MB).`).en(
      `The image is too large (at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB).`,
    );
  }
  const bytes = Buffer.from(body, BASE64.test(body) ? 'base64' : 'base64url');
  if (bytes.length > MAX_IMAGE_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `이미지가 너무 큽니다 (최대 ${MAX_IMAGE_BYTES / 1024 / 1024}MB).`).en(
      `The image is too large (at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB).`,
    );
  }
  if (bytes.length < 16) {
    throw fieldError('base64_image', { ko: '이미지로 읽을 수 없는 데이터입니다.', en: 'Not an image.' });
  }
  return bytes;
}

export type InputFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff' | 'avif' | 'pdf';

const PHOTO_FORMATS = 'JPEG, PNG, WebP 사진이나 PDF';
const unsupported = (what: string) =>
  new AppError('INVALID_REQUEST', `'base64_image' 필드: ${what}은 받지 않습니다. 사진(JPEG, PNG, WebP)이나 PDF로 보내 주세요.`, {
    field: 'base64_image',
  });

/** ISO-BMFF brands (`ftyp` box): AVIF decodes; HEVC-coded HEIC (iPhone photos) does not. */
function isoBrands(bytes: Buffer): string[] {
  if (bytes.toString('latin1', 4, 8) !== 'ftyp') return [];
  const size = Math.min(bytes.readUInt32BE(0), 64, bytes.length);
  const brands = [bytes.toString('latin1', 8, 12)];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(bytes.toString('latin1', at, at + 4));
  return brands;
}

/**
 * The format by its first bytes, before anything heavy decodes it: photo formats and PDF
 * only. SVG (whose nested `<use>` can burn seconds of CPU), HTML, text and everything else
 * are a clear 400; HEIC says how to convert it.
 */
export function sniffFormat(bytes: Buffer): InputFormat {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (bytes.toString('latin1', 0, 4) === 'GIF8') return 'gif';
  const tiff = bytes.toString('latin1', 0, 4);
  if (tiff === 'II*\0' || tiff === 'MM\0*') return 'tiff';
  // A PDF may have a few bytes of junk before its header (the spec allows 1024).
  if (bytes.subarray(0, 1024).includes('%PDF-')) return 'pdf';
  const brands = isoBrands(bytes);
  if (brands.some((brand) => brand === 'avif' || brand === 'avis')) return 'avif';
  if (brands.some((brand) => /^(heic|heix|hevc|hevx|heim|heis|mif1|msf1)$/.test(brand))) {
    throw new AppError(
      'INVALID_REQUEST',
      "'base64_image' 필드: HEIC(아이폰 기본 형식) 사진은 읽을 수 없습니다. 설정 > 카메라 > 포맷에서 '높은 호환성'을 고르거나 JPEG로 변환해 보내 주세요.",
      { field: 'base64_image' },
    );
  }
  const head = bytes.subarray(0, 512).toString('utf8').trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg')) || head.includes('<svg'))
    return raise(unsupported('SVG 같은 벡터 그림'));
  if (head.startsWith('<')) return raise(unsupported('HTML·XML 문서'));
  return raise(
    new AppError('INVALID_REQUEST', `'base64_image' 필드: 이미지로 읽을 수 없는 파일입니다. ${PHOTO_FORMATS}로 보내 주세요.`, {
      field: 'base64_image',
    }),
  );
}

function raise(error: AppError): never {
  throw error;
}
