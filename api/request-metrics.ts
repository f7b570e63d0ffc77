import type { IncomingMessage, ServerResponse } from 'node:http';
import { UNMATCHED_ROUTE } from '../src/platform/metric-definitions.js';
import type { Metrics } from '../src/platform/metrics.js';

/** Methods a label may name; anything else is `OTHER` (a label's values stay bounded). */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Times every request into the metrics: one `finish` listener, labelled with the method, the
 * route *template* and the status. The template is express's matched route, else what
 * `templateOf` says for the doors outside express (an operation's declared path, `/s/:code`),
 * else `unmatched`: never the path itself, which may hold a short code or an id. Nothing is
 * written on the request or the response (a property added to every response would change its
 * shape on node's own hot path).
 */
export function requestTimer(
  metrics: Metrics,
  templateOf: (url: string) => string | undefined,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = performance.now();
    res.on('finish', () => {
      const method = req.method !== undefined && METHODS.has(req.method) ? req.method : 'OTHER';
      const route = expressRoute(req) ?? templateOf(req.url ?? '') ?? UNMATCHED_ROUTE;
      metrics.request(method, route, res.statusCode, (performance.now() - started) / 1000);
    });
  };
}

/** The path express matched, as declared (`/api/v1/keys/:id`); undefined when express did not match a route. */
function expressRoute(req: IncomingMessage): string | undefined {
  const path = (req as { route?: { path?: unknown } }).route?.path;
  return typeof path === 'string' ? path : undefined;
}
