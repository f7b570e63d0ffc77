import type { LRUCache } from 'lru-cache';
import type { z } from 'zod';
import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import { withJosa } from '../../korean.js';
import type { Logger } from '../../logger.js';
import { NTS_BATCH_LIMIT, type NtsBusiness, type NtsClient, type NtsStatusRow } from '../../providers/nts.js';
import { businessNumberTail, formatBusinessNumber } from './business-number.js';
import type { businessStatusOutput, businessValidationOutput } from './business.schema.js';
import { boundedCache } from '../../bounded-cache.js';

export type BusinessStatus = z.output<typeof businessStatusOutput>;
export type BusinessState = BusinessStatus['status'];

/** The fields a validation compares, with their names in Korean. */
export const VALIDATED_FIELDS = {
  b_no: '사업자등록번호',
  start_dt: '개업일자',
  p_nm: '대표자 성명',
  p_nm2: '대표자 성명(외국인 한글 이름)',
  b_nm: '상호',
  corp_no: '법인등록번호',
  b_sector: '업태',
  b_type: '종목',
  b_adr: '사업장 주소',
} as const;
export type ValidatedField = keyof typeof VALIDATED_FIELDS;
type OptionalField = Exclude<ValidatedField, 'b_no' | 'start_dt' | 'p_nm'>;
const OPTIONAL_FIELDS: OptionalField[] = ['p_nm2', 'b_nm', 'corp_no', 'b_sector', 'b_type', 'b_adr'];

export type BusinessValidation = z.output<typeof businessValidationOutput>;

export interface BusinessChecks {
  /** False without `DATA_GO_KR_SERVICE_KEY`: every check then answers 503. */
  readonly available: boolean;
  status(numbers: string[], logger: Logger, signal?: AbortSignal): Promise<BusinessStatus[]>;
  validate(business: NtsBusiness, logger: Logger, signal?: AbortSignal): Promise<BusinessValidation>;
}

export interface BusinessChecksOptions {
  client?: NtsClient;
  clock: Clock;
  /** How long an answer is reused (default a day). */
  cacheTtlMs?: number;
}

const DAY_MS = 86_400_000;
const STATES: Record<string, { state: BusinessState; text: string }> = {
  '01': { state: 'active', text: '계속사업자' },
  '02': { state: 'suspended', text: '휴업자' },
  '03': { state: 'closed', text: '폐업자' },
};

export function notConfigured(): AppError {
  return new AppError(
    'NOT_CONFIGURED',
    '국세청 사업자 조회가 이 서버에 설정되지 않았습니다. 서버 환경 변수 DATA_GO_KR_SERVICE_KEY(공공데이터포털 인증키)를 설정하세요.',
  ).en('Business checks are not configured on this server: set DATA_GO_KR_SERVICE_KEY (the public-data portal key).');
}

/**
 * Business status and validation through the NTS, answers kept for a day per number (status)
 * and per set of fields (validation), in memory only. Logs carry a number's last three digits.
 */
