import type { z } from 'zod';
import { isDatabaseOutage, isStatementTimeout } from '../db/availability.js';

/**
 * The one error type of the service. Each stable `error_code` has one HTTP status, so the
 * doors (HTTP, Slack, Discord) render the same failure the same way.
 */
export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  INVALID_JSON: 400,
  /** The request's content was refused by moderation or the model (SPEC §4 "unacceptable"). */
  CONTENT_REFUSED: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  SUBSCRIPTION_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  PAYLOAD_TOO_LARGE: 413,
  HARMFUL_URL: 422,
  UNPROCESSABLE: 422,
  QUOTA_EXCEEDED: 429,
  RATE_LIMITED: 429,
  /** SPEC §7: waited too long for the parcel tracker's rate-limit lock (not charged). */
  TRACKER_BUSY: 429,
  INTERNAL: 500,
  /** SPEC §6: the translation engine could not be reached. */
  TRANSLATION_ENGINE_ERROR: 500,
  UPSTREAM_ERROR: 502,
  NOT_IMPLEMENTED: 503,
  NOT_CONFIGURED: 503,
  UNAVAILABLE: 503,
  /** The database cannot be reached (restart, failover): retry after `Retry-After`. */
  DATABASE_UNAVAILABLE: 503,
  /** A query ran past DB_STATEMENT_TIMEOUT_MS and was cancelled. */
  DATABASE_TIMEOUT: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  /** A charge the failure still earned (the shortener's harmful-URL verdict): the executor keeps it. */
  earnedCharge?: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra body fields the SPEC gives for a status (e.g. the shortener's 422). */
    readonly extra: Record<string, unknown> = {},
    /** Seconds after which a retry may succeed (429, 503). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  /** Marks the call of `api` as answered despite this error, so the executor does not refund it. */
  earns(api: string): this {
    this.earnedCharge = api;
    return this;
  }
}

/** CONTRACT §4's error body, `{success:false, code, error, error_code}` plus the status's extra fields: every door renders it from here. */
export function errorBody(error: AppError): Record<string, unknown> {
  return { success: false, code: error.status, error: error.message, error_code: error.code, ...error.extra };
}

/** Turns a zod failure into a 400 that names the first offending field, in Korean. */
export function invalidInput(error: z.ZodError): AppError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  const detail = issue?.message ?? '요청이 올바르지 않습니다.';
  const message = field ? `'${field}' 필드: ${detail}` : detail;
  return new AppError('INVALID_REQUEST', message, field ? { field } : {});
}

/** Seconds a caller is asked to wait while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export function databaseUnavailable(): AppError {
  return new AppError(
    'DATABASE_UNAVAILABLE',
    '데이터베이스에 일시적으로 연결할 수 없습니다. 잠시 후 다시 시도하세요.',
    {},
    DATABASE_RETRY_AFTER_SECONDS,
  );
}

/** A database failure as what it means to the caller (503), or undefined for any other error. */
export function fromDatabaseError(error: unknown): AppError | undefined {
  if (isDatabaseOutage(error)) return databaseUnavailable();
  if (isStatementTimeout(error)) {
    return new AppError('DATABASE_TIMEOUT', '요청 처리 시간이 너무 오래 걸려 중단했습니다. 잠시 후 다시 시도하세요.', {}, 2);
  }
  return undefined;
}
