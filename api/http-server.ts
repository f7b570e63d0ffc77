import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { AppError, errorBody } from '../src/errors.js';
import type { Runtime } from '../src/runtime.js';
import { createDoors, type AppOptions } from './app.js';
import { sendRedirect } from './routes/redirect.js';

/**
 * The HTTP server: express for everything, except the two hottest paths, answered straight
 * from node:http because express's per-request work costs several times their own: the
 * redirect of a cached short code (misses, warnings and 404s still go through express,
 * api/routes/redirect.ts), and every operation call (api/operation-door.ts).
 */
export function createHttpServer(runtime: Runtime, options: AppOptions = {}): Server {
  return createServer(createRequestListener(runtime, options));
}

export function createRequestListener(runtime: Runtime, options: AppOptions = {}): RequestListener {
  const { app, operations } = createDoors(runtime, options);
  const fastRedirect = cachedRedirect(runtime);
  return (req, res) => {
    if (!fastRedirect(req, res) && !operations(req, res)) app(req, res);
  };
}

/** Answers and returns true when the request is a redirect whose code is cached and safe. */
function cachedRedirect(runtime: Runtime): (req: IncomingMessage, res: ServerResponse) => boolean {
  const basePath = new URL(runtime.config.SHORT_URL_BASE).pathname.replace(/\/+$/, '');
  const prefix = `${basePath}/`;
  const { redirects } = runtime;
  return (req, res) => {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(prefix)) return false;
    const end = url.indexOf('?');
    const code = url.slice(prefix.length, end === -1 ? undefined : end).replace(/\/$/, '');
    if (code.length !== 5) return false;
    const target = redirects.peek(code);
    if (!target || redirects.warning(target)) return false;
    sendRedirect(req, res, redirects, target);
    return true;
  };
}

/** Before express exists: rendered with the contract's `errorBody`, like every other error. */
const STARTING = new AppError('UNAVAILABLE', '서비스를 시작하는 중입니다. 잠시 뒤 다시 시도해 주세요.', {}, 5);

/**
 * A server that holds the port while the runtime is built (the embedded database can take a
 * while on its first start): a taken port fails at once, and early requests get a 503 in the
 * contract's error shape until `serve` hands the real listener in.
 */
export function createStartingServer(): { server: Server; serve(listener: RequestListener): void } {
  let listener: RequestListener = (req, res) => {
    const path = (req.url ?? '').split('?')[0];
    // Alive but not ready: a load balancer keeps the process and sends no traffic yet.
    if (path === '/healthz/live')
      return void res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"status":"ok"}');
    res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '5' });
    res.end(
      path === '/healthz' || path === '/healthz/ready' ? JSON.stringify({ status: 'starting' }) : JSON.stringify(errorBody(STARTING)),
    );
  };
  const server = createServer((req, res) => listener(req, res));
  return { server, serve: (next) => (listener = next) };
}
