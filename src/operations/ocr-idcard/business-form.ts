import { z } from 'zod';
import form from './forms/business-certificate.json' with { type: 'json' };
import { closestName, distance, syllableCost } from './regions.js';

/** What a label on the certificate starts: a field of `info`, a section, or something only read to end the field before. */
export type LabelField = 'id_number' | 'name' | 'representative' | 'issue_date' | 'address' | 'kinds' | 'biz_type' | 'biz_item' | 'other';

const formSchema = z.object({
  labels: z
    .array(
      z.object({
        field: z.enum(['id_number', 'name', 'representative', 'issue_date', 'address', 'kinds', 'biz_type', 'biz_item', 'other']),
        spellings: z.array(z.string().regex(/^[가-힣]+$/, 'a label spelling is Hangul without spaces')).min(1),
        continues: z.boolean().default(false),
      }),
    )
    .min(1),
  bizTypes: z.array(z.string().min(2)).min(1),
  itemWords: z.array(z.string().regex(/^[가-힣]{2,}$/)).min(1),
});

/** forms/business-certificate.json, checked when the module loads: a broken edit fails at start-up, not per request. */
export const BUSINESS_FORM = formSchema.parse(form);

export interface LabelSpelling {
  field: LabelField;
  spelling: string;
  continues: boolean;
}

/** Every spelling, longest first: "사업장소재지" must win over "소재지", "법인등록번호" over "등록번호". */
const SPELLINGS: LabelSpelling[] = BUSINESS_FORM.labels
  .flatMap((label) => label.spellings.map((spelling) => ({ field: label.field, spelling, continues: label.continues })))
  .sort((a, b) => b.spelling.length - a.spelling.length);

/** Hangul letters only: labels and vocabularies compare without spaces, punctuation or digits. */
const letters = (text: string) => text.replace(/[^가-힣]/g, '');
const BIZ_TYPE_LETTERS = BUSINESS_FORM.bizTypes.map((type) => ({ type, target: letters(type) }));
const BIZ_TYPE_KEYS = BIZ_TYPE_LETTERS.map((entry) => entry.target);

/**
 * Allowed misreading of a label by its length: none for two syllables (상호/성명 are too
 * short to guess), one jamo for three or four, one syllable for longer labels.
 */
const labelSlack = (length: number) => (length <= 2 ? 0 : length <= 4 ? 0.34 : 1);

export interface LabelAt {
  label: LabelSpelling;
  /** The value after the label and its colon, as read. */
  value: string;
}

/**
 * The label a line starts with, letter-spaced or not, with or without a colon, and the rest
 * of the line as its value. Brackets and bars round a label (a table's rules) are skipped.
 */
export function labelAtStart(line: string): LabelAt | undefined {
  // Symbols before the label, and a speck read as a syllable or two before a bar ("글 | 발급사유").
  const text = line.replace(/^[^가-힣]*/, '').replace(/^[가-힣]{1,2}\s*[|[\]{}]+\s*(?=[가-힣])/, '');
  // Where each Hangul letter of the line ends, so a label read from letters cuts the line right after it.
  const ends: number[] = [];
  let read = '';
  for (let i = 0; i < text.length && read.length < 16; i++) {
    const ch = text[i] as string;
    if (/[가-힣]/.test(ch)) {
      read += ch;
      ends.push(i + 1);
    } else if (!/[\s()（）[\]|.·:;：'"_-]/.test(ch)) break;
  }
  // The spelling explaining most letters wins, each misread jamo costing a letter: "대 표 자 :
  // 정 성 경" is 대표자 read exactly, not 대표자성명 a syllable off; "법인명(단제명)" is
  // 법인명단체명 a jamo off, not 법인명 with "(단제명)" left in the value.
  let best: { label: LabelSpelling; length: number; score: number } | undefined;
  for (const label of SPELLINGS) {
    const slack = labelSlack(label.spelling.length);
    const lengths = slack >= 1 ? [label.spelling.length, label.spelling.length - 1, label.spelling.length + 1] : [label.spelling.length];
    // Under a letter of slack only substitutions fit: a first letter that differs more is no match (cheap to rule out).
    if (slack < 1 && (read.length === 0 || syllableCost(read[0] as string, label.spelling[0] as string) > slack + 1e-9)) continue;
    for (const length of lengths) {
      if (length < 2 || length > read.length) continue;
      const cost = distance(read.slice(0, length), label.spelling);
      if (cost > slack + 1e-9) continue;
      // A label is followed by its colon, a space or a bracket, never by more letters of a word.
      if (slack === 0 && /^[가-힣]/.test(text.slice(ends[length - 1]))) continue;
      const score = length - 3 * cost;
      if (!best || score > best.score + 1e-9 || (Math.abs(score - best.score) < 1e-9 && length > best.length))
        best = { label, length, score };
    }
  }
  if (!best) return undefined;
  const rest = text.slice(ends[best.length - 1]);
  return { label: best.label, value: rest.replace(/^[\s)）\]|]*[:;：.]?\s*/, '').trim() };
}