export function createBusinessChecks(options: BusinessChecksOptions): BusinessChecks {
  const ttl = options.cacheTtlMs ?? DAY_MS;
  const statuses = new DayCache<BusinessStatus>(20_000, ttl, options.clock);
  const validations = new DayCache<BusinessValidation>(5_000, ttl, options.clock);

  function client(): NtsClient {
    if (!options.client) throw notConfigured();
    return options.client;
  }

  async function status(numbers: string[], logger: Logger, signal?: AbortSignal): Promise<BusinessStatus[]> {
    const missing = [...new Set(numbers)].filter((digits) => !statuses.has(digits));
    for (let start = 0; start < missing.length; start += NTS_BATCH_LIMIT) {
      const batch = missing.slice(start, start + NTS_BATCH_LIMIT);
      const rows = await client().status(batch, signal);
      for (const digits of batch) {
        statuses.set(
          digits,
          toStatus(
            digits,
            rows.find((row) => row.b_no === digits),
          ),
        );
      }
      logger.info({ nts: 'status', numbers: batch.map(businessNumberTail) }, 'business status checked');
    }
    return numbers.map((digits) => statuses.get(digits) ?? toStatus(digits, undefined));
  }

  async function validate(business: NtsBusiness, logger: Logger, signal?: AbortSignal): Promise<BusinessValidation> {
    const cacheKey = JSON.stringify(business);
    const cached = validations.get(cacheKey);
    if (cached) return cached;
    const given = OPTIONAL_FIELDS.filter((field) => business[field]);
    const required: NtsBusiness = { b_no: business.b_no, start_dt: business.start_dt, p_nm: business.p_nm };
    // One call answers every question at once: the whole set, the required three alone, and the
    // required three with each optional field, since the API says only "does not agree".
    const variants =
      given.length === 0 ? [business] : [business, required, ...given.map((field) => ({ ...required, [field]: business[field] }))];
    // The API answers in the order asked: rows cannot be told apart by number, all share it.
    const rows = await client().validate(variants, signal);
    const known = rows[0]?.status;
    if (known) statuses.set(business.b_no, toStatus(business.b_no, known));
    const agrees = (index: number) => rows[index]?.valid === '01';
    const [current] = await status([business.b_no], logger, signal);
    const result = judge(
      business.b_no,
      current!,
      agrees(0),
      given.length === 0 ? agrees(0) : agrees(1),
      given.filter((_, i) => !agrees(i + 2)),
    );
    logger.info({ nts: 'validate', number: businessNumberTail(business.b_no), valid: result.valid }, 'business validated');
    validations.set(cacheKey, result);
    return result;
  }

  return { available: options.client !== undefined, status, validate };
}

/** Answers kept until `ttlMs` after they were stored, on the injected clock; the least recently used go first. */
class DayCache<Value> {
  private readonly entries: LRUCache<string, { value: Value; expiresAt: number }>;

  constructor(
    max: number,
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {
    this.entries = boundedCache(max);
  }

  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.clock().getTime()) return undefined;
    return entry.value;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: Value): void {
    this.entries.set(key, { value, expiresAt: this.clock().getTime() + this.ttlMs });
  }
}

function judge(
  digits: string,
  current: BusinessStatus,
  allAgree: boolean,
  requiredAgree: boolean,
  optionalMismatches: OptionalField[],
): BusinessValidation {
  const base = { b_no: formatBusinessNumber(digits), status: current };
  if (allAgree)
    return { ...base, valid: true, mismatched_fields: [], message: '사업자등록번호, 개업일자, 대표자 성명이 국세청 정보와 일치합니다.' };
  if (current.status === 'unknown') {
    return { ...base, valid: false, mismatched_fields: ['b_no'], message: '국세청에 등록되지 않은 사업자등록번호입니다.' };
  }
  if (!requiredAgree) {
    return {
      ...base,
      valid: false,
      mismatched_fields: ['start_dt', 'p_nm'],
      message: '등록된 사업자등록번호이지만 개업일자 또는 대표자 성명(둘 중 하나 이상)이 국세청 정보와 다릅니다.',
    };
  }
  const names = optionalMismatches.map((field) => VALIDATED_FIELDS[field]).join(', ');
  return {
    ...base,
    valid: false,
    mismatched_fields: optionalMismatches,
    message: `사업자등록번호, 개업일자, 대표자 성명은 일치하지만 ${withJosa(names || '추가로 보낸 정보', '이/가')} 국세청 정보와 다릅니다.`,
  };
}

function toStatus(digits: string, row: NtsStatusRow | undefined): BusinessStatus {
  const known = row ? STATES[row.b_stt_cd] : undefined;
  if (!row || !known) {
    return {
      b_no: formatBusinessNumber(digits),
      status: 'unknown',
      status_text: row?.tax_type || '국세청에서 이 사업자등록번호의 상태를 확인하지 못했습니다.',
      tax_type: null,
      tax_type_code: null,
      closed_at: null,
    };
  }
  return {
    b_no: formatBusinessNumber(digits),
    status: known.state,
    status_text: row.b_stt || known.text,
    tax_type: row.tax_type || null,
    tax_type_code: row.tax_type_cd || null,
    closed_at: /^\d{8}$/.test(row.end_dt) ? `${row.end_dt.slice(0, 4)}-${row.end_dt.slice(4, 6)}-${row.end_dt.slice(6)}` : null,
  };
}
