import { streamForever } from './endless-body.js';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  buildSchema,
  execute,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { sharedDataPath } from '../helpers/shared-data.js';

/**
 * A fake Delivery Tracker v2 GraphQL server that behaves like the real one (shlee322/delivery-tracker,
 * Apollo Server): every document is parsed, validated and executed by graphql-js against the real
 * schema read in place from `../shared/data/tracker-schema.graphql`, so a query with an unknown
 * field or argument fails here as it would there. What it reproduces:
 *
 * - validation and parse failures: HTTP 400, `errors[].extensions.code` `BAD_REQUEST`, no `path`;
 * - resolver errors with HTTP 200, `data: { track: null }` and `path: ["track"]`;
 * - `flavour: 'self-hosted'`: the server's `formatError` turns `NOT_FOUND` and `BAD_REQUEST` into
 *   `INTERNAL` "Internal error" (the hosted API keeps the code);
 * - `events(last, before)` as its ArrayCursorConnection: at most 20 per page whatever is asked,
 *   `first` or `last` required, base64 JSON `{index}` cursors;
 * - null `time`, `location` and `description` as scripted;
 * - the hosted API's `UNAUTHENTICATED` / `FORBIDDEN` (HTTP 401 / 403) when `credentials` are set.
 *
 * Without the schema file (a checkout without ../shared) it answers from the variables without
 * validating, and says so once on stderr; `validating` tells tests which mode runs.
 *
 *   const tracker = await startFakeTracker();     // DELIVERY_TRACKER_URL = tracker.url
 *   tracker.parcel('kr.cjlogistics', '123412341234', { events: [ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP')] });
 *   tracker.parcel('kr.cjlogistics', '999', { error: 'NOT_FOUND' });
 */

export interface FakeEvent {
  time: string | null;
  status: { code: string; name: string | null };
  location: { name: string | null } | null;
  description: string | null;
}

export type FakeParcel = { delayMs?: number } & (
  | { events: FakeEvent[]; lastEvent?: FakeEvent | null }
  /** A resolver error (HTTP 200 with `path`; `httpStatus` overrides the status). */
  | { error: 'NOT_FOUND' | 'BAD_REQUEST' | 'INTERNAL' | string; message?: string; httpStatus?: number }
  | { httpStatus: number; body: string }
  | { hangUp: true }
  /** An answer that never ends: JSON-looking bytes streamed until the client goes away (counted in `endlessBytes`). */
  | { endless: true }
);

export interface FakeTrackerOptions {
  /** `hosted` (tracker.delivery, default) keeps error codes; `self-hosted` collapses them to INTERNAL. */
  flavour?: 'hosted' | 'self-hosted';
  /** Hosted API credentials: requests without them get UNAUTHENTICATED, with others FORBIDDEN. */
  credentials?: { clientId: string; clientSecret: string };
}

export interface TrackerRequest {
  headers: Record<string, string | string[] | undefined>;
  query: string;
  variables: { carrierId: string; trackingNumber: string; last?: number; before?: string | null };
  /** ms since the server started, when the request arrived. */
  at: number;
}

export interface FakeTracker {
  url: string;
  /** Whether queries are validated against the real schema (false when the schema file is absent). */
  validating: boolean;
  requests: TrackerRequest[];
  parcel(carrierId: string, trackingNumber: string, parcel: FakeParcel): void;
  /** Requests (pages included) for one parcel. */
  callsFor(carrierId: string, trackingNumber: string): TrackerRequest[];
  /** Requests asking for the first (newest) page: one per upstream lookup. */
  lookups(carrierId?: string, trackingNumber?: string): TrackerRequest[];
  reset(): void;
  close(): Promise<void>;
  /** Bytes sent so far by `{ endless: true }` parcels. */
  readonly endlessBytes: number;
}

/** One event; `code` is the v2 status code (`IN_TRANSIT`), `name` the carrier's step name. */
export function ev(
  time: string | null,
  code: string,
  name: string | null = null,
  location: string | null = null,
  description: string | null = null,
): FakeEvent {
  return { time, status: { code, name }, location: { name: location }, description };
}

/** The real server's page limit (ArrayCursorConnection's `limit` in the track resolver). */
export const UPSTREAM_PAGE_LIMIT = 20;

export const TRACKER_SCHEMA_PATH = sharedDataPath('tracker-schema.graphql');

