import { cleanAddress } from './address.js';
import { correctBizItem, correctBizType, labelAtStart, splitTradeRow, type LabelField } from './business-form.js';
import { businessChecksumOk, findBusinessNumber, findDate } from './numbers.js';
import type { DocumentInfo } from './parse.js';
import { compact, respaceHangul, trimValue } from './text.js';

export type BusinessFields = Omit<DocumentInfo, 'type' | 'license_number'>;

/** 업태 and 종목 inside a row, letter-spaced, misread (태→대/테/타, 종→총/중) or boxed ("[ 업 타 ]"). */
const BIZ_TYPE_LABEL = /[[(（]?\s*(?<![가-힣])업\s*[태대테타](?![가-힣])\s*[\])）]?\s*[:;：]?/;
const BIZ_ITEM_LABEL = /[[(（]?\s*(?<![가-힣])[종총중좋]\s*목(?![가-힣])\s*[\])）]?\s*[:;：]?/;
/** Lines that end every field: the title, the kind of taxpayer, the issuer, a date standing alone. */
const FORM_FURNITURE = /사업자등록증|세무서장|과세자\)?$|사업자\)$/;
/** How many printed lines a field may run over after its label's line. */
const MAX_CONTINUATIONS: Partial<Record<LabelField, number>> = { name: 1, address: 2, kinds: 8, biz_type: 8, biz_item: 8, other: 2 };

interface Segment {
  field: LabelField;
  continues: boolean;
  /** The value on the label's line, then the lines it runs over onto. */
  rows: string[];
  lines: number[];
}

/**
 * Reads a 사업자등록증 by its labels wherever they stand: 등록번호, 상호 or 법인명(단체명),
 * 대표자 or 성명, 개업연월일, 사업장 소재지 and 사업의 종류 (업태 … 종목 …), in any column,
 * letter-spaced or not, with or without a colon, a value running over the lines below its
 * label until the next label. Labels only read to end a field (생년월일, 본점소재지,
 * 공동사업자 …) keep their values out of the fields. `issue_date` is the opening date.
 */
export function parseBusiness(lines: string[]): BusinessFields {
  const segments = segmentsOf(lines);
  const first = (field: LabelField) => segments.find((segment) => segment.field === field);
  const name = first('name');
  const representative = first('representative');
  const address = first('address');
  const opened = first('issue_date');
  const trades = readTrades(segments.filter((s) => s.field === 'kinds' || s.field === 'biz_type' || s.field === 'biz_item'));
  const otherLines = new Set(segments.filter((s) => s.field === 'other').flatMap((s) => s.lines));
  return {
    // A trade name does not end in a bare one- or two-digit number: that is a speck of the scan.
    name: name ? withoutTrailingSpecks(respaceHangul(name.rows.join(' '))).replace(/\s\d{1,2}$/, '') : '',
    id_number: businessNumber(lines),
    representative: representative ? personName(representative.rows.find(Boolean) ?? '') : '',
    address: address ? cleanAddress(address.rows.filter(Boolean)) : '',
    // The opening date by its label; failing that the first date not printed under another label (생년월일).
    issue_date:
      (opened && findDate(opened.rows.join(' '))) ||
      (lines.map((line, i) => (otherLines.has(i) ? undefined : findDate(line))).find(Boolean) ?? ''),
    biz_type: trades.types.join(', '),
    biz_item: trades.items.join(', '),
  };
}

