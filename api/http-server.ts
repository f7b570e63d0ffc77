import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Runtime } from '../src/runtime.js';
import { createDoors, type AppOptions } from './app.js';
import { continueWhenBodyRead } from './json-body.js';
import { sendRedirect, type RedirectTarget } from './routes/redirect.js';
import { closeStalledRequests, stallTimeouts } from './starting-server.js';
import { requestTimer } from './request-metrics.js';

/**
 * The HTTP server: express for everything, except the two hottest paths, answered straight
 * from node:http because express's per-request work costs several times their own: the
 * redirect of a cached short code (misses, warnings and 404s still go through express,
 * api/routes/redirect.ts), and every operation call (api/operation-door.ts).
 */
export function createHttpServer(runtime: Runtime, options: AppOptions = {}): Server {
  return continueWhenBodyRead(closeStalledRequests(createServer(stallTimeouts(runtime.config), createRequestListener(runtime, options))));
}

export function createRequestListener(runtime: Runtime, options: AppOptions = {}): RequestListener {
  const { app, operations } = createDoors(runtime, options);
  const fastRedirect = cachedRedirect(runtime);
  const timed = requestTimer(runtime.metrics, (url) => operations.templateOf(url) ?? fastRedirect.templateOf(url));
  return (req, res) => {
    timed(req, res);
    if (!fastRedirect(req, res) && !operations(req, res)) app(req, res);
  };
}

/**
 * Answers and returns true when the request is a redirect whose code is cached and safe;
 * `templateOf` names the route of such a URL (`/s/:code`) for the metrics.
 */
function cachedRedirect(runtime: Runtime): ((req: IncomingMessage, res: ServerResponse) => boolean) & {
  templateOf(url: string): string | undefined;
} {
  const basePath = new URL(runtime.config.SHORT_URL_BASE).pathname.replace(/\/+$/, '');
  const prefix = `${basePath}/`;
  const template = `${prefix}:code`;
  const { redirects, clock } = runtime;
  /**
   * A link without limits, or with an expiry still ahead, goes from here (a clock compare); a
   * click limit takes a statement, and an expired link's 410 page is express's.
   */
  const freeToGo = (target: RedirectTarget) =>
    !target.limited || (target.maxClicks === undefined && target.expiresAt !== undefined && clock().getTime() < target.expiresAt);
  const codeOf = (url: string) => {
    const end = url.indexOf('?');
    return url.slice(prefix.length, end === -1 ? undefined : end).replace(/\/$/, '');
  };
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !url.startsWith(prefix)) return false;
    const code = codeOf(url);
    if (code.length !== 5) return false;
    const target = redirects.peek(code);
    if (!target || !freeToGo(target) || redirects.warning(target)) return false;
    sendRedirect(req, res, redirects, target);
    return true;
  };
  return Object.assign(answer, {
    templateOf: (url: string) => (url.startsWith(prefix) && codeOf(url).length === 5 ? template : undefined),
  });
}
