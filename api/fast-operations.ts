import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Response } from 'express';
import { AppError, errorBody, fromDatabaseError, type Locale } from '../src/errors.js';
import { withJosa } from '../src/korean.js';
import { CATALOG, type ApiId } from '../src/platform/catalog.js';
import { executeOperation, type Caller, type Operation } from '../src/platform/execute.js';
import { requestLineWriter, type Logger } from '../src/logger.js';
import type { QuotaState } from '../src/platform/quota.js';
import type { Runtime } from '../src/runtime.js';
import { DEFAULT_BODY_LIMIT_MB } from './middleware/body.js';
import { invalidJson } from './middleware/errors.js';
import { rateLimit, rateLimitPolicy, setExhaustedQuotaHeaders } from './middleware/quota-headers.js';
import { CLIENT_REQUEST_ID } from './middleware/request-log.js';
import { SECURITY_HEADERS, securityHeaders } from './middleware/security-headers.js';
import { operationBodyLimitMb, requestCancelled } from './routes/operations.js';

/** Bodies read here: the default limit; operations declaring larger ones (the ID reader's images) stay with express. */
const BODY_LIMIT = DEFAULT_BODY_LIMIT_MB * 1024 * 1024;
const JSON_TYPE = 'application/json; charset=utf-8';
const noop = () => {};

/**
 * `POST` of an operation with an `X-API-Key` the key cache knows, answered straight from
 * node:http: express's per-request work (router, request/response decoration, body parser,
 * pino-http) costs several times a cached call's own work. The answer is byte for byte what
 * the express route gives (api/routes/operations.ts): the same headers, envelope, error bodies
 * and request log line. Anything out of the ordinary is left to express before a byte of the
 * body is read: another method or path, no or an unknown key, a compressed or chunked body, a
 * charset other than UTF-8, a body over the limit, the database away.
 */
export function fastOperations(runtime: Runtime): (req: IncomingMessage, res: ServerResponse, fallback: () => void) => boolean {
  const byPath = new Map<string, Operation>();
  const operations: Record<ApiId, Operation> = runtime.operations;
  for (const api of CATALOG) if (operationBodyLimitMb(api.id) <= DEFAULT_BODY_LIMIT_MB) byPath.set(api.path, operations[api.id]);
  const { apiKeys, subscriptions } = runtime.platform;
  const door: Door = {
    line: requestLineWriter(runtime.logger),
    // The error line names only id, method, path, status and the error (never headers): pino's
    // header redaction, a tenth of the line's cost, has nothing to find in it.
    lines: runtime.logger.child({}, { redact: [] }),
  };

  return (req, res, fallback) => {
    if (req.method !== 'POST') return false;
    const operation = byPath.get(req.url ?? '');
    if (!operation) return false;
    const { headers } = req;
    const key = headers['x-api-key'];
    const length = Number(headers['content-length']);
    if (
      typeof key !== 'string' ||
      !(length > 0 && length <= BODY_LIMIT) ||
      headers['content-encoding'] !== undefined ||
      !utf8(headers['content-type']) ||
      !runtime.database.available()
    ) {
      return false;
    }
    void apiKeys.authenticate(key.trim()).then(
      (account) => (account ? serve(runtime, door, operation, subscriptions, account, req, res) : fallback()),
      () => fallback(),
    );
    return true;
  };
}

/** Where the request's line goes: written by hand when answered, through pino when it failed. */
interface Door {
  line: ReturnType<typeof requestLineWriter>;
  lines: Logger;
}

/** body-parser's JSON accepts any type whose charset, if named, is a UTF-8 one (api/middleware/body.ts). */
function utf8(contentType: string | undefined): boolean {
  if (contentType === undefined || !contentType.includes('charset')) return true;
  return /;\s*charset\s*=\s*"?utf-8"?\s*(;|$)/i.test(contentType);
}

