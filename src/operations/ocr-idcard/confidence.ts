import type { OcrLine } from '../../providers/ocr/tesseract-pool.js';
import { FIELD_NAMES, type DocumentInfo, type FieldWarning } from './parse.js';
import { findDate } from './numbers.js';
import { withParticle } from './text.js';

export type FieldConfidence = Partial<Record<keyof DocumentInfo, number>>;

/** Below this a field is reported as uncertain: the caller should ask for a better photo. */
export const UNCERTAIN_BELOW = 0.5;

const key = (text: string) => text.replace(/[^0-9가-힣]/g, '');

/**
 * Each field's confidence from 0 to 1: the engine's confidence in the lines the value came
 * from (found by its letters and digits), lowered by every format or check-digit warning the
 * parser raised for it; 0 when the field was not read. A field of the document that scores
 * under {@link UNCERTAIN_BELOW} gets a `LOW_CONFIDENCE` warning, in Korean, saying to retake.
 */
export function fieldConfidence(
  info: DocumentInfo,
  lines: OcrLine[],
  warnings: FieldWarning[],
): { confidence: FieldConfidence; warnings: FieldWarning[] } {
  const confidence: FieldConfidence = {};
  const added: FieldWarning[] = [];
  const keyed = lines.map((line) => ({ text: line.text, key: key(line.text), confidence: line.confidence / 100 }));
  for (const field of fieldsOf(info)) {
    const value = info[field] ?? '';
    if (!value) {
      confidence[field] = 0;
      continue;
    }
    const target = key(value);
    // A value may run over two lines (an address): every line holding a piece of it counts.
    const pieces =
      field === 'issue_date'
        ? keyed.filter((line) => findDate(line.text) === value)
        : keyed.filter((line) => line.key.length > 0 && (target.includes(line.key.slice(0, 6)) || line.key.includes(target.slice(0, 6))));
    const engine = pieces.length > 0 ? Math.min(...pieces.map((line) => line.confidence)) : 0.5;
    const penalties = warnings.filter((warning) => warning.field === field).length;
    const score = Math.max(0, Math.min(1, engine * 0.5 ** penalties));
    confidence[field] = Math.round(score * 100) / 100;
    if (score < UNCERTAIN_BELOW && penalties === 0) {
      added.push({
        field,
        code: 'LOW_CONFIDENCE',
        message: `${withParticle(FIELD_NAMES[field] ?? field, '을', '를')} 확실하게 읽지 못했습니다. 빛 반사나 흔들림 없이 다시 촬영해 보내 주세요.`,
      });
    }
  }
  return { confidence, warnings: [...warnings, ...added] };
}

function fieldsOf(info: DocumentInfo): Array<keyof DocumentInfo> {
  if (info.type === '사업자등록증') return ['name', 'id_number', 'representative', 'address', 'issue_date', 'biz_type', 'biz_item'];
  return ['name', 'id_number', 'address', 'issue_date', ...(info.type === '자동차운전면허증' ? (['license_number'] as const) : [])];
}
