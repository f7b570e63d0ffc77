import { z } from 'zod';
import { documentVerification } from '../business/business.schema.js';

/** SPEC §5: `base64_image` (a data-URI prefix is allowed) and the optional `mask`. */
export const ocrIdcardSchema = z.object({
  // The decoded limit (10 MB, 413 beyond it) is checked on the bytes; this documents its Base64 length.
  base64_image: z.string().trim().min(1, '이미지를 Base64로 보내세요.').meta({ maxLength: 14_000_000 }),
  mask: z.boolean().default(false),
  /** A 사업자등록증's number checked with the National Tax Service (needs DATA_GO_KR_SERVICE_KEY). */
  verify: z.boolean().optional(),
});

export type OcrIdcardInput = z.output<typeof ocrIdcardSchema>;

const documentField = z.enum([
  'type',
  'name',
  'id_number',
  'representative',
  'address',
  'issue_date',
  'biz_type',
  'biz_item',
  'license_number',
]);

/** The fields of a document read: the answer's `info`, and (with `none` and every field required) what the vision model is asked for. */
export const documentInfoSchema = z.object({
  type: z.enum(['주민등록증', '자동차운전면허증', '사업자등록증']),
  name: z.string(),
  id_number: z.string(),
  representative: z.string(),
  address: z.string(),
  issue_date: z.string(),
  biz_type: z.string(),
  biz_item: z.string(),
  license_number: z.string().optional(),
});

export const ocrIdcardOutputSchema = z.object({
  info: documentInfoSchema,
  raw_text: z.string(),
  confidence: z.partialRecord(documentField, z.number().min(0).max(1)).describe('항목별 인식 신뢰도 (0–1)'),
  warnings: z.array(
    z.object({
      field: documentField,
      code: z.enum(['NOT_FOUND', 'CHECKSUM_MISMATCH', 'LOW_CONFIDENCE', 'ENGINES_DISAGREE']),
      message: z.string(),
    }),
  ),
  engine: z.enum(['tesseract', 'tesseract+vision']),
  masked_image: z
    .string()
    .optional()
    .describe(
      'mask: true일 때 주민등록번호 뒷자리와 면허번호 일련번호를 검게 가린 문서 이미지 (PNG, Base64): 읽은 자리를 찾지 못하면 보내지 않습니다',
    ),
  verification: documentVerification.optional().describe('verify: true일 때 국세청 사업자 상태·진위확인 결과'),
});