/**
 * A 업태 name at the start of a row (a row of the 사업의 종류 table printed without its
 * labels: "도매 및 소매업  화장품 도매업"): the longest name the row starts with, and the
 * rest. Exact names first; a misread one only when a single name is one jamo away.
 */
export function splitTradeRow(row: string): { type: string; rest: string } | undefined {
  const ends: number[] = [];
  let read = '';
  for (let i = 0; i < row.length; i++) {
    const ch = row[i] as string;
    if (/[가-힣]/.test(ch)) {
      read += ch;
      ends.push(i + 1);
    }
  }
  let best: { type: string; length: number } | undefined;
  for (const { type, target } of BIZ_TYPE_LETTERS) {
    // The slack is under one letter, so only a prefix as long as the name can match.
    const length = target.length;
    if (length > read.length || (best && length <= best.length)) continue;
    if (syllableCost(read[0] as string, target[0] as string) > vocabularySlack(length) + 1e-9) continue;
    if (distance(read.slice(0, length), target) > vocabularySlack(length) + 1e-9) continue;
    // The name must end at a word's end: "제조" is not the start of "제조업체".
    if (/^[가-힣]/.test(row.slice(ends[length - 1]))) continue;
    best = { type, length };
  }
  if (!best) return undefined;
  const cut = ends[best.length - 1] as number;
  const printed = row.slice(0, cut).trim();
  // The printed form is kept when it reads exactly; a misread one takes the known spelling.
  const type = letters(printed) === letters(best.type) ? printed : best.type;
  return {
    type,
    rest: row
      .slice(cut)
      .replace(/^[\s,]+/, '')
      .trim(),
  };
}

/** Misread jamo a vocabulary word may carry and still be known: none under three syllables, one for three, two for longer. */
const vocabularySlack = (length: number) => (length >= 4 ? 0.67 : length === 3 ? 0.34 : 0);

/** A 업태 value read against the names: misread jamo corrected when exactly one name is that close, else as read. */
export function correctBizType(value: string): string {
  const known = closestName(letters(value), BIZ_TYPE_KEYS, [], vocabularySlack(letters(value).length));
  if (!known || known === letters(value)) return value;
  const name = BUSINESS_FORM.bizTypes.find((type) => letters(type) === known);
  return name ?? value;
}

/**
 * A 종목 value: each word close to exactly one known word is that word (one jamo off for
 * three syllables, two for longer words: "컨설령업" → "컨설팅업"); others as read.
 */
export function correctBizItem(value: string): string {
  return value
    .split(' ')
    .map((word) => {
      if (!/^[가-힣]{3,}$/.test(word)) return word;
      return closestName(word, BUSINESS_FORM.itemWords, [], vocabularySlack(word.length)) ?? word;
    })
    .join(' ');
}
