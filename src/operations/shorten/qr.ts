import QRCode from 'qrcode';
import { fieldError } from '../../errors.js';

export const QR_MIN_SIZE = 64;
export const QR_MAX_SIZE = 2048;
export const QR_DEFAULT_SIZE = 300;

export interface QrRequest {
  format: 'svg' | 'png';
  size: number;
}

/** `?format=svg|png&size=` of the QR route; a bad value is the contract's 400 naming it. */
export function parseQrQuery(query: Record<string, unknown>): QrRequest {
  const format = query.format === undefined || query.format === '' ? 'svg' : query.format;
  if (format !== 'svg' && format !== 'png')
    throw fieldError('format', { ko: "'svg' 또는 'png' 중 하나여야 합니다.", en: "Must be 'svg' or 'png'." });
  const rawSize = query.size === undefined || query.size === '' ? String(QR_DEFAULT_SIZE) : query.size;
  const size = typeof rawSize === 'string' && /^\d{1,5}$/.test(rawSize) ? Number(rawSize) : NaN;
  if (!(size >= QR_MIN_SIZE && size <= QR_MAX_SIZE))
    throw fieldError('size', {
      ko: `${QR_MIN_SIZE}~${QR_MAX_SIZE} 사이의 정수(픽셀)여야 합니다.`,
      en: `Must be a whole number of pixels from ${QR_MIN_SIZE} to ${QR_MAX_SIZE}.`,
    });
  return { format, size };
}

/**
 * The QR code of a short link (issue 36), drawn by `qrcode`: error-correction level M (about 15 %
 * of the symbol may be lost), the standard four-module quiet zone, `size` pixels square.
 */
export async function renderQr(text: string, request: QrRequest): Promise<{ body: Buffer | string; contentType: string }> {
  const options = { errorCorrectionLevel: 'M' as const, margin: 4, width: request.size };
  if (request.format === 'png') return { body: await QRCode.toBuffer(text, { ...options, type: 'png' }), contentType: 'image/png' };
  return { body: await QRCode.toString(text, { ...options, type: 'svg' }), contentType: 'image/svg+xml' };
}

/** What a link's QR code encodes: the short link with the marker that tells scans apart in its stats. */
export function qrTarget(shortUrl: string): string {
  return `${shortUrl}?qr=1`;
}
