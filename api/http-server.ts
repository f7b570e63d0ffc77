import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../src/config.js';
import { AppError, errorBody } from '../src/errors.js';
import type { Runtime } from '../src/runtime.js';
import { createDoors, type AppOptions } from './app.js';
import { sendRedirect, type RedirectTarget } from './routes/redirect.js';

/**
 * The HTTP server: express for everything, except the two hottest paths, answered straight
 * from node:http because express's per-request work costs several times their own: the
 * redirect of a cached short code (misses, warnings and 404s still go through express,
 * api/routes/redirect.ts), and every operation call (api/operation-door.ts).
 */
export function createHttpServer(runtime: Runtime, options: AppOptions = {}): Server {
  return closeStalledRequests(createServer(stallTimeouts(runtime.config), createRequestListener(runtime, options)));
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
  const { redirects, clock } = runtime;
  /**
   * A link without limits, or with an expiry still ahead, goes from here (a clock compare); a
   * click limit takes a statement, and an expired link's 410 page is express's.
   */
  const freeToGo = (target: RedirectTarget) =>
    !target.limited || (target.maxClicks === undefined && target.expiresAt !== undefined && clock().getTime() < target.expiresAt);
  return (req, res) => {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(prefix)) return false;
    const end = url.indexOf('?');
    const code = url.slice(prefix.length, end === -1 ? undefined : end).replace(/\/$/, '');
    if (code.length !== 5) return false;
    const target = redirects.peek(code);
    if (!target || !freeToGo(target) || redirects.warning(target)) return false;
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
export function createStartingServer(config: Config): { server: Server; serve(listener: RequestListener): void } {
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
  const server = closeStalledRequests(createServer(stallTimeouts(config), (req, res) => listener(req, res)));
  return { server, serve: (next) => (listener = next) };
}

/**
 * node:http's own guards against connections that stall (issue 33 item 6): headers within
 * HTTP_HEADERS_TIMEOUT_MS, the whole request (a declared body that never comes included) within
 * HTTP_REQUEST_TIMEOUT_MS, idle keep-alive connections closed after HTTP_KEEP_ALIVE_TIMEOUT_MS.
 * Node checks the first two on an interval (30 s by default, which would let a stalled request
 * live that much longer): here a quarter of the header timeout, at most a second.
 */
export function stallTimeouts(config: Config): ServerOptions {
  const requestTimeout = config.HTTP_REQUEST_TIMEOUT_MS;
  // Node refuses a header timeout longer than the request timeout.
  const headersTimeout = Math.min(config.HTTP_HEADERS_TIMEOUT_MS, requestTimeout);
  return {
    headersTimeout,
    requestTimeout,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.max(5, Math.min(1_000, Math.floor(headersTimeout / 4))),
  };
}

const REQUEST_TIMEOUT = new AppError(
  'REQUEST_TIMEOUT',
  '요청을 제시간에 다 받지 못해 연결을 닫습니다. 보낸 본문의 바이트 수가 Content-Length와 같은지 확인하고 다시 보내세요.',
).en('The request did not arrive in time, so the connection is closed. Check that the body you send matches its Content-Length.');

/**
 * Answers what node:http reports on a connection before (or instead of) a request: a timeout
 * gets 408 in the contract's error shape, other malformed input the 400/431 node would send;
 * the connection is closed either way. A response already under way is only cut.
 */
export function closeStalledRequests(server: Server): Server {
  return server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const pending = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (!socket.writable || pending?.headersSent || error.code === 'ECONNRESET') return void socket.destroy();
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.end(rawResponse(408, JSON.stringify(errorBody(REQUEST_TIMEOUT))));
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    socket.end(rawResponse(status, ''));
  });
}

function rawResponse(status: number, json: string): string {
  const body = Buffer.from(json);
  const type = json ? 'content-type: application/json; charset=utf-8\r\n' : '';
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nconnection: close\r\n${type}content-length: ${body.length}\r\n\r\n${json}`;
}
