import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, errorBody, type Locale } from '../src/errors.js';
import { withJosa } from '../src/korean.js';
import type { Logger } from '../src/logger.js';
import type { Account } from '../src/platform/accounts.js';
import type { Caller } from '../src/platform/execute.js';
import type { QuotaState } from '../src/platform/quota.js';
import { rateLimit, rateLimitPolicy } from './middleware/quota-headers.js';
import { SECURITY_HEADERS } from './middleware/security-headers.js';

/**
 * What every HTTP answer is made of, once, for both doors (express's routes and the operation
 * door, api/operation-door.ts): the request id, the caller's language, the success envelope
 * with its quota headers, the contract's error body, and the caller whose work a disconnect
 * cancels. Written on node's bare response, so express's `res` uses them as they are.
 */

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A caller's `X-Request-Id` worth echoing (and logging): short, printable, no spaces. */
export const CLIENT_REQUEST_ID = /^[0-9A-Za-z._:-]{1,128}$/;

/** The caller's `X-Request-Id` when it is sane, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

/** A caller whose first choice is English (`Accept-Language: en…`) gets English messages; everyone else Korean. */
export function localeOf(req: IncomingMessage): Locale {
  const header = req.headers['accept-language'];
  return typeof header === 'string' && /^\s*en\b/i.test(header) ? 'en' : 'ko';
}

/** The 200 body of an operation: its domain output inside the envelope every door adds. */
export function successEnvelope<Output extends object, Api extends string>(
  api: Api,
  output: Output,
  remaining: number,
): { success: true } & Output & { api: Api; remaining: number } {
  return { success: true as const, ...output, api, remaining };
}

/**
 * An answered, charged call: the IETF RateLimit headers of the counter after it, every header in
 * one `writeHead` (no header map built call by call; headers express already set are merged)
 * and the body as a string, which node:http sends with the head in one write.
 */
export function sendCharged(res: ServerResponse, requestId: string, envelope: object, quota: QuotaState, now: Date): void {
  const body = JSON.stringify(envelope);
  res
    .writeHead(200, [
      ...SECURITY_HEADERS,
      'X-Request-Id',
      requestId,
      'RateLimit-Policy',
      rateLimitPolicy(quota),
      'RateLimit',
      rateLimit(quota, now.getTime()),
      'Content-Type',
      JSON_TYPE,
      'Content-Length',
      String(Buffer.byteLength(body)),
    ])
    .end(body);
}

/**
 * CONTRACT §4: `{success:false, code, error, error_code}` plus the status's extra fields, in the
 * caller's language, with `Retry-After` when a retry may succeed and `RateLimit: r=0` on a used-up
 * counter. `requestId` is undefined only ahead of the request log (the redirect).
 */
export function sendError(res: ServerResponse, requestId: string | undefined, error: AppError): void {
  if (res.headersSent) return;
  for (let i = 0; i < SECURITY_HEADERS.length; i += 2) res.setHeader(SECURITY_HEADERS[i]!, SECURITY_HEADERS[i + 1]!);
  if (requestId !== undefined) res.setHeader('X-Request-Id', requestId);
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  appendVary(res, 'Accept-Language');
  if (error.code === 'QUOTA_EXCEEDED') res.setHeader('RateLimit', `"monthly";r=0;t=${error.retryAfterSeconds ?? 0}`);
  // Refused before its body was read (401 on a 15 MB upload): close rather than drain it.
  if (!res.req.complete) res.setHeader('Connection', 'close');
  const body = JSON.stringify(errorBody(error, localeOf(res.req)));
  res.statusCode = error.status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

function appendVary(res: ServerResponse, field: string): void {
  const current = res.getHeader('Vary');
  if (current === undefined) return void res.setHeader('Vary', field);
  const fields = String(current).split(/\s*,\s*/);
  if (!fields.some((name) => name.toLowerCase() === field.toLowerCase() || name === '*')) res.setHeader('Vary', `${current}, ${field}`);
}

/** What an unexpected failure tells the caller: no internals, the request id to quote. */
export function internalError(requestId: string): AppError {
  return new AppError('INTERNAL', `서버 내부 오류가 발생했습니다. 문의하실 때 요청 ID ${withJosa(requestId, '을/를')} 알려 주세요.`);
}

/** Why a caller's work stops when its client has gone away. */
export const requestCancelled = () => new AppError('INVALID_REQUEST', '요청이 취소되었습니다.');

/**
 * The caller of one request. A client that disconnects before its answer aborts the work (an
 * image waiting for OCR); the signal is made only when an operation asks for it (most never
 * do), from a getter on the prototype (one on an object literal is slow to build).
 */
export class RequestCaller implements Caller {
  private controller: AbortController | undefined;
  private gone = false;

  constructor(
    readonly account: Account,
    readonly logger: Logger,
    readonly requestId: string,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.gone) this.controller.abort(requestCancelled());
    }
    return this.controller.signal;
  }

  /** Cancels the work when `res` closes before its answer was written. */
  cancelOnClose(res: ServerResponse): this {
    res.once('close', () => {
      if (!res.writableFinished) this.cancel();
    });
    return this;
  }

  /** The client went away before its answer. */
  cancel(): void {
    this.gone = true;
    this.controller?.abort(requestCancelled());
  }
}
