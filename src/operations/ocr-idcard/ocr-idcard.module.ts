import type { Config } from '../../config.js';
import type { LlmProvider } from '../../providers/llm.js';
import { ocrFailed, ocrTimedOut, type OcrEngine } from '../../providers/ocr/tesseract-pool.js';
import type { TextLineDetector } from '../../providers/ocr/text-lines.js';
import type { BusinessChecks } from '../business/business-checks.js';
import { withBusinessVerification } from './verify-business.js';
import { defineOperation } from '../operation-module.js';
import { createOcrIdcardOperation } from './ocr-idcard.js';
import { ocrIdcardOutputSchema, ocrIdcardSchema } from './ocr-idcard.schema.js';
import { createLlmVisionReader } from './vision.js';

/** The ID and business-registration reader: fields of an image or PDF, the ID number's tail masked on request. */
export const ocrIdcardModule = defineOperation({
  catalog: {
    id: 'ocr-idcard',
    name: '신분증/사업자등록증 인식',
    nameEn: 'ID card / business registration reader',
    path: '/api/v1/ocr/idcard',
    category: '이미지 처리',
    categoryEn: 'image processing',
    requiresSubscription: false,
    description: '주민등록증, 운전면허증, 사업자등록증 이미지나 PDF에서 항목을 읽습니다. 주민등록번호 뒷자리는 가려서 돌려줍니다.',
    descriptionEn:
      "Reads the fields of a resident card, driver's licence or business registration (image or PDF); the back of the ID number comes back masked.",
    availability: (features) => ({ available: true, engine: features.llm && features.visionModel ? 'tesseract+vision-llm' : 'tesseract' }),
  },
  input: ocrIdcardSchema,
  output: ocrIdcardOutputSchema,
  example: {
    operationId: 'readIdCard',
    summary: '주민등록증·운전면허증·사업자등록증 이미지에서 항목 추출',
    request: { base64_image: 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ…', mask: true },
    response: {
      info: {
        type: '사업자등록증',
        name: '주식회사 한빛상사',
        id_number: '123-45-67890',
        representative: '김한빛',
        address: '서울특별시 중구 세종대로 110',
        issue_date: '2019.01.05.',
        biz_type: '도소매',
        biz_item: '전자상거래',
      },
      raw_text: '사업자등록증 …',
      confidence: { name: 0.93, id_number: 0.98 },
      warnings: [],
      engine: 'tesseract',
    },
  },
  errors: () => [ocrFailed(), ocrTimedOut()],
  // A 10 MB image in Base64 is ~13.4 MB.
  bodyLimitMb: 15,
  create: (deps: { ocr: () => OcrEngine; textLines: TextLineDetector; llm: LlmProvider; config: Config; businessChecks: BusinessChecks }) =>
    withBusinessVerification(
      createOcrIdcardOperation({
        ocr: deps.ocr,
        // Fields the page reading leaves missing or unsure are looked for line by line (docs/evaluations/2026-11-27-id-reader-3.md).
        textLines: { detector: deps.textLines, use: 'fallback' },
        vision: deps.config.OPENAI_VISION_MODEL && deps.llm.configured ? createLlmVisionReader(deps.llm) : undefined,
      }),
      deps.businessChecks,
    ),
});
