import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { AppError, databaseUnavailable, errorBody, fromDatabaseError, type Locale } from '../../src/errors.js';
import { withJosa } from '../../src/korean.js';
import type { Runtime } from '../../src/runtime.js';
import { setExhaustedQuotaHeaders } from './quota-headers.js';

/** A caller whose first choice is English (`Accept-Language: en…`) gets English messages; everyone else Korean. */
function localeOf(res: Response): Locale {
  const header = res.req?.headers['accept-language'];
  return typeof header === 'string' && /^\s*en\b/i.test(header) ? 'en' : 'ko';
}

/** CONTRACT §4: `{success:false, code, error, error_code}` plus the status's extra fields. */
export function sendError(res: Response, error: AppError): void {
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.vary('Accept-Language');
  setExhaustedQuotaHeaders(res, error);
  res.status(error.status).json(errorBody(error, localeOf(res)));
}

export const notFound: RequestHandler = (req) => {
  throw new AppError('NOT_FOUND', `요청한 경로를 찾을 수 없습니다: ${req.method} ${req.path}`);
};

/** A body that is not JSON (an object or an array). */
export function invalidJsonBody(): AppError {
  return new AppError('INVALID_JSON', '요청 본문이 올바른 JSON이 아닙니다.');
}

/** body-parser's failures, by its `type`, as the caller's mistakes they are. */
function fromBodyParser(error: { type?: string; status?: number; limit?: number }): AppError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return invalidJsonBody();
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', `요청 본문이 너무 큽니다 (최대 ${Math.floor((error.limit ?? 0) / 1024 / 1024)}MB).`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('INVALID_REQUEST', '요청 본문은 UTF-8 JSON이어야 합니다.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new AppError('INVALID_REQUEST', '요청 본문을 읽지 못했습니다.');
    default:
      return undefined;
  }
}

/** While the database is away every API request is refused at once: 503 + Retry-After, no waiting on a connection. */
export function refuseWhileDatabaseAway(runtime: Runtime): RequestHandler {
  return (_req, _res, next) => next(runtime.database.available() ? undefined : databaseUnavailable());
}

/** A failed query that means "database away" or "statement timed out" becomes its 503; the monitor hears of it. */
export function databaseErrors(runtime: Runtime): ErrorRequestHandler {
  return (error, _req, _res, next) => {
    runtime.database.observe(error);
    next(error instanceof AppError ? error : (fromDatabaseError(error) ?? error));
  };
}

/** The one error mapper of the HTTP door. Unexpected errors are logged and answered 500 without internals. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const known = error instanceof AppError ? error : fromBodyParser(error);
  // pino-http logs the request line with `res.err`: failures of ours or an upstream only.
  if (!known || known.status >= 500) res.err = error;
  // Refused before its body was read (401 on a 15 MB upload): close rather than drain it.
  if (!req.complete && !res.headersSent) res.setHeader('Connection', 'close');
  if (known) return sendError(res, known);
  if (res.headersSent) return;
  sendError(
    res,
    new AppError('INTERNAL', `서버 내부 오류가 발생했습니다. 문의하실 때 요청 ID ${withJosa(String(req.id), '을/를')} 알려 주세요.`),
  );
};
