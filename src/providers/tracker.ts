import { AppError } from '../errors.js';
import { upstreamOutcome, type UpstreamObserver } from './upstream-observer.js';
import type { Logger } from '../logger.js';
import { BodyTooLargeError, readCappedText } from '../net/capped-body.js';

/** One event as the Delivery Tracker v2 API gives it (fields may be null). */
export interface TrackerEvent {
  time: string | null;
  status: { code: string | null; name: string | null } | null;
  location: { name: string | null } | null;
  description: string | null;
}

export interface TrackerParcel {
  lastEvent: TrackerEvent | null;
  /** Every event, in the order the upstream listed them (not necessarily by time). */
  events: TrackerEvent[];
}

export interface TrackerOptions {
  url: string;
  clientId?: string;
  clientSecret?: string;
  /** Per GraphQL request (default 15 s). */
  timeoutMs?: number;
  logger: Logger;
  /** Told of every lookup's duration and outcome (the runtime's metrics). */
  observe?: UpstreamObserver;
}

export interface TrackCallOptions {
  logger?: Logger;
  /** Awaited before every upstream request (the shared rate limit counts requests, not lookups). */
  beforeRequest?: () => Promise<void>;
}

export interface Tracker {
  track(carrierId: string, trackingNumber: string, options?: TrackCallOptions): Promise<TrackerParcel>;
}

/** The upstream serves at most 20 events a page (its ArrayCursorConnection limit): asking for more only hides the cap. */
export const UPSTREAM_PAGE_SIZE = 20;
/** A parcel with more pages than this is answered with its newest 200 events (a guard against a looping cursor). */
const MAX_PAGES = 10;
/** A page of 20 events is a few kilobytes; anything near a megabyte is a broken or hostile upstream. */
export const TRACKER_BODY_LIMIT_BYTES = 1024 * 1024;

const EVENT_FIELDS = 'time status { code name } location { name } description';

export const TRACK_QUERY = `query Track($carrierId: ID!, $trackingNumber: String!, $last: Int!, $before: String) {
  track(carrierId: $carrierId, trackingNumber: $trackingNumber) {
    lastEvent { ${EVENT_FIELDS} }
    events(last: $last, before: $before) {
      pageInfo { hasPreviousPage startCursor }
      edges { node { ${EVENT_FIELDS} } }
    }
  }
}`;

interface GraphQlError {
  message?: string;
  path?: Array<string | number>;
  extensions?: { code?: string };
}

interface GraphQlAnswer {
  data?: {
    track?: {
      lastEvent?: TrackerEvent | null;
      events?: {
        pageInfo?: { hasPreviousPage?: boolean; startCursor?: string | null };
        edges?: Array<{ node?: TrackerEvent | null } | null>;
      } | null;
    } | null;
  } | null;
  errors?: GraphQlError[];
}

type TrackData = NonNullable<NonNullable<GraphQlAnswer['data']>['track']>;

/** Messages the caller sees; the operator's side goes to the log. */
const NOT_FOUND_TEXT = '택배사에서 이 운송장 번호의 배송 정보를 찾지 못했습니다. 택배사와 운송장 번호를 확인하세요.';
const COLLAPSED_TEXT =
  '택배 조회 서버가 내부 오류로 답했습니다. 택배사와 운송장 번호가 맞는지 먼저 확인하고, 맞다면 잠시 후 다시 시도하세요. ' +
  '(자체 호스팅 조회 서버는 없는 운송장이나 틀린 번호도 이렇게 답합니다.)';

/**
 * Delivery Tracker v2 GraphQL client over plain `fetch`: `track(carrierId, trackingNumber)`
 * with every event, pages of 20 read backwards until none is left, each request taken
 * through `beforeRequest` (the rate limit). How the upstream's answers are mapped:
 * - `BAD_REQUEST` / `NOT_FOUND` on the `track` field (HTTP 200, with `path`): 400 on `track_id` / 404;
 * - `INTERNAL` with `data.track: null`: 502 that says what to check (a self-hosted server
 *   answers an unknown or mistyped number this way);
 * - an error without `path` (HTTP 400: the upstream rejected our query) or on a field below
 *   `track`: a contract failure, logged at error level, 502;
 * - `UNAUTHENTICATED` / `FORBIDDEN` (or HTTP 401/403): wrong credentials, logged at error, 502;
 * - timeouts, network failures, other statuses and bodies: 502.
 * Never logs the tracking number.
 */
