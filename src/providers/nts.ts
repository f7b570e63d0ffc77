import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { BodyTooLargeError, readCappedText } from '../net/capped-body.js';
import { upstreamOutcome, type UpstreamObserver } from './upstream-observer.js';

/** One row of the status answer (국세청 사업자등록 상태조회), as the API sends it. */
export interface NtsStatusRow {
  b_no: string;
  /** 계속사업자 / 휴업자 / 폐업자, or "" for a number the NTS does not know. */
  b_stt: string;
  /** 01 / 02 / 03, or "". */
  b_stt_cd: string;
  /** The tax type's name; for an unknown number: "국세청에 등록되지 않은 사업자등록번호입니다." */
  tax_type: string;
  tax_type_cd: string;
  /** Closing date YYYYMMDD, or "". */
  end_dt: string;
  utcc_yn?: string;
  tax_type_change_dt?: string;
  invoice_apply_dt?: string;
  rbf_tax_type?: string;
  rbf_tax_type_cd?: string;
}

/** What the validation API (진위확인) compares: the number, opening date and representative are required. */
export interface NtsBusiness {
  b_no: string;
  /** YYYYMMDD. */
  start_dt: string;
  p_nm: string;
  p_nm2?: string;
  b_nm?: string;
  corp_no?: string;
  b_sector?: string;
  b_type?: string;
  b_adr?: string;
}

export interface NtsValidateRow {
  b_no: string;
  /** 01: everything sent agrees; 02: something does not (the API does not say what). */
  valid: string;
  valid_msg?: string;
  status?: NtsStatusRow;
}

/** The National Tax Service's business APIs on the public-data portal (`/nts-businessman/v1`). */
export interface NtsClient {
  status(numbers: string[], signal?: AbortSignal): Promise<NtsStatusRow[]>;
  validate(businesses: NtsBusiness[], signal?: AbortSignal): Promise<NtsValidateRow[]>;
}

export interface NtsOptions {
  /** `DATA_GO_KR_API_URL`, e.g. https://api.odcloud.kr/api */
  baseUrl: string;
  /** `DATA_GO_KR_SERVICE_KEY`: the portal's key, encoded (with `%`) or decoded. */
  serviceKey: string;
  logger: Logger;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Awaited before every request: the shared rate limit. */
  beforeRequest?: () => Promise<void>;
  fetch?: typeof fetch;
  /** Told of every request's duration and outcome (the runtime's metrics). */
  observe?: UpstreamObserver;
}

/** The API takes at most 100 numbers a call (more is `TOO_LARGE_REQUEST`). */
export const NTS_BATCH_LIMIT = 100;
/** 100 rows of either answer are about 60 KB: anything far larger is not the NTS speaking. */
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * The NTS status and validation client over plain `fetch`. The service key goes in the query
 * string (as the portal requires) and so is never logged; neither are the numbers, names or
 * dates sent or received. Failures become 502 `UPSTREAM_ERROR` (refunded by the executor):
 * a key the portal refuses is logged for the operator at error level.
 */
export function createNtsClient(options: NtsOptions): NtsClient {
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const key = options.serviceKey.includes('%') ? options.serviceKey : encodeURIComponent(options.serviceKey);
  const base = options.baseUrl.replace(/\/+$/, '');

  async function post<T>(path: 'status' | 'validate', body: object, signal?: AbortSignal): Promise<T> {
    await options.beforeRequest?.();
    const started = performance.now();
    try {
      const rows = await request<T>(path, body, signal);
      options.observe?.('nts', path, (performance.now() - started) / 1000, 'ok');
      return rows;
    } catch (error) {
      options.observe?.('nts', path, (performance.now() - started) / 1000, upstreamOutcome(error));
      throw error;
    }
  }

  async function request<T>(path: 'status' | 'validate', body: object, signal?: AbortSignal): Promise<T> {
    const url = `${base}/nts-businessman/v1/${path}?serviceKey=${key}&returnType=JSON`;
    const timeout = AbortSignal.timeout(timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await readCappedText(response.body, MAX_ANSWER_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError) throw ntsFailure('국세청 조회 서버가 알 수 없는 응답을 보냈습니다.');
      if (timeout.aborted) throw ntsFailure('국세청 조회 서버가 제시간에 응답하지 않았습니다.', 'UPSTREAM_TIMEOUT');
      throw ntsFailure('국세청 조회 서버에 연결하지 못했습니다.');
    }
    const answer = parseJson(text) as { status_code?: string; data?: unknown; code?: number; msg?: string } | undefined;
    if (response.ok && answer?.status_code === 'OK' && Array.isArray(answer.data)) return answer.data as T;
    throw mapFailure(response.status, answer, options.logger, path);
  }

  return {
    status: (numbers, signal) => post<NtsStatusRow[]>('status', { b_no: numbers }, signal),
    validate: (businesses, signal) => post<NtsValidateRow[]>('validate', { businesses }, signal),
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The portal's gateway answers key problems as `{code, msg}` (e.g. -4 "등록되지 않은 인증키",
 * HTTP 401) and too many calls with 429; the NTS service itself as `{status_code}`
 * (`BAD_JSON_REQUEST`, `REQUEST_DATA_MALFORMED`, `TOO_LARGE_REQUEST`, `INTERNAL_ERROR`, `HTTP_ERROR`).
 */
function mapFailure(
  httpStatus: number,
  answer: { status_code?: string; code?: number; msg?: string } | undefined,
  logger: Logger,
  path: string,
): AppError {
  if (httpStatus === 401 || httpStatus === 403 || (answer?.code !== undefined && answer.code < 0)) {
    logger.error({ nts: path, httpStatus, gatewayCode: answer?.code }, 'the public-data portal refused DATA_GO_KR_SERVICE_KEY');
    return ntsFailure('국세청 조회 서버가 이 서비스의 인증키를 받아들이지 않았습니다. 서비스 관리자에게 알려 주세요.');
  }
  if (httpStatus === 429) {
    return new AppError(
      'UPSTREAM_ERROR',
      '국세청 조회 요청이 많아 잠시 뒤에 다시 시도해야 합니다. (이 호출은 차감되지 않았습니다.)',
      {},
      60,
    );
  }
  logger.warn({ nts: path, httpStatus, ntsCode: answer?.status_code }, 'NTS call failed');
  return ntsFailure(
    `국세청 조회 서버가 요청을 처리하지 못했습니다 (${answer?.status_code ?? `HTTP ${httpStatus}`}). 잠시 후 다시 시도하세요.`,
  );
}

export function ntsFailure(message: string, code: 'UPSTREAM_ERROR' | 'UPSTREAM_TIMEOUT' = 'UPSTREAM_ERROR'): AppError {
  return new AppError(code, message);
}
