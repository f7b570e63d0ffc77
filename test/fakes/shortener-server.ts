import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Public URL shorteners as they answer, on 127.0.0.1 (tests reach it under shortener host
 * names through an injected resolver):
 * - `redirect`: 301/302 with `Location` to both HEAD and GET (bit.ly, han.gl);
 * - `get-only`: HEAD 405, GET 302 (some Korean shorteners);
 * - `meta`: 200 with an HTML page whose `<meta http-equiv="refresh">` names the target;
 * - `slow`: headers never sent; `huge`: 200 and an endless body, no redirect.
 * Every request is recorded (method, path, Cookie header).
 */
export type ShortRoute =
  | { kind: 'redirect'; status?: 301 | 302 | 307 | 308; location: string; setCookie?: boolean }
  | { kind: 'get-only'; location: string }
  | { kind: 'meta'; location: string; padBytes?: number }
  | { kind: 'slow' }
  | { kind: 'huge' };

export interface FakeShortener {
  port: number;
  routes: Map<string, ShortRoute>;
  requests: { method: string; path: string; cookie: string | undefined }[];
  /** Bytes of endless bodies sent so far (how much a `huge` answer pushed before the reader stopped). */
  hugeBytesSent: number;
  close(): Promise<void>;
}

export async function startFakeShortener(): Promise<FakeShortener> {
  const routes = new Map<string, ShortRoute>();
  const requests: FakeShortener['requests'] = [];
  const state = { hugeBytesSent: 0 };
  const hanging = new Set<ServerResponse>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    requests.push({ method: req.method ?? '', path, cookie: req.headers.cookie });
    const route = routes.get(path);
    if (!route) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>404 Not Found</h1>');
    switch (route.kind) {
      case 'redirect':
        res.writeHead(route.status ?? 302, {
          location: route.location,
          'content-type': 'text/html; charset=utf-8',
          ...(route.setCookie ? { 'set-cookie': 'sid=tracking-123; Path=/' } : {}),
        });
        return void res.end(req.method === 'HEAD' ? undefined : `<a href="${route.location}">moved here</a>`);
      case 'get-only':
        if (req.method === 'HEAD') return void res.writeHead(405, { allow: 'GET' }).end();
        return void res.writeHead(302, { location: route.location }).end();
      case 'meta': {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        if (req.method === 'HEAD') return void res.end();
        return void res.end(
          `<html><head><meta http-equiv="refresh" content="0; url=${route.location}"></head><body>${'x'.repeat(route.padBytes ?? 0)}</body></html>`,
        );
      }
      case 'slow':
        hanging.add(res);
        return;
      case 'huge': {
        res.writeHead(200, { 'content-type': 'text/html' });
        if (req.method === 'HEAD') return void res.end();
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const pump = () => {
          while (!res.destroyed && res.write(chunk)) {
            state.hugeBytesSent += chunk.length;
            // Bounded: a reader that never stops would get 64 MB, then the end.
            if (state.hugeBytesSent > 64 * 1024 * 1024) return void res.end();
          }
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        return;
      }
    }
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    routes,
    requests,
    get hugeBytesSent() {
      return state.hugeBytesSent;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
