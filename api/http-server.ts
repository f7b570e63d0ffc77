import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Runtime } from '../src/runtime.js';
import { createApp, type AppOptions } from './app.js';
import { sendRedirect } from './routes/redirect.js';

/**
 * The HTTP server: express for everything, except the redirect of a cached short code, which
 * is answered straight from node:http. The redirect is the hottest path of the service and
 * express's per-request work costs several times the redirect itself; misses, warnings and
 * 404s still go through express (api/routes/redirect.ts).
 */
export function createHttpServer(runtime: Runtime, options: AppOptions = {}): Server {
  return createServer(createRequestListener(runtime, options));
}

export function createRequestListener(runtime: Runtime, options: AppOptions = {}): RequestListener {
  const app = createApp(runtime, options);
  const fastRedirect = cachedRedirect(runtime);
  return (req, res) => {
    if (!fastRedirect(req, res)) app(req, res);
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
