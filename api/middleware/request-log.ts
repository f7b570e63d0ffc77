import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import { serializeError, type Logger } from '../../src/logger.js';
import { requestIdOf } from '../http-answer.js';

/**
 * Request id (the caller's `X-Request-Id` when it is sane, else a new UUID, echoed back) and
 * one child logger per request. Only method, path and status are logged: never headers or
 * bodies, which carry keys, tokens and images.
 */
export function requestLog(logger: Logger) {
  return pinoHttp({
    logger,
    genReqId(req: IncomingMessage, res: ServerResponse) {
      const id = requestIdOf(req);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      err: serializeError,
    },
    customLogLevel: (_req, res) => (res.statusCode === 500 ? 'error' : res.statusCode > 500 ? 'warn' : 'info'),
    autoLogging: { ignore: (req) => req.url?.startsWith('/healthz') === true },
  });
}
