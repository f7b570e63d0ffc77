import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { databaseUnavailable, type AppError } from '../src/errors.js';
import type { Operation } from '../src/platform/execute.js';
import type { Runtime } from '../src/runtime.js';
import { parseInput } from '../src/validation.js';
import { DEFAULT_BODY_LIMIT_MB, invalidJson, payloadTooLarge } from './json-body.js';
import { forbiddenRole, type Right } from '../src/platform/roles.js';
import { authenticate, authErrors } from './middleware/auth.js';
import { jsonBody } from './middleware/body.js';

/**
 * One HTTP route, declared once: its OpenAPI path (api/openapi.ts) and either the express
 * registration (`mountRoutes`) or, for an operation, the operation door's table
 * (api/operation-door.ts) are generated from it, so the docs cannot drift from the code.
 */
export interface Route<Params = any, Body = any, Query = any> {
  method: 'get' | 'post' | 'delete' | 'patch';
  /** express syntax, absolute: `/api/v1/keys/:id` (OpenAPI: `/api/v1/keys/{id}`). */
  path: string;
  /** One of the document's declared tags (`API_TAGS`, api/openapi-tags.ts). */
  tag: string;
  summary: string;
  /**
   * The operation's stable name for code generators (`detectUrl`, `createApiKey`): a camelCase
   * verb phrase, unique in the document. Renaming one renames a generated client's method.
   */
  operationId: string;
  /** More than the summary says, in Markdown; the document adds who may call it. */
  description?: string;
  /**
   * `key` (`X-API-Key`), `token` (`Authorization: Bearer`), `either`, or `none`. The JSON body
   * is read after authentication (middleware/auth.ts); the 401s follow from the kind.
   */
  auth: AuthKind;
  /**
   * The team right a signed-in member needs (src/platform/roles.ts): required when the route
   * takes a login token; checked before the body is read (403 FORBIDDEN_ROLE). An API key acts
   * for the whole team and is not asked.
   */
  right?: Right;
  /** Path parameters, validated here: a failure is the contract's 400 naming the parameter. */
  params?: z.ZodType<Params>;
  /** Query parameters (`?from=&to=`), validated here like the path's: a failure is a 400 naming the parameter. */
  query?: z.ZodType<Query>;
  /**
   * The JSON body, its schema and an example for the docs. `validatedBy: 'route'` parses it here
   * (the handler gets the result); `'core'` leaves it to the account service or the operation
   * executor (the same rules for HTTP and the bots), which the handler hands `req.body`.
   */
  body?: { schema: z.ZodType<Body>; example: object; validatedBy: 'route' | 'core'; limitMb?: number };
  /** Every answer that is not an error, by status: the first 2xx is what a returned body is sent with. */
  answers: Record<number, Answer>;
  /** The errors the route can answer besides 400 and the 401s of its auth kind: instances of what the code throws. */
  errors?: AppError[];
  /**
   * Returns the body (sent as JSON with the first 2xx status), `reply(status, body)`, or
   * nothing when it answered itself (HTML, a redirect) or passed on with `next()`.
   * A route that names an `operation` has none: the operation door serves it.
   */
  handler?(input: { params: Params; body: Body; query: Query }, req: Request, res: Response, next: NextFunction): unknown;
  /** The operation the route runs (validate, charge, run, envelope): served by api/operation-door.ts, not express. */
  operation?: Operation;
}

export type AuthKind = 'none' | 'key' | 'token' | 'either';

/** A success (or non-error) answer: a JSON body's schema and example, or another media type. */
export interface Answer {
  description: string;
  schema?: z.ZodType;
  example?: unknown;
  /** Not JSON: the media type (an HTML page) or none at all (a redirect). */
  media?: 'text/html' | 'text/plain' | 'none' | 'image';
  /** Also served as CSV (`format=csv`): what the CSV holds. */
  csv?: string;
  headers?: Record<string, { description?: string; example: string }>;
}

/** A body sent with a status other than the route's first 2xx (health's 503). */
export class Reply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

export const reply = (status: number, body: unknown) => new Reply(status, body);

/** Declares a route; the helper only lets TypeScript infer params and body from the schemas. */
export function defineRoute<Params = Record<string, never>, Body = unknown, Query = Record<string, never>>(
  route: Route<Params, Body, Query>,
): Route<Params, Body, Query> {
  return route;
}

/** The success status a returned body is sent with. */
function successStatus(route: Route): number {
  return Number(Object.keys(route.answers).find((status) => /^2/.test(status)) ?? 200);
}

/** The errors a route declares, those of its auth kind first. */
export function declaredErrors(route: Route): AppError[] {
  const body = route.body ? [invalidJson(), payloadTooLarge((route.body.limitMb ?? DEFAULT_BODY_LIMIT_MB) * 1024 * 1024)] : [];
  // `refuseWhileDatabaseAway` answers every API route while the database is away.
  const database = route.path.startsWith('/api/') ? [databaseUnavailable()] : [];
  const role = route.right && route.right !== 'read' ? [forbiddenRole(route.right)] : [];
  // The route's own errors before the role's: a status's example shows what most callers meet (an API key has no role).
  return [...(route.auth === 'none' ? [] : authErrors(route.auth)), ...body, ...(route.errors ?? []), ...role, ...database];
}

/** Registers the routes on one router (all but the operations'): auth (which reads the body after it), validation, handler, answer. */
export function mountRoutes(runtime: Runtime, routes: readonly Route[]): Router {
  const router = Router();
  for (const route of routes) {
    if (route.operation) continue;
    const { handler } = route;
    if (!handler) throw new Error(`${route.method} ${route.path}: a route has a handler or an operation`);
    const readBody = jsonBody(route.body?.limitMb);
    if (route.auth !== 'none' && route.auth !== 'key' && !route.right)
      throw new Error(`${route.method} ${route.path}: a route that takes a login token names the team right it needs`);
    const before = route.auth !== 'none' ? [authenticate(runtime, route.auth, readBody, route.right)] : route.body ? [readBody] : [];
    const status = successStatus(route);
    router[route.method](route.path, ...before, async (req: Request, res: Response, next: NextFunction) => {
      const params = route.params ? parseInput(route.params, req.params) : {};
      const body = route.body?.validatedBy === 'route' ? parseInput(route.body.schema, req.body) : req.body;
      const query = route.query ? parseInput(route.query, req.query) : {};
      const result = await handler({ params, body, query }, req, res, next);
      if (result instanceof Reply) res.status(result.status).json(result.body);
      else if (result !== undefined) res.status(status).json(result);
    });
  }
  return router;
}

/** `/api/v1/keys/:id` → `/api/v1/keys/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}').replace(/\\(.)/g, '$1');
}
