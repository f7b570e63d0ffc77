import type { ErrorCode } from '../errors.js';

/**
 * Every metric `GET /metrics` exports, declared once as data: name, type, help and label names
 * (docs/operating.md lists the same; test/metrics-definitions.test.ts pins them, so a rename is
 * a decision, never a drift). Label values are bounded: a route template, a method, a status,
 * a catalogue id, an outcome from `OPERATION_OUTCOMES`, a provider, a feed or model name from
 * the configuration. Never a key, an e-mail, a URL or a message.
 */
export type MetricType = 'counter' | 'gauge' | 'histogram';

export interface MetricDefinition {
  name: string;
  type: MetricType;
  help: string;
  labels: readonly string[];
  /** Histogram bucket upper bounds, in seconds. */
  buckets?: readonly number[];
}

/** From a cached redirect (~1 ms) to a slow LLM call: 1 ms … 30 s. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Outside calls and engines: 10 ms … 60 s. */
const SLOW_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const METRICS = {
  httpRequests: {
    name: 'aihub_http_requests_total',
    type: 'counter',
    help: 'HTTP requests answered, by method, route template and status.',
    labels: ['method', 'route', 'status'],
  },
  httpDuration: {
    name: 'aihub_http_request_duration_seconds',
    type: 'histogram',
    help: 'Time from the request to the end of its answer, by method, route template and status.',
    labels: ['method', 'route', 'status'],
    buckets: REQUEST_BUCKETS,
  },
  operationCalls: {
    name: 'aihub_operation_calls_total',
    type: 'counter',
    help: 'Operation calls by catalogue id and outcome (ok, or the reason of a refusal or failure).',
    labels: ['operation', 'outcome'],
  },
  upstreamCalls: {
    name: 'aihub_upstream_calls_total',
    type: 'counter',
    help: 'Calls to outside services (llm, tracker, nts) by provider, call kind and outcome.',
    labels: ['provider', 'call', 'outcome'],
  },
  upstreamDuration: {
    name: 'aihub_upstream_call_duration_seconds',
    type: 'histogram',
    help: 'Duration of calls to outside services, retries included, by provider and call kind.',
    labels: ['provider', 'call'],
    buckets: SLOW_BUCKETS,
  },
  feedAge: {
    name: 'aihub_url_feed_age_seconds',
    type: 'gauge',
    help: 'Seconds since each harmful-URL feed was last downloaded successfully (absent before its first download).',
    labels: ['feed'],
  },
  feedEntries: {
    name: 'aihub_url_feed_entries',
    type: 'gauge',
    help: 'Entries of each harmful-URL feed in the lists in use.',
    labels: ['feed'],
  },
  learnedModel: {
    name: 'aihub_learned_model_in_use',
    type: 'gauge',
    help: 'Learned models: 1 when trained and used, 0 when switched off (too few examples, no clean feed).',
    labels: ['model'],
  },
  learnedModelExamples: {
    name: 'aihub_learned_model_examples',
    type: 'gauge',
    help: 'Examples each learned model was trained on (0 when untrained).',
    labels: ['model'],
  },
  ocrDuration: {
    name: 'aihub_ocr_duration_seconds',
    type: 'histogram',
    help: 'Time to read one image with the OCR engine (queue included), by pool: id (ID documents), message (screenshots, scanned pages).',
    labels: ['pool'],
    buckets: SLOW_BUCKETS,
  },
  messageCheckDuration: {
    name: 'aihub_message_check_duration_seconds',
    type: 'histogram',
    help: 'Time of one message check (POST /api/v1/url/scan) by input: text, or image (screenshot or QR code).',
    labels: ['input'],
    buckets: SLOW_BUCKETS,
  },
  guardQueueDepth: {
    name: 'aihub_link_guard_queue_depth',
    type: 'gauge',
    help: 'Chat messages waiting for or under the link guard check, over all workspaces.',
    labels: [],
  },
  guardDropped: {
    name: 'aihub_link_guard_dropped_total',
    type: 'counter',
    help: 'Chat messages left unchecked because their workspace queue was full.',
    labels: [],
  },
  watchLag: {
    name: 'aihub_watch_poll_lag_seconds',
    type: 'gauge',
    help: 'How late the oldest due parcel watch was when the last poll cycle of this instance started (0: none overdue).',
    labels: [],
  },
  watchLastCycle: {
    name: 'aihub_watch_poll_last_cycle_timestamp_seconds',
    type: 'gauge',
    help: 'When the last parcel-watch poll cycle of this instance ended (Unix seconds; 0 before the first, or with WATCH_CRON=off).',
    labels: [],
  },
  memory: {
    name: 'aihub_process_memory_bytes',
    type: 'gauge',
    help: 'Process memory by kind: rss, heap_used, heap_total, external.',
    labels: ['kind'],
  },
  eventLoopDelay: {
    name: 'aihub_event_loop_delay_seconds',
    type: 'gauge',
    help: 'Event-loop delay since the previous scrape, by quantile (0.5, 0.99, and 1 for the maximum).',
    labels: ['quantile'],
  },
} as const satisfies Record<string, MetricDefinition>;

export type MetricKey = keyof typeof METRICS;

/** Why an operation call ended as it did: a fixed set, so a label never carries anything a caller sent. */
export const OPERATION_OUTCOMES = [
  'ok',
  'validation',
  'auth',
  'subscription',
  'quota',
  'rate_limited',
  'refused',
  'upstream',
  'unavailable',
  'error',
] as const;
export type OperationOutcome = (typeof OPERATION_OUTCOMES)[number];

/** Counts an operation call by catalogue id and outcome (the executor's, and a door's refusal before it). */
export type OperationObserver = (operation: string, outcome: OperationOutcome) => void;

/** Each error code's outcome label; a code missing here (or a non-AppError) is `error`. */
const OUTCOME_OF_CODE: Partial<Record<ErrorCode, OperationOutcome>> = {
  INVALID_REQUEST: 'validation',
  INVALID_JSON: 'validation',
  PAYLOAD_TOO_LARGE: 'validation',
  CONTENT_REFUSED: 'validation',
  UNPROCESSABLE: 'validation',
  UNAUTHORIZED: 'auth',
  INVALID_CREDENTIALS: 'auth',
  FORBIDDEN: 'auth',
  SUBSCRIPTION_REQUIRED: 'subscription',
  QUOTA_EXCEEDED: 'quota',
  RATE_LIMITED: 'rate_limited',
  TRACKER_BUSY: 'rate_limited',
  HARMFUL_URL: 'refused',
  NOT_FOUND: 'refused',
  CONFLICT: 'refused',
  GONE: 'refused',
  METHOD_NOT_ALLOWED: 'refused',
  REQUEST_TIMEOUT: 'refused',
  UPSTREAM_ERROR: 'upstream',
  UPSTREAM_TIMEOUT: 'upstream',
  TRANSLATION_ENGINE_ERROR: 'upstream',
  NOT_CONFIGURED: 'unavailable',
  NOT_IMPLEMENTED: 'unavailable',
  UNAVAILABLE: 'unavailable',
  DATABASE_UNAVAILABLE: 'unavailable',
  DATABASE_TIMEOUT: 'unavailable',
  STORAGE_FULL: 'unavailable',
};

export function outcomeOfCode(code: ErrorCode | undefined): OperationOutcome {
  return (code && OUTCOME_OF_CODE[code]) ?? 'error';
}

/** The route label of a request no declared route matched: one value, whatever the path was. */
export const UNMATCHED_ROUTE = 'unmatched';
