import type { Config } from './config.js';
import type { CatalogFeatures } from './operations/operation-module.js';

/** The hosted Delivery Tracker: every lookup needs credentials there. */
const HOSTED_TRACKER = 'apis.tracker.delivery';

export interface TrackerStatus {
  host: string;
  hosted: boolean;
  credentials: boolean;
  /** False when every lookup would fail: hosted without credentials. */
  usable: boolean;
}

export function trackerStatus(config: Config): TrackerStatus {
  const host = new URL(config.DELIVERY_TRACKER_URL).host;
  const hosted = host === HOSTED_TRACKER;
  const credentials = Boolean(config.DELIVERY_TRACKER_CLIENT_ID && config.DELIVERY_TRACKER_CLIENT_SECRET);
  return { host, hosted, credentials, usable: !hosted || credentials };
}

export interface LlmStatus {
  on: boolean;
  host: string;
  model: string;
  vision: string | null;
  embedding: string | null;
}

export function llmStatus(config: Config): LlmStatus {
  return {
    on: Boolean(config.OPENAI_API_KEY || config.OPENAI_BASE_URL),
    host: new URL(config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1').host,
    model: config.OPENAI_MODEL,
    vision: config.OPENAI_VISION_MODEL ?? null,
    embedding: config.OPENAI_EMBEDDING_MODEL ?? null,
  };
}

/** What the catalogue's availability is decided from on this server. */
export function catalogFeatures(config: Config): CatalogFeatures {
  return { llm: llmStatus(config).on, visionModel: Boolean(config.OPENAI_VISION_MODEL), tracker: trackerStatus(config).usable };
}

/** The database the service keeps its data in, without a password. */
export function databaseWhere(config: Config): string {
  if (!config.DATABASE_URL) return `PGlite (embedded) in ${config.DATA_DIR}`;
  const url = new URL(config.DATABASE_URL);
  return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

/** Where invitation mail goes out, without its credentials. */
export function smtpWhere(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol.replace(':', '')}://${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}`;
}

export interface StatusLine {
  level: 'info' | 'warn';
  part: 'llm' | 'tracker' | 'feeds' | 'database' | 'mail' | 'metrics';
  message: string;
}

/**
 * What the start-up log says is on, one line per part (the chat doors' lines come from
 * bots/door-summary.ts): the operator reads here what the portal shows customers as unavailable.
 */
export function startupStatusLines(config: Config, feedCount: number): StatusLine[] {
  const llm = llmStatus(config);
  const tracker = trackerStatus(config);
  const extras = [llm.vision && `vision ${llm.vision}`, llm.embedding && `embeddings ${llm.embedding}`].filter(Boolean).join(', ');
  const refresh = config.URL_LIST_REFRESH === 'off' ? 'refresh off (URL_LIST_REFRESH=off)' : `refresh '${config.URL_LIST_REFRESH}'`;
  return [
    llm.on
      ? { level: 'info', part: 'llm', message: `LLM on: ${llm.host}, model ${llm.model}${extras ? ` (${extras})` : ''}` }
      : {
          level: 'info',
          part: 'llm',
          message: 'LLM off: set OPENAI_API_KEY or OPENAI_BASE_URL; tone, generate and translate are shown as unavailable',
        },
    !tracker.hosted
      ? { level: 'info', part: 'tracker', message: `tracker: self-hosted at ${tracker.host}` }
      : tracker.credentials
        ? { level: 'info', part: 'tracker', message: `tracker: hosted (${tracker.host}) with credentials` }
        : {
            level: 'warn',
            part: 'tracker',
            message: `tracker: hosted (${tracker.host}) without credentials: every lookup fails, so delivery-tracking is shown as unavailable; set DELIVERY_TRACKER_CLIENT_ID and DELIVERY_TRACKER_CLIENT_SECRET, or DELIVERY_TRACKER_URL of a self-hosted tracker`,
          },
    {
      level: 'info',
      part: 'feeds',
      message: `harmful-URL feeds: ${feedCount} configured, ${refresh}${config.DATA_GO_KR_SERVICE_KEY ? '' : '; odcloud feeds off (no DATA_GO_KR_SERVICE_KEY)'}`,
    },
    { level: 'info', part: 'database', message: `database: ${databaseWhere(config)}` },
    config.SMTP_URL
      ? { level: 'info', part: 'mail', message: `invitation mail on: ${smtpWhere(config.SMTP_URL)}, from ${config.SMTP_FROM}` }
      : { level: 'info', part: 'mail', message: 'invitation mail off (no SMTP_URL): the portal shows the invitation link to pass on' },
    { level: 'info', part: 'metrics', message: metricsLine(config) },
  ];
}

/** Where `GET /metrics` is served (docs/operating.md); never the token itself. */
function metricsLine(config: Config): string {
  const token = config.METRICS_TOKEN ? ' with the bearer token METRICS_TOKEN' : ' without a token: keep that port private';
  if (config.METRICS_PORT !== undefined) return `metrics: GET /metrics on METRICS_PORT ${config.METRICS_PORT} (${config.HOST})${token}`;
  if (config.METRICS_TOKEN) return 'metrics: GET /metrics on the main port, with the bearer token METRICS_TOKEN';
  return 'metrics off: set METRICS_TOKEN (bearer token on the main port) or METRICS_PORT (a private port) to serve GET /metrics';
}

/** Whether each chat door has what it needs to answer (bots/door-summary.ts says how and what is missing). */
export function chatStatus(config: Config): { slack: boolean; discord: boolean } {
  return {
    slack: Boolean(config.SLACK_BOT_TOKEN && (config.SLACK_SIGNING_SECRET || config.SLACK_APP_TOKEN)),
    discord: Boolean((config.DISCORD_APPLICATION_ID && config.DISCORD_PUBLIC_KEY) || (config.DISCORD_GATEWAY && config.DISCORD_BOT_TOKEN)),
  };
}

/** Whether an account is one of ADMIN_EMAILS (sees operator detail in the portal). */
export function isOperator(config: Config, email: string): boolean {
  return config.ADMIN_EMAILS.includes(email.toLowerCase());
}
