import type { OcrLine, WordConfidence } from '../../providers/ocr/tesseract-pool.js';
import { FIELD_NAMES, type DocumentInfo, type FieldWarning } from './parse.js';
import { findDate } from './numbers.js';
import { withParticle } from './text.js';

export type FieldConfidence = Partial<Record<keyof DocumentInfo, number>>;

/**
 * Below this a field is reported as uncertain: the caller should ask for a better photo.
 * Chosen on the evaluation's tuning seed (`npm run eval:ocr -- --verbose` prints what each
 * threshold flags): at 0.6 it flags 5 of its 10 misread fields and 59 of its 374 right ones
 * (before, with whole lines' scores and 0.5: 1 and 48).
 */
export const UNCERTAIN_BELOW = 0.6;
/** A value found in no line as read (a surname or region name corrected from its lookalike): inferred, so uncertain. */
const INFERRED = 0.5;

/** Fields of words, where one misread syllable is the common slip. */
const WORDED = new Set<keyof DocumentInfo>(['name', 'representative', 'address', 'biz_type', 'biz_item']);

const key = (text: string) => text.replace(/[^0-9가-힣]/g, '');

/**
 * Each field's confidence from 0 to 1: the engine's confidence in the lines the value came from
 * (found by its letters and digits; for names and addresses, in their weakest word), lowered by
 * every format or check-digit warning the parser raised for it; 0 when the field was not read.
 * A field of the document that scores under {@link UNCERTAIN_BELOW} gets a `LOW_CONFIDENCE`
 * warning, in Korean, saying to retake.
 */
export function fieldConfidence(
  info: DocumentInfo,
  lines: OcrLine[],
  warnings: FieldWarning[],
): { confidence: FieldConfidence; warnings: FieldWarning[] } {
  const confidence: FieldConfidence = {};
  const added: FieldWarning[] = [];
  const keyed: KeyedLine[] = lines.map((line) => ({
    text: line.text,
    key: key(line.text),
    confidence: line.confidence / 100,
    words: line.words ?? [],
  }));
  for (const field of fieldsOf(info)) {
    const value = info[field] ?? '';
    if (!value) {
      confidence[field] = 0;
      continue;
    }
    // 업태 and 종목 join the rows of their table ("음식점업, 도매 및 소매업"): each row is scored alone.
    const parts = field === 'biz_type' || field === 'biz_item' ? value.split(', ') : [value];
    const engine = Math.min(...parts.map((part) => partScore(field, part, keyed)));
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

/** The engine's confidence in the lines a value (or one row of it) was read from; {@link INFERRED} when none holds it as read. */
function partScore(field: keyof DocumentInfo, value: string, keyed: KeyedLine[]): number {
  const target = key(value);
  // A value may run over two lines (an address): every line holding a piece of it counts.
  const pieces =
    field === 'issue_date'
      ? keyed.filter((line) => findDate(line.text) === value)
      : keyed.filter((line) => line.key.length > 0 && (target.includes(line.key.slice(0, 6)) || line.key.includes(target.slice(0, 6))));
  // Numbers and dates are vouched for by their format and check digits (penalties below); the
  // engine's word scores on short digit groups are erratic, so their lines' scores count.
  const lineScore = (line: KeyedLine) => (WORDED.has(field) ? weakestWord(line, target) : line.confidence);
  return pieces.length > 0 ? Math.min(...pieces.map(lineScore)) : INFERRED;
}

interface KeyedLine {
  text: string;
  key: string;
  confidence: number;
  words: WordConfidence[];
}

/**
 * The engine's confidence in the weakest word of the line that went into the value (a misread
 * syllable lowers its own word's score far more than the line's average); the line's own
 * score when it has no such word.
 */
function weakestWord(line: { confidence: number; words: WordConfidence[] }, target: string): number {
  const used = line.words.filter((word) => {
    const k = key(word.text);
    return k.length > 0 && target.includes(k);
  });
  return used.length > 0 ? Math.min(...used.map((word) => word.confidence)) / 100 : line.confidence;
}

function fieldsOf(info: DocumentInfo): Array<keyof DocumentInfo> {
  if (info.type === '사업자등록증') return ['name', 'id_number', 'representative', 'address', 'issue_date', 'biz_type', 'biz_item'];
  return ['name', 'id_number', 'address', 'issue_date', ...(info.type === '자동차운전면허증' ? (['license_number'] as const) : [])];
}
