import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import { AppError } from '../src/errors.js';

/** The JSON body limit of a route that declares none. */
export const DEFAULT_BODY_LIMIT_MB = 1;

/**
 * What a refused body may still cost (docs/limits.md): its bytes are read and dropped, so that a
 * client still sending reads its 413, up to this many times the route's limit in all and this long
 * after the refusal; then the connection is cut.
 */
export const DISCARD_BOUND = { timesLimit: 4, ms: 10_000 } as const;
/** The most one socket read brings (libuv reads 64 KiB at a time): the cut comes before a read could cross the bound. */
const SOCKET_READ_BYTES = 64 * 1024;

/**
 * All refused bodies together are read at most this fast (in windows of a tenth of a second),
 * however many arrive at once: dropping bytes costs the event loop that serves everyone else.
 */
export const DISCARD_BYTES_PER_SECOND = 16 * 1024 * 1024;
const DISCARD_WINDOW_MS = 100;

/**
 * The refused bodies' shared budget. After each read a connection goes on (`setImmediate`) while
 * the window has bytes left and nobody waits; else it waits its turn, and each new window wakes
 * only as many waiters as its bytes allow (one socket read each), so 150 waiting connections
 * cannot all read at once.
 */
const discardBudget = {
  windowEnds: 0,
  left: 0,
  waiting: [] as Array<() => void>,
  timer: undefined as NodeJS.Timeout | undefined,
  refill(): void {
    const now = Date.now();
    if (now < this.windowEnds) return;
    this.windowEnds = now + DISCARD_WINDOW_MS;
    this.left = (DISCARD_BYTES_PER_SECOND * DISCARD_WINDOW_MS) / 1000;
  },
  afterRead(bytes: number, readOn: () => void): void {
    this.refill();
    this.left -= bytes;
    if (this.left >= 0 && this.waiting.length === 0) return void setImmediate(readOn);
    this.waiting.push(readOn);
    this.timer ??= setTimeout(() => this.wake(), this.windowEnds - Date.now());
  },
  wake(): void {
    this.timer = undefined;
    this.refill();
    for (let turns = Math.floor(this.left / SOCKET_READ_BYTES); turns > 0 && this.waiting.length > 0; turns--) this.waiting.shift()!();
    if (this.waiting.length > 0) this.timer = setTimeout(() => this.wake(), Math.max(1, this.windowEnds - Date.now()));
  },
};

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
  if (encoding === 'identity' && Number(length) > limitBytes) throw refuseTooLarge(req, limitBytes, 0);
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

/** The stream's bytes as UTF-8, refused past `limitBytes` (counted after inflating; the rest of the request is discarded). */
function readText(stream: Readable, limitBytes: number, req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let wireBytes = 0;
    const countWire = (chunk: Buffer) => (wireBytes += chunk.length);
    if (stream !== req) req.on('data', countWire);
    const stop = () => {
      stream.removeAllListeners('data');
      req.off('data', countWire);
      if (stream !== req) req.unpipe();
    };
    const fail = (error: AppError) => {
      stop();
      reject(error);
    };
    stream.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received <= limitBytes) return void chunks.push(chunk);
      stop();
      reject(refuseTooLarge(req, limitBytes, stream === req ? received : wireBytes));
    });
    stream.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    stream.once('error', () => fail(stream === req ? unreadable() : notUtf8Json()));
    req.once('aborted', () => fail(unreadable()));
  });
}

/** Requests refused as too large: their `Expect: 100-continue` is never answered with `100 Continue`. */
const refused = new WeakSet<IncomingMessage>();

/**
 * The 413, and what its connection must do for the client to read it. A client still sending
 * its body (fetch, node:http, curl without `Expect`) reads the answer only if the server keeps
 * reading: a socket closed with bytes still arriving is reset by the kernel, and the client
 * reports a network error instead of the 413 it was sent. So the rest of the body is read and
 * dropped, never kept, up to `DISCARD_BOUND` (bytes in all, time after the refusal), and the
 * connection is closed once the body has ended or cut at the bound.
 */
function refuseTooLarge(req: IncomingMessage, limitBytes: number, alreadyRead: number): AppError {
  refused.add(req);
  if (!req.complete) discardRest(req, DISCARD_BOUND.timesLimit * limitBytes - alreadyRead);
  return payloadTooLarge(limitBytes);
}

/** Reads and drops the request's rest: `allowance` bytes at most, `DISCARD_BOUND.ms` at most, within the shared budget. */
function discardRest(req: IncomingMessage, allowance: number): void {
  let left = allowance;
  const cutOff = () => req.destroy();
  const timer = setTimeout(cutOff, DISCARD_BOUND.ms).unref();
  const release = req.socket ? closeAfterBody(req.socket) : () => {};
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    release();
  };
  req.once('end', finish).once('close', finish);
  req.on('data', (chunk: Buffer) => {
    left -= chunk.length;
    if (left < SOCKET_READ_BYTES) return cutOff();
    // Paused after each read, resumed when the shared budget allows: libuv reads a socket up to
    // 32 times a turn, and 50 uploads dropped at full speed held every other request up for seconds.
    req.pause();
    discardBudget.afterRead(chunk.length, () => req.resume());
  });
  req.resume();
}

/**
 * node:http closes a `Connection: close` answer's socket as soon as the answer is written
 * (`socket.destroySoon`, called for the last response of a connection): until the refused body
 * has ended, the socket only ends its side (the client reads the 413 and its end), and keeps
 * reading. The returned function hands the socket back to node's own close.
 */
function closeAfterBody(socket: Socket): () => void {
  let answered = false;
  socket.destroySoon = () => {
    answered = true;
    socket.end();
  };
  return () => {
    delete (socket as Partial<Pick<Socket, 'destroySoon'>>).destroySoon;
    if (answered) socket.destroySoon();
  };
}

/**
 * `Expect: 100-continue` (curl asks it for bodies over 1 MB): node:http would send `100 Continue`
 * at once, before the key is checked and the declared length weighed. Here it is sent when the
 * body is first read (a `data` listener or a pipe resumes the request), so a refusal — 401, or a
 * declared length over the limit (413) — is answered instead, and the client sends no body.
 */
export function continueWhenBodyRead(server: Server): Server {
  return server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    req.once('resume', () => {
      if (!res.headersSent && !refused.has(req)) res.writeContinue();
    });
    server.emit('request', req, res);
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