/** The lines cut into labelled fields; a line without a label continues the field before it. */
function segmentsOf(lines: string[]): Segment[] {
  const segments: Segment[] = [];
  let current: Segment | undefined;
  lines.forEach((line, index) => {
    const at = labelAtStart(line);
    if (at) {
      current = { field: at.label.field, continues: at.label.continues, rows: [at.value], lines: [index] };
      segments.push(current);
      return;
    }
    const flat = compact(line);
    // A row starting with 업태 or 종목 misread ("업대", "총목"), or the 종목 column cut off by a
    // wide gap: read as a row of the 사업의 종류 table, labels and all.
    if (/^[[(（]?(?:업[태대테타]|[종총중좋]목)/.test(flat) && (BIZ_TYPE_LABEL.test(line) || BIZ_ITEM_LABEL.test(line))) {
      current = { field: 'kinds', continues: true, rows: [line], lines: [index] };
      segments.push(current);
      return;
    }
    // A line of specks (a table rule, the scan's dirt) is passed over: it neither ends a field nor joins it.
    if (!/[가-힣\d]/.test(line)) return;
    const ends = FORM_FURNITURE.test(flat) || (findDate(line) !== undefined && flat.length <= 14);
    // A label printed apart from its value (another column, cut off by a wide gap) has it on the next line.
    const valueBelow = current !== undefined && current.rows.length === 1 && current.rows[0] === '';
    const room =
      valueBelow || (current !== undefined && current.continues && current.rows.length <= (MAX_CONTINUATIONS[current.field] ?? 0));
    if (!current || ends || !room) {
      current = undefined;
      return;
    }
    current.rows.push(line);
    current.lines.push(index);
  });
  return segments;
}

/**
 * 업태 and 종목 from the 사업의 종류 rows: "업태 X 종목 Y" on one row, or the two column heads
 * above rows "X Y" (split where a known 업태 name ends), or each on its own row. Every row's
 * text lands in one of the two: what no 업태 name explains is 종목.
 */
function readTrades(segments: Segment[]): { types: string[]; items: string[] } {
  const types: string[] = [];
  const items: string[] = [];
  // No 업태 or 종목 is one syllable: a lone one is a speck of the table read as a letter.
  const cleaned = (text: string) => {
    const value = withoutTrailingSpecks(respaceHangul(text.replace(/^[\s,]+|[\s,]+$/g, '')));
    return value.replace(/[^가-힣]/g, '').length >= 2 ? value : '';
  };
  const addType = (text: string) => {
    const value = cleaned(text);
    if (value) types.push(correctBizType(value));
  };
  const addItem = (text: string) => {
    const value = cleaned(text);
    if (value) items.push(correctBizItem(value));
  };
  for (const segment of segments) {
    segment.rows.forEach((row, i) => {
      const labelled = i === 0 && segment.field !== 'kinds';
      if (labelled && segment.field === 'biz_type') return splitLabelledRow(`업태 ${row}`, addType, addItem);
      if (labelled && segment.field === 'biz_item') return addItem(row);
      if (BIZ_TYPE_LABEL.test(row) || BIZ_ITEM_LABEL.test(row)) return splitLabelledRow(row, addType, addItem);
      const split = splitTradeRow(row);
      if (!split) return addItem(row);
      addType(split.type);
      addItem(split.rest);
    });
  }
  return { types, items };
}

/** "업태 X 종목 Y": X is the 업태, Y the 종목; a row of the heads alone adds nothing. */
function splitLabelledRow(row: string, addType: (text: string) => void, addItem: (text: string) => void): void {
  const type = BIZ_TYPE_LABEL.exec(row);
  const afterType = type ? row.slice(type.index + type[0].length) : row;
  const item = BIZ_ITEM_LABEL.exec(afterType);
  const typeText = item ? afterType.slice(0, item.index) : afterType;
  const itemText = item ? afterType.slice(item.index + item[0].length) : '';
  // Heads above the rows: a 업태 value that is itself a whole row "X Y" is split by the names.
  const split = item ? undefined : splitTradeRow(typeText);
  if (split && split.rest) {
    addType(split.type);
    addItem(split.rest);
    return;
  }
  addType(typeText);
  addItem(itemText);
}

/**
 * A value without the specks a scan leaves after it: from the last token of symbols only
 * ("|", "`'", ".") when at most two letters follow it ("플라스틱 제품 제조 . 를"), and a lone
 * trailing letter or digit.
 */
function withoutTrailingSpecks(value: string): string {
  const tokens = trimValue(value).split(' ');
  const junk = tokens.findLastIndex((token) => !/[0-9A-Za-z가-힣]/.test(token));
  const after = tokens.slice(junk + 1).join('');
  if (junk > 0 && after.replace(/[^0-9A-Za-z가-힣]/g, '').length <= 2) return trimValue(tokens.slice(0, junk).join(' '));
  return tokens.join(' ');
}

/** The 등록번호: the labelled line's number first, then any business-shaped number whose check digit holds. */
function businessNumber(lines: string[]): string {
  const numbers: string[] = [];
  for (const line of lines) {
    const flat = compact(line);
    const labelled = /등록번호/.test(flat) && !/법인등록번호/.test(flat);
    if (labelled) {
      const number = findBusinessNumber(line);
      if (number) numbers.unshift(number);
    } else if (/\d{3}\D?\d{2}\D?\d{5}/.test(flat) && !/\d{6}-?\d{7}/.test(flat)) {
      const number = findBusinessNumber(line);
      if (number) numbers.push(number);
    }
  }
  return numbers.find(businessChecksumOk) ?? numbers[0] ?? '';
}

/** The representative: Hangul only, OCR spacing removed (a name has no spaces); "홍길동 외 1명" is 홍길동. */
function personName(value: string): string {
  // "외 1명" (a partner's count), its digit often lost or misread ("외 ] 명", "의 명"), when a name is left before it.
  const partnerless = value.replace(/\s+[외의]\s*[^가-힣\s]*\s*[명인]?\s*$/, '');
  const hangul = respaceHangul(partnerless.replace(/[^가-힣]/g, '').length >= 2 ? partnerless : value)
    .split(' ')
    .filter((token) => /^[가-힣]+$/.test(token));
  const joined = hangul.join('');
  return joined.length <= 5 ? joined : (hangul[0] ?? '');
}
