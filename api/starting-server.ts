import { createServer, STATUS_CODES, type RequestListener, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Config } from '../src/config.js';
import { AppError, errorBody } from '../src/errors.js';
import { continueWhenBodyRead } from './json-body.js';

/*
 * The HTTP server before the service exists, and node:http's own guards. Kept apart from
 * http-server.ts (which loads express and every route) so that \`npm start\` holds its port, and
 * reports a taken one, before it loads the rest.
 */

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
  const server = continueWhenBodyRead(closeStalledRequests(createServer(stallTimeouts(config), (req, res) => listener(req, res))));
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
