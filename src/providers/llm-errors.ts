import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import { AppError, type ErrorCode } from '../errors.js';
import { BodyTooLargeError } from '../net/capped-body.js';

/**
 * How an LLM failure reaches the caller: timeouts are 504, refusals 400, everything else an
 * upstream failure whose code the operation may choose (SPEC: translation answers 500).
 */
export interface FailureMapping {
  /** Code for connection failures, 5xx and other upstream faults; default UPSTREAM_ERROR (502). */
  code?: ErrorCode;
  /** Korean message for that code; default names the AI server. */
  message?: string;
}

export const NOT_CONFIGURED_MESSAGE =
  'AI 기능이 설정되지 않았습니다. 서버 환경 변수 OPENAI_API_KEY 또는 OPENAI_BASE_URL(OpenAI 호환 서버 주소)을 설정하세요.';

export function notConfigured(): AppError {
  return new AppError('NOT_CONFIGURED', NOT_CONFIGURED_MESSAGE).en(
    'AI features are not configured on this server: set OPENAI_API_KEY or OPENAI_BASE_URL (an OpenAI-compatible server).',
  );
}

export function refused(reason?: string): AppError {
  const detail = reason ? ` (${reason})` : '';
  return new AppError('CONTENT_REFUSED', `AI가 이 요청을 처리할 수 없다고 응답했습니다${detail}. 요청 내용을 바꿔 다시 시도하세요.`).en(
    `The AI declined this request${detail}. Change the request and try again.`,
  );
}

export function upstreamFailure(mapping: FailureMapping | undefined, detail: string): AppError {
  const code = mapping?.code ?? 'UPSTREAM_ERROR';
  const message = mapping?.message ?? 'AI 서버와 통신하지 못했습니다. 잠시 후 다시 시도하세요.';
  const english = mapping?.message ? undefined : `Could not reach the AI server. Please try again shortly. (${detail})`;
  const error = new AppError(code, `${message} (${detail})`);
  return english ? error.en(english) : error;
}

export function timedOut(timeoutMs: number): AppError {
  const seconds = Math.round(timeoutMs / 100) / 10;
  return new AppError('UPSTREAM_TIMEOUT', `AI 서버가 ${seconds}초 안에 응답하지 않았습니다. 잠시 후 다시 시도하세요.`).en(
    `The AI server did not answer within ${seconds} s. Please try again shortly.`,
  );
}

/** Statuses worth another attempt: the upstream is busy or broken right now. */
export function isRetryable(error: unknown): error is APIError {
  if (!(error instanceof APIError) || error instanceof APIConnectionError) return false;
  const status = error.status ?? 0;
  return status === 429 || status >= 500;
}

/** Seconds the upstream asked us to wait (Retry-After), when it said so. */
export function retryAfterMs(error: APIError): number | undefined {
  const header = error.headers?.get('retry-after-ms') ?? undefined;
  if (header && Number.isFinite(Number(header))) return Number(header);
  const seconds = error.headers?.get('retry-after');
  if (seconds && Number.isFinite(Number(seconds))) return Number(seconds) * 1000;
  return undefined;
}

const REFUSAL_CODES = new Set(['content_filter', 'content_policy_violation', 'moderation_blocked']);

/** Any failure of an SDK call as the AppError a caller understands. Unknown errors pass through. */
export function mapLlmError(error: unknown, timeoutMs: number, mapping?: FailureMapping): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof BodyTooLargeError || (error as Error | undefined)?.cause instanceof BodyTooLargeError) {
    return upstreamFailure(mapping, '응답이 너무 큼');
  }
  if (error instanceof APIConnectionTimeoutError || error instanceof APIUserAbortError) return timedOut(timeoutMs);
  if (error instanceof APIConnectionError) return upstreamFailure(mapping, '연결 실패');
  // The body could not be read whole or was not JSON (a dropped or truncated answer).
  if (error instanceof SyntaxError) return upstreamFailure(mapping, '잘린 응답');
  if (error instanceof TypeError && /terminated|body/i.test(error.message)) return upstreamFailure(mapping, '응답이 중간에 끊김');
  if (!(error instanceof APIError)) return error;
  const status = error.status ?? 0;
  if (REFUSAL_CODES.has(String(error.code ?? ''))) return refused();
  if (status === 401 || status === 403) {
    return upstreamFailure(mapping, `인증 실패 ${status}: 서버의 OPENAI_API_KEY를 확인하세요`);
  }
  if (status === 404) return upstreamFailure(mapping, '모델 또는 경로를 찾을 수 없음 404: OPENAI_MODEL과 OPENAI_BASE_URL을 확인하세요');
  return upstreamFailure(mapping, `HTTP ${status}`);
}
