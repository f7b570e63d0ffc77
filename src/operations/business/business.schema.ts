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
  b_no: z.union([
    businessNumber,
    z
      .array(businessNumber)
      .min(1, '사업자등록번호를 하나 이상 보내세요.')
      .max(NTS_BATCH_LIMIT, `사업자등록번호는 한 번에 ${NTS_BATCH_LIMIT}개까지 조회할 수 있습니다.`),
  ]),
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
