import { z } from 'zod';
import type { Logger } from '../../logger.js';
import type { LlmProvider } from '../../providers/llm.js';
import { documentInfoSchema } from './ocr-idcard.schema.js';
import { businessChecksumOk, findDate, residentChecksumOk } from './numbers.js';
import { checkFields, type DocumentInfo, type FieldWarning, type ParsedDocument } from './parse.js';
import { compact } from './text.js';

// Strict structured output wants every field present: `""` stands for "not on the document".
const visionSchema = documentInfoSchema.extend({
  type: z.enum([...documentInfoSchema.shape.type.options, 'none']),
  license_number: z.string(),
});

export type VisionInfo = z.output<typeof visionSchema>;

/** The seam the operation takes: a second reader that sees the image and the OCR text. */
export interface VisionReader {
  read(imageDataUrl: string, ocrText: string, logger: Logger): Promise<VisionInfo>;
}

const SYSTEM = [
  'You read Korean identity documents: 주민등록증, 자동차운전면허증 or 사업자등록증.',
  'Answer with the printed values only, never guesses. Use "" for a field the document does not have or you cannot read.',
  'type: the document type, or "none" when the image is not one of the three.',
  'name: the person; for 사업자등록증 the trade name (상호 or 법인명). representative: 대표자/성명 of a 사업자등록증.',
  'id_number: the resident number YYMMDD-NNNNNNN (also on a licence), or the business number NNN-NN-NNNNN.',
  'license_number: the licence number NN-NN-NNNNNN-NN. issue_date: issue date, or 개업연월일 for 사업자등록증, as YYYY.MM.DD.',
  'biz_type: 업태, biz_item: 종목. The OCR text below may contain errors; the image is authoritative.',
].join('\n');

/** A vision model through the shared LLM provider (`OPENAI_VISION_MODEL`). */
export function createLlmVisionReader(llm: LlmProvider): VisionReader {
  return {
    async read(imageDataUrl, ocrText, logger) {
      const { data } = await llm.structured(
        {
          model: llm.models.vision,
          schema: visionSchema,
          schemaName: 'korean_document',
          temperature: 0,
          maxTokens: 600,
          messages: [
            { role: 'system', content: SYSTEM },
            {
              role: 'user',
              content: [
                { type: 'text', text: `OCR text:\n${ocrText.slice(0, 4000)}` },
                { type: 'image', url: imageDataUrl, detail: 'high' },
              ],
            },
          ],
        },
        { logger },
      );
      return data;
    },
  };
}

const FIELDS = ['name', 'id_number', 'representative', 'address', 'issue_date', 'biz_type', 'biz_item', 'license_number'] as const;

/**
 * Combines the embedded reading with the vision model's. Agreeing fields are kept; numbers
 * that disagree are settled by their check digits; other disagreements take the model's
 * reading (it reads Korean better than Tesseract) and are listed as warnings.
 */
export function mergeReadings(ocr: ParsedDocument | undefined, vision: VisionInfo, rawText: string): ParsedDocument | undefined {
  if (vision.type === 'none') return ocr;
  const type = ocr?.info.type ?? vision.type;
  const info: DocumentInfo = ocr
    ? { ...ocr.info }
    : { type, name: '', id_number: '', representative: '', address: '', issue_date: '', biz_type: '', biz_item: '' };
  const disagreements: FieldWarning[] = [];
  const business = type === '사업자등록증';
  for (const field of FIELDS) {
    if (field === 'license_number' && type !== '자동차운전면허증') continue;
    if (business ? false : ['representative', 'biz_type', 'biz_item'].includes(field)) continue;
    const mine = info[field] ?? '';
    const theirs = field === 'issue_date' ? (findDate(vision.issue_date) ?? vision.issue_date.trim()) : vision[field].trim();
    if (!theirs || compact(theirs) === compact(mine)) continue;
    if (!mine) {
      info[field] = theirs;
      continue;
    }
    if (field === 'id_number') {
      const valid = business ? businessChecksumOk : residentChecksumOk;
      if (valid(mine) && !valid(theirs)) continue;
    }
    info[field] = theirs;
    const seenInText = compact(rawText).includes(compact(theirs));
    if (!seenInText) {
      disagreements.push({ field, code: 'ENGINES_DISAGREE', message: '문자 인식 엔진과 AI의 판독이 다릅니다. 원본과 대조하세요.' });
    }
  }
  return { info, warnings: [...checkFields(info), ...disagreements] };
}
