import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError, databaseUnavailable, fromDatabaseError } from '../src/errors.js';
import { requestLineWriter, type Logger } from '../src/logger.js';
import { executeOperation, type Operation } from '../src/platform/execute.js';
import type { Runtime } from '../src/runtime.js';
import { internalError, requestIdOf, RequestCaller, sendCharged, sendError, successEnvelope } from './http-answer.js';
import { DEFAULT_BODY_LIMIT_MB, readJsonBody } from './json-body.js';
import { accountForKey, missingKey } from './middleware/auth.js';
import { allowOnlyPost } from './middleware/methods.js';
import type { Route } from './route.js';
import { outcomeOfCode } from '../src/platform/metric-definitions.js';

/** Answers and returns true when the request is a `POST` to an operation's path (one of `paths`). */
export type OperationDoor = ((req: IncomingMessage, res: ServerResponse) => boolean) & {
  readonly paths: readonly string[];
  /** The declared path a request URL is served under, if it is an operation's (the metrics' route label). */
  templateOf(url: string): string | undefined;
};

interface Served {
  operation: Operation;
  limitBytes: number;
  /** The declared path: the metrics' route label. */
  template: string;
}

const noop = () => {};

/**
 * The one door of the operations: every `POST` to a path whose route declaration names an
 * operation (api/routes/operations.ts) is answered here, straight from node:http, whatever it
 * holds — no key, a bad one, a body too large, bad JSON, the database away. Express's
 * per-request work (router, request/response decoration, pino-http) costs several times a
 * cached call's own; the pieces of an answer (request id, language, envelope, quota headers,
 * error body, body reader, key lookup) are the ones express's routes use (api/http-answer.ts,
 * api/json-body.ts, middleware/auth.ts), so there is nothing to keep in step.
 * Routes are matched as express would: case-insensitive, a trailing slash and a query ignored.
 */
export function operationDoor(runtime: Runtime, routes: readonly Route[]): OperationDoor {
  const byPath = new Map<string, Served>();
  for (const route of routes) {
    if (!route.operation) continue;
    if (route.method !== 'post' || route.auth !== 'key') throw new Error(`${route.path}: an operation is a POST with an API key`);
    byPath.set(route.path.toLowerCase(), {
      operation: route.operation,
      template: route.path,
      limitBytes: (route.body?.limitMb ?? DEFAULT_BODY_LIMIT_MB) * 1024 * 1024,
    });
  }
  const door: Door = {
    runtime,
    line: requestLineWriter(runtime.logger),
    // The error line names only id, method, path, status and the error (never headers): pino's
    // header redaction, a tenth of the line's cost, has nothing to find in it.
    lines: runtime.logger.child({}, { redact: [] }),
  };
  const answer = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '';
    const served = byPath.get(url) ?? byPath.get(routePath(url));
    if (!served) return false;
    // `GET /api/v1/url/shorten` (a browser's address bar): 405 with `Allow: POST`, not a 404.
    if (req.method !== 'POST') {
      sendError(res, requestIdOf(req), allowOnlyPost(req, res));
      return true;
    }
    void serve(door, served, req, res);
    return true;
  };
  const templateOf = (url: string) => (byPath.get(url) ?? byPath.get(routePath(url)))?.template;
  return Object.assign(answer, { paths: [...byPath.keys()], templateOf });
}

/** `/API/v1/Url/Detect/?x=1` → `/api/v1/url/detect`. */
function routePath(url: string): string {
  const path = url.split('?')[0]!;
  return (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase();
}

/** The runtime, and where a request's line goes: written by hand when answered, through pino when it failed. */
interface Door {
  runtime: Runtime;
  line: ReturnType<typeof requestLineWriter>;
  lines: Logger;
}

/** Database up, key, body, then the executor (validate, charge, run, refund on failure); one answer either way. */
async function serve(door: Door, { operation, limitBytes }: Served, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { runtime } = door;
  const started = Date.now();
  const requestId = requestIdOf(req);
  // What pino-http binds to the request's logger and logs when the answer is out (middleware/request-log.ts).
  const request = { id: requestId, method: 'POST', path: req.url!.split('?')[0]! };
  let caller: RequestCaller | undefined;
  let keyId: number | undefined;
  let gone = false;
  let failure: unknown;
  /** Set once the executor has the call: it counts its outcome itself. */
  let executing = false;
  res.once('close', () => {
    gone = !res.writableFinished;
    if (gone) caller?.cancel();
    const status = res.statusCode;
    const responseTime = Date.now() - started;
    if (failure === undefined && status < 500) return door.line(request, status, responseTime);
    const err = failure ?? new Error(`failed with status code ${status}`);
    door.lines[status === 500 ? 'error' : 'warn']({ req: request, res: { statusCode: status }, err, responseTime }, 'request errored');
  });

  try {
    if (!runtime.database.available()) throw databaseUnavailable();
    const key = req.headers['x-api-key'];
    if (typeof key !== 'string') throw missingKey();
    const account = await accountForKey(runtime.platform.apiKeys, key);
    keyId = (account as { keyId?: number }).keyId;
    const body = await readJsonBody(req, limitBytes);
    caller = new RequestCaller(account, lazyChild(runtime.logger, { req: request }), requestId);
    if (gone) caller.cancel();
    executing = true;
    const { output, quota } = await executeOperation(runtime.platform.subscriptions, operation, caller, body, runtime.metrics.operation);
    sendCharged(res, requestId, successEnvelope(operation.api, output, quota.remaining), quota, runtime.clock());
  } catch (error) {
    runtime.database.observe(error);
    const known = error instanceof AppError ? error : fromDatabaseError(error);
    if (!known || known.status >= 500) failure = error;
    const answered = known ?? internalError(requestId);
    // Refused before the executor (no key, a bad one, the body, the database away): counted here.
    if (!executing) runtime.metrics.operation(operation.api, outcomeOfCode(answered.code));
    // The key's last refused calls (the portal shows them): status, code and time, never the body.
    if (keyId !== undefined) runtime.platform.usageLog.refused(keyId, operation.api, answered.status, answered.code);
    sendError(res, requestId, answered);
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