export function createTracker(options: TrackerOptions): Tracker {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.clientId && options.clientSecret) {
    headers.authorization = `TRACKQL-API-KEY ${options.clientId}:${options.clientSecret}`;
  }

  async function page(carrierId: string, trackingNumber: string, before: string | undefined, logger: Logger): Promise<TrackData> {
    let response: Response;
    try {
      response = await fetch(options.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          query: TRACK_QUERY,
          variables: { carrierId, trackingNumber, last: UPSTREAM_PAGE_SIZE, before: before ?? null },
        }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw trackerFailure(timedOut ? '택배 조회 서버가 제시간에 응답하지 않았습니다.' : '택배 조회 서버에 연결하지 못했습니다.');
    }
    let answer: GraphQlAnswer | undefined;
    try {
      answer = JSON.parse(await readCappedText(response.body, TRACKER_BODY_LIMIT_BYTES)) as GraphQlAnswer;
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw trackerFailure('택배 조회 서버가 너무 큰 응답을 보냈습니다.');
      if ((error as Error).name === 'TimeoutError') throw trackerFailure('택배 조회 서버가 제시간에 응답하지 않았습니다.');
      answer = undefined;
    }
    const track = answer?.data?.track;
    const failure = answer?.errors?.[0];
    if (failure || !response.ok) throw mapFailure(failure, response.status, track, carrierId, logger);
    if (!answer || answer.data === undefined)
      throw trackerFailure(`택배 조회 서버가 알 수 없는 응답을 보냈습니다 (HTTP ${response.status}).`);
    if (!track) throw new AppError('NOT_FOUND', NOT_FOUND_TEXT);
    return track;
  }

  return {
    async track(carrierId, trackingNumber, call = {}) {
      const logger = call.logger ?? options.logger;
      const started = performance.now();
      const pages: TrackerEvent[][] = [];
      let lastEvent: TrackerEvent | null = null;
      let before: string | undefined;
      try {
        for (let count = 0; count < MAX_PAGES; count++) {
          await call.beforeRequest?.();
          const track = await page(carrierId, trackingNumber, before, logger);
          if (count === 0) lastEvent = track.lastEvent ?? null;
          const connection = track.events;
          pages.unshift((connection?.edges ?? []).flatMap((edge) => (edge?.node ? [edge.node] : [])));
          const info = connection?.pageInfo;
          if (!info?.hasPreviousPage || !info.startCursor || info.startCursor === before) break;
          before = info.startCursor;
        }
        const events = pages.flat();
        logger.debug(
          { tracker: carrierId, pages: pages.length, events: events.length, ms: Math.round(performance.now() - started) },
          'tracker call',
        );
        options.observe?.('tracker', 'track', (performance.now() - started) / 1000, 'ok');
        return { lastEvent, events };
      } catch (error) {
        const status = error instanceof AppError ? error.status : 500;
        // A parcel the carrier does not know is an answer, not an outage.
        const level = status >= 500 ? 'warn' : 'info';
        logger[level]({ tracker: carrierId, status, ms: Math.round(performance.now() - started) }, 'tracker call failed');
        options.observe?.('tracker', 'track', (performance.now() - started) / 1000, upstreamOutcome(error));
        throw error;
      }
    },
  };
}

/** One upstream failure as the AppError the caller gets; the operator's problems are logged at error level. */
function mapFailure(
  failure: GraphQlError | undefined,
  httpStatus: number,
  track: TrackData | null | undefined,
  carrierId: string,
  logger: Logger,
): AppError {
  const code = failure?.extensions?.code;
  const onTrack = failure?.path?.length === 1 && failure.path[0] === 'track';
  if (code === 'UNAUTHENTICATED' || code === 'FORBIDDEN' || httpStatus === 401 || httpStatus === 403) {
    logger.error(
      { tracker: carrierId, upstreamCode: code, httpStatus },
      'tracker refused our credentials: check DELIVERY_TRACKER_CLIENT_ID / DELIVERY_TRACKER_CLIENT_SECRET',
    );
    return trackerFailure(
      '택배 조회 서버가 이 서비스의 인증 정보를 받아들이지 않아 조회할 수 없습니다. 서비스 관리자에게 알려 주세요.',
      false,
    );
  }
  if (onTrack && code === 'BAD_REQUEST') {
    return new AppError('INVALID_REQUEST', '택배사가 이 운송장 번호를 받아들이지 않았습니다. 번호를 확인하세요.', { field: 'track_id' });
  }
  if (onTrack && code === 'NOT_FOUND') return new AppError('NOT_FOUND', NOT_FOUND_TEXT);
  if (onTrack && code === 'INTERNAL' && !track) {
    const error = trackerFailure(COLLAPSED_TEXT, false);
    collapsed.add(error);
    return error;
  }
  if (failure && !onTrack) {
    // The upstream rejected the document we sent (HTTP 400, no path) or a field below `track`:
    // our query no longer matches its schema. Every lookup fails the same way until it is fixed.
    logger.error(
      {
        tracker: carrierId,
        upstreamCode: code,
        httpStatus,
        path: failure.path?.join('.'),
        upstreamMessage: failure.message?.slice(0, 300),
      },
      'tracker contract failure: the upstream rejected our GraphQL query',
    );
    return trackerFailure('택배 조회 서버와의 연동에 문제가 있어 조회하지 못했습니다. 계속되면 서비스 관리자에게 알려 주세요.', false);
  }
  return trackerFailure(`택배 조회 서버 오류${code ? ` (${code})` : ` (HTTP ${httpStatus})`}.`);
}

/** Failures that may mean "no such parcel" on a self-hosted upstream (it collapses NOT_FOUND into INTERNAL). */
const collapsed = new WeakSet<AppError>();

/** True for an INTERNAL answer on `track` with no data: an outage, or an unknown number on a self-hosted server. */
export function mayBeUnknownParcel(error: unknown): boolean {
  return error instanceof AppError && collapsed.has(error);
}

export function trackerFailure(detail: string, retryHint = true): AppError {
  return new AppError('UPSTREAM_ERROR', retryHint ? `${detail} 잠시 후 다시 시도하세요.` : detail);
}
