import type { IncomingMessage, ServerResponse } from 'node:http';

const ALLOWED_HEADERS = 'Content-Type, X-API-Key, Authorization, X-Request-Id, Accept-Language';
const EXPOSED_HEADERS = 'RateLimit, RateLimit-Policy, Retry-After, X-Request-Id';
const ALLOWED_METHODS = 'GET, POST, PATCH, DELETE';
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * CORS for the origins of CORS_ORIGINS (unset: none, so browsers keep other sites' pages from
 * calling the API with a visitor's token). Called before either door: an allowed origin's
 * request gets its `Access-Control-*` headers, its preflight (`OPTIONS`) a 204. Returns true
 * when it answered. No credentials mode: keys and tokens travel in headers, never cookies.
 */
export function corsHandler(origins: readonly string[]): (req: IncomingMessage, res: ServerResponse) => boolean {
  if (origins.length === 0) return () => false;
  const any = origins.includes('*');
  const allowed = new Set(origins.map((origin) => origin.toLowerCase()));
  return (req, res) => {
    const origin = req.headers.origin;
    if (typeof origin !== 'string' || (!any && !allowed.has(origin.toLowerCase()))) return false;
    res.setHeader('Access-Control-Allow-Origin', any ? '*' : origin);
    if (!any) res.setHeader('Vary', 'Origin');
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
      res.writeHead(204, {
        'Access-Control-Allow-Methods': ALLOWED_METHODS,
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
        'Content-Length': '0',
      });
      res.end();
      return true;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    return false;
  };
}
