import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';

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
  /** Events asked for per page (the upstream pages backwards from the newest). */
  pageSize?: number;
  logger: Logger;
}

export interface Tracker {
  track(carrierId: string, trackingNumber: string, logger?: Logger): Promise<TrackerParcel>;
}

const EVENT_FIELDS = 'time status { code name } location { name } description';

const TRACK_QUERY = `query Track($carrierId: ID!, $trackingNumber: String!, $last: Int!, $before: String) {
  track(carrierId: $carrierId, trackingNumber: $trackingNumber) {
    lastEvent { ${EVENT_FIELDS} }
    events(last: $last, before: $before) {
      pageInfo { hasPreviousPage startCursor }
      edges { node { ${EVENT_FIELDS} } }
    }
  }
}`;

/** A parcel with more pages than this is answered with what was read (a guard against a looping cursor). */
const MAX_PAGES = 20;

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
  errors?: Array<{ message?: string; extensions?: { code?: string } }>;
}

/**
 * Delivery Tracker v2 GraphQL client over plain `fetch`: `track(carrierId, trackingNumber)`
 * with every event (pages read backwards until none is left). Errors leave as AppError:
 * `BAD_REQUEST` 400, `NOT_FOUND` 404, `INTERNAL`, other codes, HTTP failures, timeouts and
 * network failures 502 (the caller's call is refunded). Never logs the tracking number.
 */
export function createTracker(options: TrackerOptions): Tracker {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const pageSize = options.pageSize ?? 50;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.clientId && options.clientSecret) {
    headers.authorization = `TRACKQL-API-KEY ${options.clientId}:${options.clientSecret}`;
  }

  async function page(carrierId: string, trackingNumber: string, before: string | undefined): Promise<GraphQlAnswer> {
    let response: Response;
    try {
      response = await fetch(options.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query: TRACK_QUERY, variables: { carrierId, trackingNumber, last: pageSize, before: before ?? null } }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError';
      throw upstream(timedOut ? '택배 조회 서버가 제시간에 응답하지 않았습니다.' : '택배 조회 서버에 연결하지 못했습니다.');
    }
    let answer: GraphQlAnswer | undefined;
    try {
      answer = (await response.json()) as GraphQlAnswer;
    } catch {
      answer = undefined;
    }
    // GraphQL errors may come with HTTP 200 or with an error status: read them first.
    const code = answer?.errors?.[0]?.extensions?.code;
    if (code === 'BAD_REQUEST') {
      throw new AppError('INVALID_REQUEST', '택배사가 이 운송장 번호를 받아들이지 않았습니다. 번호를 확인하세요.', { field: 'track_id' }).en(
        'The carrier did not accept this tracking number. Check the number.',
      );
    }
    if (code === 'NOT_FOUND') throw notFound();
    if (answer?.errors?.length || !response.ok || !answer) {
      throw upstream(`택배 조회 서버 오류${code ? ` (${code})` : response.ok ? '' : ` (HTTP ${response.status})`}`);
    }
    return answer;
  }

  return {
    async track(carrierId, trackingNumber, logger = options.logger) {
      const started = performance.now();
      const pages: TrackerEvent[][] = [];
      let lastEvent: TrackerEvent | null = null;
      let before: string | undefined;
      try {
        for (let count = 0; count < MAX_PAGES; count++) {
          const track = (await page(carrierId, trackingNumber, before)).data?.track;
          if (!track) throw notFound();
          if (count === 0) lastEvent = track.lastEvent ?? null;
          const connection = track.events;
          pages.unshift((connection?.edges ?? []).flatMap((edge) => (edge?.node ? [edge.node] : [])));
          const info = connection?.pageInfo;
          if (!info?.hasPreviousPage || !info.startCursor || info.startCursor === before) break;
          before = info.startCursor;
        }
        const events = pages.flat();
        logger.debug({ tracker: carrierId, pages: pages.length, events: events.length, ms: Math.round(performance.now() - started) }, 'tracker call');
        return { lastEvent, events };
      } catch (error) {
        const status = error instanceof AppError ? error.status : 500;
        // A parcel the carrier does not know is an answer, not an outage.
        const level = status >= 500 ? 'warn' : 'info';
        logger[level]({ tracker: carrierId, status, ms: Math.round(performance.now() - started) }, 'tracker call failed');
        throw error;
      }
    },
  };
}

function upstream(detail: string): AppError {
  return new AppError('UPSTREAM_ERROR', `${detail} 잠시 후 다시 시도하세요.`).en('The parcel tracker failed. Please try again shortly.');
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', '택배사에서 이 운송장 번호의 배송 정보를 찾지 못했습니다.').en('The carrier has no record of this tracking number.');
}