function serve(
  runtime: Runtime,
  door: Door,
  operation: Operation,
  quota: Runtime['platform']['subscriptions'],
  account: Caller['account'],
  req: IncomingMessage,
  res: ServerResponse,
): void {
  const started = Date.now();
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
  // What pino-http binds to the request's logger and logs when the answer is out (request-log.ts).
  const request = { id, method: 'POST', path: req.url! };
  const caller = new RequestCaller(account, lazyChild(runtime.logger, { req: request }), id);
  let failure: unknown;
  res.once('close', () => {
    if (!res.writableFinished) caller.cancel();
    const status = res.statusCode;
    const responseTime = Date.now() - started;
    if (failure === undefined && status < 500) return door.line(request, status, responseTime);
    const err = failure ?? new Error(`failed with status code ${status}`);
    door.lines[status === 500 ? 'error' : 'warn']({ req: request, res: { statusCode: status }, err, responseTime }, 'request errored');
  });

  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.once('end', () => {
    let body: unknown;
    try {
      body = parseJson(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'));
    } catch {
      return void sendError(res, id, invalidJson());
    }
    executeOperation(quota, operation, caller, body).then(
      ({ output, quota: state }) =>
        sendOutput(res, id, { success: true, ...output, api: operation.api, remaining: state.remaining }, state, runtime.clock()),
      (error: unknown) => {
        runtime.database.observe(error);
        const known = error instanceof AppError ? error : fromDatabaseError(error);
        if (!known || known.status >= 500) failure = error;
        sendError(
          res,
          id,
          known ?? new AppError('INTERNAL', `서버 내부 오류가 발생했습니다. 문의하실 때 요청 ID ${withJosa(id, '을/를')} 알려 주세요.`),
        );
      },
    );
  });
}

/**
 * The caller of one request. A client that disconnects before its answer aborts the work (as
 * callerOf in api/routes/operations.ts); the signal is made only when an operation asks for it
 * (most never do), from a getter on the prototype (one on an object literal is slow to build).
 */
class RequestCaller implements Caller {
  private controller: AbortController | undefined;
  private gone = false;

  constructor(
    readonly account: Caller['account'],
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

  /** The client went away before its answer. */
  cancel(): void {
    this.gone = true;
    this.controller?.abort(requestCancelled());
  }
}

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);

/**
 * The request's child logger, made only when something logs at an enabled level: most calls
 * log nothing but the request line, and making a pino child (its bindings serialized and
 * redacted) costs as much as the line itself.
 */
function lazyChild(base: Logger, bindings: object): Logger {
  let child: Logger | undefined;
  return new Proxy(base, {
    get(_target, property) {
      if (typeof property === 'string' && LEVELS.has(property) && !base.isLevelEnabled(property)) return noop;
      child ??= base.child(bindings);
      const value = Reflect.get(child, property) as unknown;
      return typeof value === 'function' ? value.bind(child) : value;
    },
  });
}

/** body-parser's strict JSON: an object or an array, a leading byte-order mark dropped. */
function parseJson(text: string): unknown {
  const trimmed = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = /^[\x20\x09\x0a\x0d]*(.)/.exec(trimmed)?.[1];
  if (first !== '{' && first !== '[') throw new SyntaxError('not an object or array');
  return JSON.parse(trimmed);
}

/**
 * An answered call: every header in one `writeHead` (no header map built up call by call) and
 * the body as a string, which node:http sends with the head in one write.
 */
function sendOutput(res: ServerResponse, id: string, envelope: object, state: QuotaState, now: Date): void {
  const body = JSON.stringify(envelope);
  const headers = [
    ...SECURITY_HEADERS,
    'X-Request-Id',
    id,
    'RateLimit-Policy',
    rateLimitPolicy(state),
    'RateLimit',
    rateLimit(state, now.getTime()),
    'Content-Type',
    JSON_TYPE,
    'Content-Length',
    String(Buffer.byteLength(body)),
  ];
  res.writeHead(200, headers).end(body);
}

/** As api/middleware/errors.ts `sendError`, on a bare response. */
function sendError(res: ServerResponse, id: string, error: AppError): void {
  if (res.headersSent) return;
  securityHeaders(res.req as never, res as never, noop);
  res.setHeader('X-Request-Id', id);
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.setHeader('Vary', 'Accept-Language');
  setExhaustedQuotaHeaders(res as unknown as Response, error);
  const body = JSON.stringify(errorBody(error, localeOf(res.req)));
  res.statusCode = error.status;
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

function localeOf(req: IncomingMessage): Locale {
  const header = req.headers['accept-language'];
  return typeof header === 'string' && /^\s*en\b/i.test(header) ? 'en' : 'ko';
}
