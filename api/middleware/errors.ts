import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { AppError, databaseUnavailable, fromDatabaseError } from '../../src/errors.js';
import type { Runtime } from '../../src/runtime.js';
import { internalError, sendError as answerError } from '../http-answer.js';
import { invalidJson, payloadTooLarge } from '../json-body.js';

/** CONTRACT §4's error body, rendered as the operation door renders it (api/http-answer.ts). */
export function sendError(res: Response, error: AppError): void {
  answerError(res, res.req.id === undefined ? undefined : String(res.req.id), error);
}

export const notFound: RequestHandler = (req) => {
  throw new AppError('NOT_FOUND', `요청한 경로를 찾을 수 없습니다: ${req.method} ${req.path}`);
};

/** body-parser's failures (the bots' raw bodies), by its `type`, as the caller's mistakes they are. */
function fromBodyParser(error: { type?: string; status?: number; limit?: number }): AppError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return invalidJson();
    case 'entity.too.large':
      return payloadTooLarge(error.limit ?? 0);
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

/** A refusal of a call made with an API key is one of the key's last errors (status and code only; the portal lists them). */
export function recordKeyErrors(runtime: Runtime): ErrorRequestHandler {
  return (error, req, _res, next) => {
    const keyId = req.apiKey?.id;
    if (keyId !== undefined) {
      const known = error instanceof AppError ? error : undefined;
      runtime.platform.usageLog.refused(keyId, null, known?.status ?? 500, known?.code ?? 'INTERNAL');
    }
    next(error);
  };
}

/** The one error mapper of the HTTP door. Unexpected errors are logged and answered 500 without internals. */
export const errorHandler: ErrorRequestHandler = (error, req, res, _next) => {
  const known = error instanceof AppError ? error : fromBodyParser(error);
  // pino-http logs the request line with `res.err`: failures of ours or an upstream only.
  if (!known || known.status >= 500) res.err = error;
  sendError(res, known ?? internalError(String(req.id)));
};
