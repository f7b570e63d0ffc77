import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Delivery Tracker v2 GraphQL server: the real tracker client talks to it over HTTP.
 * Parcels are scripted by carrier and number; `events` are served as a Relay connection that
 * pages backwards (`last`, `before`), in the order given (so tests can script out-of-order
 * events). Unknown parcels answer NOT_FOUND. Every request is logged.
 *
 *   const tracker = await startFakeTracker();     // DELIVERY_TRACKER_URL = tracker.url
 *   tracker.parcel('kr.cjlogistics', '123412341234', { events: [ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP')] });
 *   tracker.parcel('kr.cjlogistics', '999', { error: 'INTERNAL', httpStatus: 200 });
 */

export interface FakeEvent {
  time: string | null;
  status: { code: string; name: string | null };
  location: { name: string | null };
  description: string | null;
}

export type FakeParcel = { delayMs?: number } & (
  | { events: FakeEvent[]; lastEvent?: FakeEvent | null }
  | { error: 'NOT_FOUND' | 'BAD_REQUEST' | 'INTERNAL' | string; httpStatus?: number }
  | { httpStatus: number; body: string }
  | { hangUp: true }
);

export interface TrackerRequest {
  headers: Record<string, string | string[] | undefined>;
  query: string;
  variables: { carrierId: string; trackingNumber: string; last?: number; before?: string | null };
  /** ms since the server started, when the request arrived. */
  at: number;
}

export interface FakeTracker {
  url: string;
  requests: TrackerRequest[];
  parcel(carrierId: string, trackingNumber: string, parcel: FakeParcel): void;
  /** Requests (pages included) for one parcel. */
  callsFor(carrierId: string, trackingNumber: string): TrackerRequest[];
  /** Requests asking for the first (newest) page: one per upstream lookup. */
  lookups(carrierId?: string, trackingNumber?: string): TrackerRequest[];
  reset(): void;
  close(): Promise<void>;
}

/** One event; `code` is the v2 status code (`IN_TRANSIT`), `name` the carrier's step name. */
export function ev(time: string, code: string, name: string | null = null, location: string | null = null, description: string | null = null): FakeEvent {
  return { time, status: { code, name }, location: { name: location }, description };
}

const cursorOf = (index: number) => Buffer.from(`cursor:${index}`).toString('base64');
const indexOf = (cursor: string) => Number(Buffer.from(cursor, 'base64').toString().split(':')[1]);

export async function startFakeTracker(): Promise<FakeTracker> {
  const parcels = new Map<string, FakeParcel>();
  const requests: TrackerRequest[] = [];
  const started = performance.now();
  const keyOf = (carrierId: string, number: string) => `${carrierId} ${number}`;

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
    const request: TrackerRequest = { headers: req.headers, query: body.query ?? '', variables: body.variables ?? {}, at: performance.now() - started };
    requests.push(request);
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    };
    const { carrierId, trackingNumber, last = 20, before } = request.variables;
    const parcel = parcels.get(keyOf(carrierId, trackingNumber));
    if (parcel?.delayMs) {
      const closed = await Promise.race([
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), parcel.delayMs).unref()),
        new Promise<boolean>((resolve) => res.once('close', () => resolve(true))),
      ]);
      if (closed) return;
    }
    if (!parcel) return send(200, { data: { track: null }, errors: [{ message: 'Not found', extensions: { code: 'NOT_FOUND' } }] });
    if ('hangUp' in parcel) return void res.socket?.destroy();
    if ('body' in parcel) return send(parcel.httpStatus, parcel.body);
    if ('error' in parcel) {
      return send(parcel.httpStatus ?? 200, { data: { track: null }, errors: [{ message: parcel.error, extensions: { code: parcel.error } }] });
    }
    const end = before ? indexOf(before) : parcel.events.length;
    const start = Math.max(0, end - last);
    const edges = parcel.events.slice(start, end).map((node, offset) => ({ cursor: cursorOf(start + offset), node }));
    send(200, {
      data: {
        track: {
          lastEvent: parcel.lastEvent === undefined ? (parcel.events.at(-1) ?? null) : parcel.lastEvent,
          events: { pageInfo: { hasPreviousPage: start > 0, startCursor: edges[0]?.cursor ?? null }, edges },
        },
      },
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const port = (server.address() as AddressInfo).port;

  const callsFor = (carrierId: string, number: string) =>
    requests.filter((r) => r.variables.carrierId === carrierId && r.variables.trackingNumber === number);
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    requests,
    parcel: (carrierId, number, parcel) => void parcels.set(keyOf(carrierId, number), parcel),
    callsFor,
    lookups: (carrierId, number) =>
      (carrierId && number ? callsFor(carrierId, number) : requests).filter((r) => !r.variables.before),
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
