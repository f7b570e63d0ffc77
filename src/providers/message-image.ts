import type { Options as QrOptions, QRCode } from 'jsqr';
import sharp from 'sharp';
import { AppError } from '../errors.js';

type JsQr = (data: Uint8ClampedArray, width: number, height: number, options?: QrOptions) => QRCode | null;
let jsQrModule: Promise<JsQr> | undefined;
/**
 * jsQR, loaded with the first picture instead of at every start (a tenth of a second of CPU).
 * The UMD build is `module.exports = jsQR`; its types describe an ES default export.
 */
const loadJsQr = () => (jsQrModule ??= import('jsqr').then((module) => ((module as { default?: unknown }).default ?? module) as JsQr));

/** Larger images are refused before decoding (a decompression bomb costs nothing). */
export const MAX_MESSAGE_IMAGE_PIXELS = 40_000_000;
/** QR codes are looked for at these long sides: a large photo, then a smaller copy (jsQR is linear in pixels). */
const QR_LONG_SIDES = [1600, 800];
/** A screenshot is read at most this large; a small one is enlarged to about this width. */
const OCR_LONG_SIDE = 2400;
const OCR_MIN_WIDTH = 1000;

/**
 * What the message check needs from a picture of a message: the text of a QR code in it, and
 * the picture prepared for the OCR engine (grey, dark themes turned light, small ones enlarged).
 */
export interface MessageImageDecoder {
  /** The QR code's text, when the picture holds one jsQR can read. */
  qrText(bytes: Buffer): Promise<string | undefined>;
  /** A PNG of the picture for `OcrEngine.recognize`. */
  ocrPng(bytes: Buffer): Promise<Buffer>;
}

/** Seconds libvips may spend on one decoding pipeline (sharp's `timeout`): a picture of a message takes well under one. */
const DECODE_SECONDS = 8;

const unreadable = () =>
  new AppError('INVALID_REQUEST', "'base64_image' 필드: 이미지를 해독하지 못했습니다. 손상된 파일인지 확인하세요.", {
    field: 'base64_image',
  });

/** A pipeline that failed: past its time limit (422), else a picture sharp cannot decode (400). */
const decodeFailure = (error: unknown) => {
  if (/timeout/i.test(String((error as Error)?.message)))
    return new AppError(
      'UNPROCESSABLE',
      `이미지를 해독하는 데 시간이 너무 오래 걸립니다 (최대 ${DECODE_SECONDS}초). 더 작은 사진으로 보내 주세요.`,
    );
  return unreadable();
};

async function checkedSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw unreadable();
    });
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (width * height > MAX_MESSAGE_IMAGE_PIXELS) {
    throw new AppError('PAYLOAD_TOO_LARGE', `이미지 해상도가 너무 큽니다 (최대 ${MAX_MESSAGE_IMAGE_PIXELS / 1_000_000}백만 화소).`);
  }
  // Only the first frame is decoded, but an animation's frames all count, as the ID reader counts them.
  const frames = Math.max(1, meta.pages ?? 1);
  if (width * height * frames > MAX_MESSAGE_IMAGE_PIXELS) {
    throw new AppError(
      'PAYLOAD_TOO_LARGE',
      `움직이는 이미지의 프레임이 너무 많습니다 (${frames.toLocaleString('en-US')}개; 모든 프레임을 합쳐 최대 ${MAX_MESSAGE_IMAGE_PIXELS / 1_000_000}백만 화소). 화면을 캡처한 사진 한 장으로 보내 주세요.`,
    );
  }
  return { width, height };
}

/** Decodes with sharp (EXIF orientation applied, transparency on white) and reads QR codes with jsQR. */
export function createMessageImageDecoder(): MessageImageDecoder {
  const decode = (bytes: Buffer) =>
    sharp(bytes, { limitInputPixels: MAX_MESSAGE_IMAGE_PIXELS, failOn: 'none' })
      .timeout({ seconds: DECODE_SECONDS })
      .rotate()
      .flatten({ background: '#ffffff' });

  return {
    async qrText(bytes) {
      const { width, height } = await checkedSize(bytes);
      const longest = Math.max(width, height);
      for (const side of QR_LONG_SIDES.filter((candidate, index) => index === 0 || candidate < longest)) {
        const raw = await decode(bytes)
          .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
          .ensureAlpha()
          .raw()
          .toBuffer({ resolveWithObject: true })
          .catch((error: unknown) => {
            throw decodeFailure(error);
          });
        const pixels = new Uint8ClampedArray(raw.data.buffer, raw.data.byteOffset, raw.data.length);
        const code = (await loadJsQr())(pixels, raw.info.width, raw.info.height, { inversionAttempts: 'attemptBoth' });
        if (code?.data) return code.data;
      }
      return undefined;
    },

    async ocrPng(bytes) {
      const { width } = await checkedSize(bytes);
      const grey = decode(bytes).greyscale();
      const { channels } = await decode(bytes)
        .stats()
        .catch((error: unknown) => {
          throw decodeFailure(error);
        });
      const colour = channels.slice(0, 3);
      // A dark phone theme (light letters on black) reads far better inverted.
      const dark = colour.reduce((sum, channel) => sum + channel.mean, 0) / Math.max(1, colour.length) < 110;
      const scale = width > 0 && width < OCR_MIN_WIDTH ? Math.min(3, OCR_MIN_WIDTH / width) : 1;
      let image = grey.resize({
        width: Math.min(OCR_LONG_SIDE, Math.round(width * scale)),
        height: OCR_LONG_SIDE * 4,
        fit: 'inside',
        kernel: 'lanczos3',
      });
      if (dark) image = image.negate({ alpha: false });
      return image
        .png({ compressionLevel: 1 })
        .toBuffer()
        .catch((error: unknown) => {
          throw decodeFailure(error);
        });
    },
  };
}