let schema: GraphQLSchema | null | undefined;
function loadSchema(): GraphQLSchema | null {
  if (schema !== undefined) return schema;
  if (!existsSync(TRACKER_SCHEMA_PATH)) {
    process.stderr.write(`fake tracker: ${TRACKER_SCHEMA_PATH} is absent; queries are NOT validated against the real schema\n`);
    return (schema = null);
  }
  return (schema = buildSchema(readFileSync(TRACKER_SCHEMA_PATH, 'utf8')));
}

const encodeCursor = (index: number) => Buffer.from(JSON.stringify({ index }), 'utf8').toString('base64');
function decodeCursor(cursor: string | null | undefined): number | null {
  if (cursor === null || cursor === undefined) return null;
  try {
    return Number(JSON.parse(Buffer.from(cursor, 'base64').toString('utf8')).index);
  } catch {
    throw badRequest('Invalid cursor');
  }
}
const badRequest = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_REQUEST' } });

interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** The real server's ArrayCursorConnection: `first` xor `last`, capped at 20, index cursors. */
export function connection<T>(items: T[], args: PageArgs) {
  const first = args.first ?? null;
  const last = args.last ?? null;
  if (first === null && last === null) throw badRequest('Invalid argument. Either the "first" or "last" parameter is required.');
  if (first !== null && last !== null) throw badRequest('Invalid argument. The "first" and "last" parameter cannot be used together.');
  const forward = first !== null;
  const asked = (forward ? first : last)!;
  if (asked < 1) throw badRequest(`Invalid argument. The "${forward ? 'first' : 'last'}" parameter must be greater than 0.`);
  if (forward && args.before != null) throw badRequest('The "before" parameter cannot be used with the "first" parameter.');
  if (!forward && args.after != null) throw badRequest('The "after" parameter cannot be used with the "last" parameter.');
  const size = Math.min(asked, UPSTREAM_PAGE_LIMIT);
  const cursor = decodeCursor(forward ? args.after : args.before);
  const at = cursor ?? (forward ? -1 : items.length);
  const [start, end] = forward ? [at + 1, at + size] : [at - size, at - 1];
  const edges = [];
  for (let i = Math.max(start, 0); i <= Math.min(end, items.length - 1); i++) edges.push({ cursor: encodeCursor(i), node: items[i] });
  return {
    edges,
    pageInfo: {
      hasPreviousPage: start > 0,
      hasNextPage: end < items.length - 1,
      startCursor: encodeCursor(start),
      endCursor: encodeCursor(end),
    },
  };
}

/** Apollo's error formatting as the Delivery Tracker server configures it. */
function formatError(error: GraphQLError, flavour: 'hosted' | 'self-hosted'): GraphQLFormattedError {
  const formatted = error.toJSON();
  const code = String(formatted.extensions?.code ?? 'INTERNAL');
  const known = ['BAD_REQUEST', 'NOT_FOUND', 'INTERNAL', 'UNAUTHENTICATED', 'FORBIDDEN'].includes(code) ? code : 'INTERNAL';
  const collapsed =
    flavour === 'self-hosted' && ['BAD_REQUEST', 'NOT_FOUND', 'INTERNAL'].includes(known) && formatted.path ? 'INTERNAL' : known;
  return { ...formatted, message: collapsed === 'INTERNAL' ? 'Internal error' : formatted.message, extensions: { code: collapsed } };
}

