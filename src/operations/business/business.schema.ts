import { z } from 'zod';
import { NTS_BATCH_LIMIT } from '../../providers/nts.js';
import { businessNumberProblem, compactBusinessNumber } from './business-number.js';

/** One 사업자등록번호 as a caller writes it (`123-45-67890`), checked and made ten digits. */
export const businessNumber = z
  .string()
  .trim()
  .max(32, '사업자등록번호가 너무 깁니다.')
  .transform((text, ctx) => {
    const digits = compactBusinessNumber(text);
    const problem = businessNumberProblem(digits);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
    return digits;
  });

/** `2019.01.05.`, `2019-01-05`, `2019년 01월 05일` or `20190105` → `20190105` (what the NTS compares). */
export const openingDate = z
  .string()
  .trim()
  .max(20, '개업일자가 너무 깁니다.')
  .transform((text, ctx) => {
    const match = /^(\d{4})\D{0,3}(\d{1,2})\D{0,3}(\d{1,2})\D{0,2}$/.exec(text);
    const [year, month, day] = match ? [match[1]!, match[2]!.padStart(2, '0'), match[3]!.padStart(2, '0')] : [];
    const date = year ? new Date(`${year}-${month}-${day}T00:00:00Z`) : undefined;
    if (!date || Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(day)) {
      ctx.addIssue({ code: 'custom', message: '개업일자는 YYYYMMDD 또는 YYYY-MM-DD 형식의 날짜여야 합니다 (예: 2019-01-05).' });
      return '';
    }
    return `${year}${month}${day}`;
  });

const optionalField = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `${max}자 이하여야 합니다.`)
    .optional()
    .transform((value) => (value === '' ? undefined : value));

/** `POST /api/v1/business/status`: one number or up to 100. */
export const businessStatusSchema = z.object({
  // One number is taken as a list of one, so both forms report the same, specific problem.
  b_no: z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z
      .array(businessNumber)
      .min(1, '사업자등록번호를 하나 이상 보내세요.')
      .max(NTS_BATCH_LIMIT, `사업자등록번호는 한 번에 ${NTS_BATCH_LIMIT}개까지 조회할 수 있습니다.`)
      .describe('사업자등록번호 하나(문자열) 또는 100개까지의 배열'),
  ),
});

/** `POST /api/v1/business/validate`: number, opening date and representative required; the rest compared when sent. */
export const businessValidateSchema = z.object({
  b_no: businessNumber,
  start_dt: openingDate,
  p_nm: z.string().trim().min(1, '대표자 성명(p_nm)을 입력하세요.').max(60, '60자 이하여야 합니다.'),
  p_nm2: optionalField(60),
  b_nm: optionalField(200),
  corp_no: optionalField(20)
    .refine((value) => value === undefined || /^\d{6}-?\d{7}$/.test(value), '법인등록번호는 숫자 13자리여야 합니다.')
    .transform((value) => value?.replace('-', '')),
  b_sector: optionalField(100),
  b_type: optionalField(100),
  b_adr: optionalField(300),
});

export type BusinessValidateInput = z.output<typeof businessValidateSchema>;

/** One business's status, as `/business/status` and the reader's `verification` give it. */
export const businessStatusOutput = z.object({
  b_no: z.string().describe('사업자등록번호 (123-45-67890)'),
  status: z
    .enum(['active', 'suspended', 'closed', 'unknown'])
    .describe('active 계속사업자, suspended 휴업자, closed 폐업자, unknown 미등록·확인 불가'),
  status_text: z.string().describe('국세청이 알려 준 상태 (계속사업자 …) 또는 확인하지 못한 까닭'),
  tax_type: z.string().nullable().describe('과세 유형 (부가가치세 일반과세자 …)'),
  tax_type_code: z.string().nullable(),
  closed_at: z.string().nullable().describe('폐업일 (YYYY-MM-DD)'),
});

export const businessStatusAnswer = z.object({ businesses: z.array(businessStatusOutput) });

export const validatedFieldSchema = z.enum(['b_no', 'start_dt', 'p_nm', 'p_nm2', 'b_nm', 'corp_no', 'b_sector', 'b_type', 'b_adr']);

export const businessValidationOutput = z.object({
  b_no: z.string(),
  valid: z.boolean().describe('보낸 정보가 모두 국세청 정보와 일치하면 true'),
  mismatched_fields: z
    .array(validatedFieldSchema)
    .describe('일치하지 않는 필드 (개업일자와 대표자 성명은 둘 중 하나 이상이라는 뜻으로 함께 나옵니다)'),
  message: z.string(),
  status: businessStatusOutput,
});

/**
 * The reader's `verify: true` on a 사업자등록증: `"unavailable"` without a service key; not
 * checked (with why: not a certificate, a number read wrong, the NTS failing); or the status and,
 * when the representative and opening date were read, the validation of what was read.
 */
export const documentVerification = z.union([
  z.literal('unavailable'),
  z.object({ checked: z.literal(false), reason: z.string() }),
  z.object({ checked: z.literal(true), status: businessStatusOutput, validation: businessValidationOutput.nullable() }),
]);

export type DocumentVerification = z.output<typeof documentVerification>;
