import express, { type RequestHandler, type Router } from 'express';
import type { Runtime } from '../src/runtime.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { requestLog } from './middleware/request-log.js';
import { accountRoutes } from './routes/account.js';
import { docsRoutes } from './routes/docs.js';
import { operationRoutes } from './routes/operations.js';
import { redirectHandler } from './routes/redirect.js';
import { watchRoutes } from './routes/watches.js';

/** JSON bodies: a 10 MB image in Base64 is ~13.4 MB, so the reader's route gets 15 MB; others 1 MB. */
const IMAGE_BODY_LIMIT = '15mb';
const DEFAULT_BODY_LIMIT = '1mb';
const IMAGE_ROUTES = new Set(['/api/v1/ocr/idcard']);

export interface AppState {
  /** Set while the server drains on SIGTERM: health turns 503 so balancers stop sending. */
  draining: boolean;
}

export interface AppOptions {
  state?: AppState;
  /** The chat doors' routers (`POST /slack/events`, `POST /discord/interactions`), composed by the server's entry. */
  botRouters?: Router[];
}

/** The HTTP door: express over the runtime, with the bot doors' routers handed in. */
export function createApp(runtime: Runtime, options: AppOptions = {}) {
  const state = options.state ?? { draining: false };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('etag', false);

  app.use(redirectHandler(runtime));
  app.get('/healthz', (_req, res) => {
    res.status(state.draining ? 503 : 200).json({ status: state.draining ? 'draining' : 'ok' });
  });

  app.use(requestLog(runtime.logger));
  // The bots verify signatures over the raw body: mounted before any JSON parser.
  for (const router of options.botRouters ?? []) app.use(router);
  app.use('/api', jsonBody());
  app.use('/api/v1', accountRoutes(runtime));
  app.use('/api/v1', operationRoutes(runtime));
  app.use('/api/v1', watchRoutes(runtime));
  app.use(docsRoutes(runtime));

  app.use(notFound);
  app.use(errorHandler);
  return app;
}

/** Any content type is read as JSON (curl's default form type included), with a per-route size limit. */
function jsonBody(): RequestHandler {
  const small = express.json({ limit: DEFAULT_BODY_LIMIT, type: () => true });
  const large = express.json({ limit: IMAGE_BODY_LIMIT, type: () => true });
  return (req, res, next) => (IMAGE_ROUTES.has(req.originalUrl.split('?')[0] ?? '') ? large : small)(req, res, next);
}
