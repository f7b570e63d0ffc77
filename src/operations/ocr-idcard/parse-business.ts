import { cleanAddress } from './address.js';
import { businessChecksumOk, findBusinessNumber, findDate } from './numbers.js';
import type { DocumentInfo } from './parse.js';
import { compact, respaceHangul, trimJunk, trimValue } from './text.js';

export type BusinessFields = Omit<DocumentInfo, 'type' | 'license_number'>;

/** A label whose letters may be spaced out ("대 표 자") as printed and as OCR reads it. */
const spaced = (word: string) => word.split('').join('\\s*');
const label = (...words: string[]) => new RegExp(`(?:${words.map(spaced).join('|')})`);

const LABELS = {
  number: label('등록번호'),
  corporateNumber: label('법인등록번호'),
  tradeName: new RegExp(`(?:${spaced('법인명')}\\s*(?:[(（]\\s*${spaced('단체명')}\\s*[)）])?|${spaced('상호')})`),
  representative: label('대표자', '성명'),
  opened: label('개업연월일', '개업일'),
  address: label('사업장소재지', '사업장주소', '소재지'),
  // 태 is often read 대, 테 or 타 (one vowel or initial off).
  bizType: /업\s*[태대테타]/,
  // 종목 is often read 총목 or 중목 (a box is drawn round it on the NTS form).
  bizItem: /[종총중]\s*목/,
};
/** Any label of the certificate, to know where a value running onto the next line stops. */
const ANY_LABEL = /등록번호|법인명|상호|대표자|성명|생년월일|개업|소재지|사업의종류|업태|종목|발급사유|공동사업자|전자|세무서장|과세/;

/** The text after a label and its colon (read as `:`, `;`, `：` or missing). */
function valueAfter(line: string, pattern: RegExp): string | undefined {
  const match = pattern.exec(line);
  if (!match) return undefined;
  const rest = line.slice(match.index + match[0].length).replace(/^\s*[:;：.]?\s*/, '');
  return trimJunk(rest);
}

/**
 * Reads a 사업자등록증 by its labels: 등록번호, 상호 or 법인명(단체명), 대표자 or 성명,
 * 개업연월일, 사업장 소재지 and 사업의 종류 (업태 … 종목 …). `issue_date` is the opening date.
 */
export function parseBusiness(lines: string[]): BusinessFields {
  const fields: BusinessFields = { name: '', id_number: '', representative: '', address: '', issue_date: '', biz_type: '', biz_item: '' };
  const numbers: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const flat = compact(line);
    if (LABELS.number.test(line) && !LABELS.corporateNumber.test(line)) {
      const number = findBusinessNumber(line);
      if (number) numbers.unshift(number);
    } else {
      const number = /\d{3}\D?\d{2}\D?\d{5}/.test(flat) && !/\d{6}-?\d{7}/.test(flat) ? findBusinessNumber(line) : undefined;
      if (number) numbers.push(number);
    }
    if (!fields.name && LABELS.tradeName.test(line)) fields.name = trimValue(respaceHangul(valueAfter(line, LABELS.tradeName) ?? ''));
    if (!fields.representative && LABELS.representative.test(line) && !/전자|우편/.test(flat)) {
      fields.representative = personName(valueAfter(line, LABELS.representative) ?? '');
    }
    if (!fields.issue_date && LABELS.opened.test(line)) fields.issue_date = findDate(line) ?? '';
    if (!fields.address && LABELS.address.test(line) && !/본점/.test(flat)) {
      const parts = [valueAfter(line, LABELS.address) ?? ''];
      const next = lines[i + 1];
      if (next !== undefined && !ANY_LABEL.test(compact(next)) && !findDate(next) && /[가-힣\d]/.test(next)) parts.push(next);
      fields.address = cleanAddress(parts);
    }
    if (!fields.biz_type && LABELS.bizType.test(line)) {
      const afterType = valueAfter(line, LABELS.bizType) ?? '';
      const itemAt = LABELS.bizItem.exec(afterType);
      fields.biz_type = trimValue(respaceHangul(itemAt ? afterType.slice(0, itemAt.index) : afterType));
      if (itemAt) fields.biz_item = trimValue(respaceHangul(afterType.slice(itemAt.index + itemAt[0].length).replace(/^\s*[:;：]/, '')));
    }
    if (!fields.biz_item && LABELS.bizItem.test(line)) fields.biz_item = trimValue(respaceHangul(valueAfter(line, LABELS.bizItem) ?? ''));
  }
  fields.id_number = numbers.find(businessChecksumOk) ?? numbers[0] ?? '';
  if (!fields.issue_date) fields.issue_date = lines.map((line) => findDate(line)).find(Boolean) ?? '';
  return fields;
}

/** The representative: Hangul only, OCR spacing removed (a name has no spaces). */
function personName(value: string): string {
  const hangul = respaceHangul(value)
    .split(' ')
    .filter((token) => /^[가-힣]+$/.test(token));
  const joined = hangul.join('');
  return joined.length <= 5 ? joined : (hangul[0] ?? '');
}