export async function startFakeTracker(options: FakeTrackerOptions = {}): Promise<FakeTracker> {
  const flavour = options.flavour ?? 'hosted';
  const realSchema = loadSchema();
  const parcels = new Map<string, FakeParcel>();
  const requests: TrackerRequest[] = [];
  const endless = { bytes: 0 };
  const started = performance.now();
  const keyOf = (carrierId: string, number: string) => `${carrierId} ${number}`;

  /** The root value: `track` answers a scripted parcel or throws its scripted error. */
  const root = {
    track({ carrierId, trackingNumber }: { carrierId: string; trackingNumber: string }) {
      const parcel = parcels.get(keyOf(carrierId, trackingNumber));
      if (!parcel) throw new GraphQLError('Not found', { extensions: { code: 'NOT_FOUND' } });
      if ('error' in parcel) throw new GraphQLError(parcel.message ?? parcel.error, { extensions: { code: parcel.error } });
      if (!('events' in parcel)) throw new Error('unreachable');
      const delivered = [...parcel.events].reverse().find((event) => event.status.code === 'DELIVERED');
      return {
        trackingNumber,
        lastEvent: parcel.lastEvent === undefined ? (delivered ?? parcel.events.at(-1) ?? null) : parcel.lastEvent,
        events: (args: PageArgs) => connection(parcel.events, args),
        sender: null,
        recipient: null,
      };
    },
  };

  function run(body: { query?: unknown; variables?: unknown }): { status: number; payload: unknown } {
    const query = typeof body.query === 'string' ? body.query : '';
    const variables = (body.variables ?? {}) as Record<string, unknown>;
    if (!realSchema) return answerWithoutSchema(variables);
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      return { status: 400, payload: { errors: [requestError(error as GraphQLError)] } };
    }
    const invalid = validate(realSchema, document);
    if (invalid.length > 0) return { status: 400, payload: { errors: invalid.map(requestError) } };
    const result = execute({ schema: realSchema, document, rootValue: root, variableValues: variables }) as {
      data?: unknown;
      errors?: readonly GraphQLError[];
    };
    // Variable coercion failures come without data: Apollo answers them 400 (BAD_USER_INPUT → BAD_REQUEST).
    if (result.data === undefined) return { status: 400, payload: { errors: (result.errors ?? []).map(requestError) } };
    const errors = result.errors?.map((error) => formatError(error, flavour));
    return { status: 200, payload: errors?.length ? { errors, data: result.data } : { data: result.data } };
  }

  /** Without the schema: the scripted answer shaped as the real server would give it, nothing validated. */
  function answerWithoutSchema(variables: Record<string, unknown>): { status: number; payload: unknown } {
    try {
      const track = root.track(variables as { carrierId: string; trackingNumber: string });
      const events = track.events({ last: variables.last as number, before: variables.before as string | null });
      return { status: 200, payload: { data: { track: { lastEvent: track.lastEvent, events } } } };
    } catch (error) {
      const formatted = formatError(
        new GraphQLError((error as Error).message, { path: ['track'], extensions: (error as GraphQLError).extensions }),
        flavour,
      );
      return { status: 200, payload: { errors: [formatted], data: { track: null } } };
    }
  }

  function authError(header: string | undefined): { status: number; payload: unknown } | undefined {
    const wanted = options.credentials;
    if (!wanted) return undefined;
    if (!header) return { status: 401, payload: { errors: [{ message: 'Unauthenticated', extensions: { code: 'UNAUTHENTICATED' } }] } };
    if (header !== `TRACKQL-API-KEY ${wanted.clientId}:${wanted.clientSecret}`) {
      return { status: 403, payload: { errors: [{ message: 'Forbidden', extensions: { code: 'FORBIDDEN' } }] } };
    }
    return undefined;
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    };
    let body: { query?: unknown; variables?: unknown };
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    } catch {
      return send(400, { errors: [{ message: 'POST body is not valid JSON', extensions: { code: 'BAD_REQUEST' } }] });
    }
    const request: TrackerRequest = {
      headers: req.headers,
      query: String(body.query ?? ''),
      variables: (body.variables ?? {}) as TrackerRequest['variables'],
      at: performance.now() - started,
    };
    requests.push(request);
    const refused = authError(req.headers.authorization);
    if (refused) return send(refused.status, refused.payload);
    const { carrierId, trackingNumber } = request.variables;
    const parcel = parcels.get(keyOf(carrierId, trackingNumber));
    if (parcel?.delayMs) {
      const closed = await Promise.race([
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), parcel.delayMs).unref()),
        new Promise<boolean>((resolve) => res.once('close', () => resolve(true))),
      ]);
      if (closed) return;
    }
    if (parcel && 'hangUp' in parcel) return void res.socket?.destroy();
    if (parcel && 'endless' in parcel) return streamForever(res, (bytes) => (endless.bytes += bytes));
    if (parcel && 'body' in parcel) return send(parcel.httpStatus, parcel.body);
    const answer = run(body);
    send(parcel && 'error' in parcel && parcel.httpStatus ? parcel.httpStatus : answer.status, answer.payload);
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;

  const callsFor = (carrierId: string, number: string) =>
    requests.filter((r) => r.variables.carrierId === carrierId && r.variables.trackingNumber === number);
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    validating: realSchema !== null,
    requests,
    parcel: (carrierId, number, parcel) => void parcels.set(keyOf(carrierId, number), parcel),
    callsFor,
    lookups: (carrierId, number) => (carrierId && number ? callsFor(carrierId, number) : requests).filter((r) => !r.variables.before),
    get endlessBytes() {
      return endless.bytes;
    },
    reset() {
      parcels.clear();
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Request-level failures (parse, validation, variables): Apollo's codes mapped to BAD_REQUEST, no path. */
function requestError(error: GraphQLError): GraphQLFormattedError {
  return { ...error.toJSON(), extensions: { code: 'BAD_REQUEST' } };
}
