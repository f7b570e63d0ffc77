import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type Router } from 'express';
import { corsHandler } from './middleware/cors.js';
import { methodGuard } from './middleware/methods.js';
import type { Runtime } from '../src/runtime.js';
import { databaseErrors, errorHandler, notFound, recordKeyErrors, refuseWhileDatabaseAway } from './middleware/errors.js';
import { requestLog } from './middleware/request-log.js';
import { operationDoor, type OperationDoor } from './operation-door.js';
import { securityHeaders } from './middleware/security-headers.js';
import { accountRoutes } from './routes/account.js';
import { businessRoutes } from './routes/business.js';
import { mountRoutes } from './route.js';
import { docsPages, openApiRoute } from './routes/docs.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { operationRoutes } from './routes/operations.js';
import { teamRoutes } from './routes/team.js';
import { portalRoutes } from './routes/portal.js';
import { redirectRoutes } from './routes/redirect.js';
import { shortLinkPageRoutes, shortLinkRoutes } from './routes/short-links.js';
import { urlListRoutes } from './routes/url-lists.js';
import { urlScanRoutes } from './routes/url-scan.js';
import { watchRoutes } from './routes/watches.js';
import { linkGuardRoutes } from './routes/link-guard.js';
import { knowledgeFeedbackRoutes } from './routes/knowledge-feedback.js';

export interface AppState {
  /** Set while the server drains on SIGTERM: health turns 503 so balancers stop sending. */
  draining: boolean;
}

export interface AppOptions {
  state?: AppState;
  /** The chat doors' routers (`POST /slack/events`, `POST /discord/interactions`), composed by the server's entry. */
  botRouters?: Router[];
}

/** The HTTP door: express over the runtime (the operations' door in it), with the bot doors' routers handed in. */
export function createApp(runtime: Runtime, options: AppOptions = {}): Express {
  return createDoors(runtime, options).app;
}

/**
 * Express, and the operation door built from the same route declarations: the server asks the
 * door first (api/http-server.ts); express asks it too, so the app alone serves every route.
 */
export function createDoors(runtime: Runtime, options: AppOptions = {}): { app: Express; operations: OperationDoor } {
  const state = options.state ?? { draining: false };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.set('etag', false);

  // Every route is declared once (api/route.ts); /openapi.json is generated from the same list.
  // `/metrics` ahead of the request log too: a scrape every 15 s is not worth a line each.
  const early = [...shortLinkPageRoutes(runtime), ...redirectRoutes(runtime), ...healthRoutes(runtime, state), ...metricsRoutes(runtime)];
  const api = [
    ...accountRoutes(runtime),
    ...operationRoutes(runtime),
    ...watchRoutes(runtime),
    ...urlListRoutes(runtime),
    ...urlScanRoutes(runtime),
    ...businessRoutes(runtime),
    ...shortLinkRoutes(runtime),
    ...linkGuardRoutes(runtime),
    ...knowledgeFeedbackRoutes(runtime),
    ...portalRoutes(runtime),
    ...teamRoutes(runtime),
  ];
  const openApi = openApiRoute(runtime, [...early, ...api]);
  // CORS first (off unless CORS_ORIGINS is set), then the operations' door.
  const cors = corsHandler(runtime.config.CORS_ORIGINS);
  const door = operationDoor(runtime, api);
  const operations: OperationDoor = Object.assign((req: IncomingMessage, res: ServerResponse) => cors(req, res) || door(req, res), {
    paths: door.paths,
    templateOf: door.templateOf,
  });

  app.use((req, res, next) => {
    if (!operations(req, res)) next();
  });
  app.use(securityHeaders);
  // The redirect (the hottest path) and health: ahead of logging.
  app.use(mountRoutes(runtime, early));

  app.use(requestLog(runtime.logger));
  // The bots verify signatures over the raw body: mounted before any JSON parser.
  for (const router of options.botRouters ?? []) app.use(router);
  app.use('/api', refuseWhileDatabaseAway(runtime));
  // No body parser here: each route reads its JSON body after authentication (middleware/body.ts).
  app.use(mountRoutes(runtime, api));
  app.use(mountRoutes(runtime, [openApi]));
  app.use(docsPages());

  // A declared path asked with another method: 405 with `Allow`, not a 404.
  app.use(methodGuard([...early, ...api, openApi]));
  app.use(notFound);
  app.use(databaseErrors(runtime));
  app.use(recordKeyErrors(runtime));
  app.use(errorHandler);
  return { app, operations };
}
