import { z } from 'zod';
import { STATUS_LABELS, type StatusId } from './delivery/statuses.js';
import { TONES } from './tone/tone.schema.js';
import { LANGUAGES } from './translate/translate.schema.js';

/**
 * The success bodies of the eight operations as zod schemas: the OpenAPI document's response
 * schemas are generated from them, and each operation's output type is checked against its
 * schema at compile time (test/output-schemas.test.ts), so clients typed from the docs get
 * what the code returns. These are the domain parts; the doors add `success`, `api`, `remaining`.
 */

const category = z.enum(['clean', 'spam', 'gambling', 'adult', 'phishing', 'malware']);

const carrier = z.object({ id: z.string(), name: z.string(), name_ko: z.string(), tel: z.string() });
const status = z.object({ id: z.enum(Object.keys(STATUS_LABELS) as [StatusId, ...StatusId[]]), text: z.string() });
const progress = z.object({ time: z.string().nullable(), status, location: z.object({ name: z.string() }), description: z.string() });

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

export const OUTPUT_SCHEMAS = {
  'chatbot-rag': z.union([
    z.object({
      answer: z.string(),
      sources: z.array(z.object({ id: z.number().int(), score: z.number(), start: z.number().int(), end: z.number().int() })),
    }),
    z.object({ message: z.string(), id: z.number().int() }),
    z.object({
      knowledge_list: z.array(z.object({ id: z.number().int(), content: z.string(), created_at: z.string() })),
      total: z.number().int(),
      offset: z.number().int(),
      limit: z.number().int(),
    }),
    z.object({ message: z.string(), deleted: z.number().int() }),
  ]),
  'tone-transformation': z.object({ transformed_text: z.string(), target_tone: z.enum(TONES) }),
  'harmful-url-detection': z.object({
    is_malicious: z.boolean(),
    category,
    reason: z.string(),
    url: z.string().describe('판정한 URL의 정규화된 형태'),
    source: z.string().describe('판정 근거: allowlist, list, rules, llm'),
  }),
  'text-generation': z.object({ content: z.string(), tokens_used: z.number().int() }),
  'ocr-idcard': z.object({
    info: z.object({
      type: z.enum(['주민등록증', '자동차운전면허증', '사업자등록증']),
      name: z.string(),
      id_number: z.string(),
      representative: z.string(),
      address: z.string(),
      issue_date: z.string(),
      biz_type: z.string(),
      biz_item: z.string(),
      license_number: z.string().optional(),
    }),
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
  }),
  translation: z.object({ translated: z.string(), source_lang: z.enum(LANGUAGES), target_lang: z.enum(LANGUAGES) }),
  'delivery-tracking': z.object({
    carrier: carrier.nullable(),
    state: status.nullable(),
    progresses: z.array(progress),
    ai_analysis: z.string().nullable(),
    recommend_message: z.string().nullable(),
  }),
  'url-shortener': z.object({
    short_url: z.string(),
    code: z.string().length(5),
    url: z.string(),
    safety_check: z
      .object({ is_malicious: z.literal(false), category: z.string(), reason: z.string(), remaining: z.number().int() })
      .optional(),
  }),
} as const;
