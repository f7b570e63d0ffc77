import type { IncomingMessage } from 'node:http';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import { AppError } from '../src/errors.js';

/** The JSON body limit of a route that declares none. */
export const DEFAULT_BODY_LIMIT_MB = 1;

export const invalidJson = () => new AppError('INVALID_JSON', '요청 본문이 올바른 JSON이 아닙니다.');
export const payloadTooLarge = (limitBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `요청 본문이 너무 큽니다 (최대 ${Math.floor(limitBytes / 1024 / 1024)}MB).`);
/** A body that is JSON but not an object (`null`, `3`, `"text"`). */
export const notAnObject = () =>
  new AppError('INVALID_JSON', '본문은 JSON 객체여야 합니다. 예: {"url": "https://example.com"}').en(
    'The body must be a JSON object, e.g. {"url": "https://example.com"}.',
  );
/** A form (an HTML form, `curl -F`, or `curl -d 'a=b'`) where JSON was expected. */
export const formNotJson = () =>
  new AppError(
    'INVALID_JSON',
    "요청 본문이 폼 형식입니다. JSON으로 쓰고 Content-Type: application/json 헤더를 붙여 보내세요 (curl은 -H 'Content-Type: application/json').",
  ).en("The body is form-encoded: send JSON with the header Content-Type: application/json (curl: -H 'Content-Type: application/json').");
const notUtf8Json = () => new AppError('INVALID_REQUEST', '요청 본문은 UTF-8 JSON이어야 합니다.');
const unreadable = () => new AppError('INVALID_REQUEST', '요청 본문을 읽지 못했습니다.');

const INFLATERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * The one JSON body reader of the HTTP doors (express's routes and the operation door): what
 * body-parser's strict JSON did, bounded. Any content type is read as JSON (curl's default
 * form type included); a charset, if named, must be UTF-8; gzip, deflate and br bodies are
 * inflated, the limit counting the inflated bytes. No body at all is `undefined`, an empty one
 * `{}` (a common client mistake), anything else must be an object or an array.
 */
export async function readJsonBody(req: IncomingMessage, limitBytes: number): Promise<unknown> {
  const { headers } = req;
  const length = headers['content-length'];
  if (headers['transfer-encoding'] === undefined && (length === undefined || Number.isNaN(Number(length)))) return undefined;
  if (!utf8(headers['content-type'])) throw notUtf8Json();
  const encoding = (headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity' && Number(length) > limitBytes) throw payloadTooLarge(limitBytes);
  const inflate = INFLATERS[encoding];
  if (encoding !== 'identity' && !inflate) throw notUtf8Json();
  const text = await readText(inflate ? req.pipe(inflate()) : req, limitBytes, req);
  try {
    return parseJson(text);
  } catch (error) {
    // curl -d sends JSON as a form by default: that is read as JSON above; a real form is told what to send.
    if (/^\s*(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(headers['content-type'] ?? '')) throw formNotJson();
    throw error;
  }
}

/** body-parser accepted any type whose charset, if named, is a UTF-8 one. */
function utf8(contentType: string | undefined): boolean {
  if (contentType === undefined || !contentType.includes('charset')) return true;
  return /;\s*charset\s*=\s*"?utf-8"?\s*(;|$)/i.test(contentType);
}

/** The stream's bytes as UTF-8, refused past `limitBytes` (the request is left unread: the answer closes it). */
function readText(stream: Readable, limitBytes: number, req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const fail = (error: AppError) => {
      stream.removeAllListeners('data');
      if (stream !== req) req.unpipe();
      reject(error);
    };
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) return fail(payloadTooLarge(limitBytes));
      chunks.push(chunk);
    });
    stream.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    stream.once('error', () => fail(stream === req ? unreadable() : notUtf8Json()));
    req.once('aborted', () => fail(unreadable()));
  });
}

/** body-parser's strict JSON: an object or an array, a leading byte-order mark dropped; empty is `{}`. */
function parseJson(text: string): unknown {
  const trimmed = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (trimmed.length === 0) return {};
  const first = /^[\x20\x09\x0a\x0d]*(.)/.exec(trimmed)?.[1];
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    throw invalidJson();
  }
  // JSON, but `null`, a number or a string: the caller meant well and is told what shape to send.
  if (first !== '{' && first !== '[') throw notAnObject();
  return parsed;
}
