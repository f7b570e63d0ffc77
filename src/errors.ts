import type { z } from 'zod';
import { isDatabaseOutage, isDiskFull, isStatementTimeout } from '../db/availability.js';
import { englishIssueMessage } from './validation-messages.js';

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
  /** A team member whose role lacks the right (CONTRACT §3 Teams). */
  FORBIDDEN_ROLE: 403,
  NOT_FOUND: 404,
  /** The path exists, the method does not: the answer's `Allow` header lists those it takes. */
  METHOD_NOT_ALLOWED: 405,
  /** The request (headers or declared body) did not arrive in time; the connection is closed. */
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  /** Issue 36: a short link that expired or used up its `max_clicks`. */
  GONE: 410,
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
  /** The database's disk is full: nothing can be stored until space is freed (not charged). */
  STORAGE_FULL: 503,
  UPSTREAM_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The languages the service answers in: Korean by default, English for English-locale users. */
export type Locale = 'ko' | 'en';

/** What each code says in English when the site that raised it gave no English message. */
const ENGLISH_DEFAULTS: Record<ErrorCode, string> = {
  INVALID_REQUEST: 'The request is not valid.',
  INVALID_JSON: 'The request body is not valid JSON.',
  CONTENT_REFUSED: 'The request was refused because of its content.',
  UNAUTHORIZED: 'Authentication is required, or the key or token is invalid.',
  INVALID_CREDENTIALS: 'The email or password is wrong.',
  FORBIDDEN: 'You are not allowed to do this.',
  SUBSCRIPTION_REQUIRED: 'Subscribe to this API first.',
  FORBIDDEN_ROLE: "Your role in the team does not allow this. Ask your team's admin.",
  NOT_FOUND: 'Not found.',
  METHOD_NOT_ALLOWED: 'This path does not take this method; the Allow header lists those it takes.',
  REQUEST_TIMEOUT: 'The request did not arrive in time; the connection is closed.',
  CONFLICT: 'This conflicts with something that already exists.',
  EMAIL_TAKEN: 'This email is already registered.',
  GONE: 'This short link no longer opens.',
  PAYLOAD_TOO_LARGE: 'The request is too large.',
  HARMFUL_URL: 'The URL was judged harmful.',
  UNPROCESSABLE: 'The request could not be processed.',
  QUOTA_EXCEEDED: "This month's calls of this API are used up.",
  RATE_LIMITED: 'Too many requests. Please try again shortly.',
  TRACKER_BUSY: 'The parcel tracker is busy. Please try again shortly.',
  INTERNAL: 'Something went wrong on our side.',
  TRANSLATION_ENGINE_ERROR: 'Could not reach the translation engine.',
  UPSTREAM_ERROR: 'An outside service failed. Please try again shortly.',
  NOT_IMPLEMENTED: 'This is not available yet.',
  NOT_CONFIGURED: 'This feature is not configured on the server.',
  UNAVAILABLE: 'The service is busy. Please try again shortly.',
  UPSTREAM_TIMEOUT: 'An outside service did not answer in time. Please try again shortly.',
  DATABASE_UNAVAILABLE: 'The database is unavailable. Please try again shortly.',
  DATABASE_TIMEOUT: 'The database took too long to answer. Please try again shortly.',
  STORAGE_FULL: 'The server cannot store anything right now (its disk is full). This call was not charged; please try again later.',
};

export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  /** A charge the failure still earned (the shortener's harmful-URL verdict): the executor keeps it. */
  earnedCharge?: string;

  /** The message in English, when the raising site gave one (else a generic line per code). */
  messageEn?: string;
  /**
   * For a refusal of one input field: what is wrong, without the field's name, for doors whose
   * users never typed that field (the bots say which option to fix instead).
   */
  detail?: { ko: string; en?: string };

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

  /** Gives the English message; returns the error, for `throw new AppError(…).en('…')`. */
  en(message: string): this {
    this.messageEn = message;
    return this;
  }

  /** The message in the user's language. */
  localized(locale: Locale): string {
    return locale === 'en' ? (this.messageEn ?? ENGLISH_DEFAULTS[this.code]) : this.message;
  }

  /** Marks the call of `api` as answered despite this error, so the executor does not refund it. */
  earns(api: string): this {
    this.earnedCharge = api;
    return this;
  }
}

/** CONTRACT §4's error body, `{success:false, code, error, error_code}` plus the status's extra fields: every door renders it from here. */
export function errorBody(error: AppError, locale: Locale = 'ko'): Record<string, unknown> {
  return { success: false, code: error.status, error: error.localized(locale), error_code: error.code, ...error.extra };
}

/**
 * A 400 about one field: `'field' 필드: detail` for the HTTP door, with `extra.field` and the
 * bare detail kept for the bots.
 */
export function fieldError(field: string, detail: { ko: string; en?: string }, code: ErrorCode = 'INVALID_REQUEST'): AppError {
  const error = new AppError(code, `'${field}' 필드: ${detail.ko}`, { field });
  if (detail.en) error.en(`'${field}': ${detail.en}`);
  error.detail = detail;
  return error;
}

/** Turns a zod failure into a 400 that names the first offending field, in Korean (and English). */
export function invalidInput(error: z.ZodError): AppError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : undefined;
  const detail = {
    ko: issue?.message ?? '요청이 올바르지 않습니다.',
    en: issue ? englishIssueMessage(issue) : 'The request is not valid.',
  };
  if (field) return fieldError(field, detail);
  const whole = new AppError('INVALID_REQUEST', detail.ko).en(detail.en);
  whole.detail = detail;
  return whole;
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

/** Seconds a caller is asked to wait while the disk is full: freeing space takes an operator. */
export const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;

export function storageFull(): AppError {
  return new AppError(
    'STORAGE_FULL',
    '서버의 저장 공간이 가득 차 지금은 저장할 수 없습니다. 이 호출은 차감되지 않았습니다. 잠시 후 다시 시도하세요.',
    {},
    STORAGE_FULL_RETRY_AFTER_SECONDS,
  );
}

/** A database failure as what it means to the caller (503), or undefined for any other error. */
export function fromDatabaseError(error: unknown): AppError | undefined {
  if (isDatabaseOutage(error)) return databaseUnavailable();
  if (isDiskFull(error)) return storageFull();
  if (isStatementTimeout(error)) {
    return new AppError('DATABASE_TIMEOUT', '요청 처리 시간이 너무 오래 걸려 중단했습니다. 잠시 후 다시 시도하세요.', {}, 2);
  }
  return undefined;
}
