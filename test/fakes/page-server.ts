import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Web pages as sites answer them, on 127.0.0.1: a route is a status, headers and a body;
 * `slow` never answers (the fetch's time limit), `huge` sends an endless body (its size cap).
 * Every requested path is recorded.
 */
export type PageRoute =
  { status?: number; type?: string; body?: string | Buffer; location?: string } | { slow: true } | { huge: true; type?: string };

export interface FakePages {
  port: number;
  url(path: string): string;
  routes: Map<string, PageRoute>;
  requests: string[];
  close(): Promise<void>;
}

export async function startFakePages(): Promise<FakePages> {
  const routes = new Map<string, PageRoute>();
  const requests: string[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    requests.push(path);
    const route = routes.get(path);
    if (!route) return void res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end('<h1>Not Found</h1>');
    if ('slow' in route) return void open.add(res);
    if ('huge' in route) {
      res.writeHead(200, { 'content-type': route.type ?? 'text/html; charset=utf-8' });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      res.on('close', () => res.off('drain', pump));
      return pump();
    }
    const headers: Record<string, string> = { 'content-type': route.type ?? 'text/html; charset=utf-8' };
    if (route.location) headers.location = route.location;
    res.writeHead(route.status ?? (route.location ? 302 : 200), headers).end(route.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    routes,
    requests,
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
