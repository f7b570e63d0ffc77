import type { IncomingMessage, ServerResponse } from 'node:http';
import { UNMATCHED_ROUTE } from '../src/platform/metric-definitions.js';
import type { Metrics } from '../src/platform/metrics.js';

const TIMED = Symbol('request timed');
const ROUTE = Symbol('route template');

type Marked = ServerResponse & { [TIMED]?: true; [ROUTE]?: string };

/** Methods a label may name; anything else is `OTHER` (a label's values stay bounded). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Names the declared route a request matched, for a door that answers outside express (the operation door, the fast redirect). */
export function nameRoute(res: ServerResponse, template: string): void {
  (res as Marked)[ROUTE] = template;
}

/**
 * Times every request into the metrics, once (the server's listener and the express app both
 * call it; the second call does nothing): one `finish` listener, labelled with the method, the
 * route *template* (the door's, express's matched route, or `unmatched`: never the path itself,
 * which may hold a short code or an id) and the status.
 */
export function requestTimer(metrics: Metrics): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const marked = res as Marked;
    if (marked[TIMED]) return;
    marked[TIMED] = true;
    const started = performance.now();
    res.once('finish', () => {
      const method = req.method !== undefined && METHODS.has(req.method) ? req.method : 'OTHER';
      metrics.request(method, marked[ROUTE] ?? expressRoute(req) ?? UNMATCHED_ROUTE, res.statusCode, (performance.now() - started) / 1000);
    });
  };
}

/** The path express matched, as declared (`/api/v1/keys/:id`); undefined when no route matched (a 404, static files). */
function expressRoute(req: IncomingMessage): string | undefined {
  const path = (req as { route?: { path?: unknown } }).route?.path;
  return typeof path === 'string' ? path : undefined;
}
