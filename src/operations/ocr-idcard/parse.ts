import { isCutAddress, looksLikeAddress } from './address.js';
import { detectDocumentType, type DocumentType } from './detect-type.js';
import { businessChecksumOk, residentChecksumOk } from './numbers.js';
import { parseBusiness } from './parse-business.js';
import { parseCard } from './parse-card.js';
import { splitLines, withParticle } from './text.js';

/** SPEC §5's `info`; `license_number` is added for a driver's licence. */
export interface DocumentInfo {
  type: DocumentType;
  name: string;
  id_number: string;
  representative: string;
  address: string;
  issue_date: string;
  biz_type: string;
  biz_item: string;
  license_number?: string;
}

export type WarningCode = 'NOT_FOUND' | 'CHECKSUM_MISMATCH' | 'LOW_CONFIDENCE' | 'ENGINES_DISAGREE';

export interface FieldWarning {
  field: keyof DocumentInfo;
  code: WarningCode;
  message: string;
}

export interface ParsedDocument {
  info: DocumentInfo;
  warnings: FieldWarning[];
}

/** Reads the fields of the document in OCR text; undefined when it is none of the three. */
export function parseDocument(text: string): ParsedDocument | undefined {
  const lines = splitLines(text);
  const { type } = detectDocumentType(lines);
  if (!type) return undefined;
  const empty = { representative: '', biz_type: '', biz_item: '' };
  const info: DocumentInfo =
    type === '사업자등록증' ? { type, ...parseBusiness(lines) } : { type, ...empty, ...parseCard(lines, type === '자동차운전면허증') };
  return { info, warnings: checkFields(info) };
}

/** Korean names of the fields, for warnings. */
export const FIELD_NAMES: Partial<Record<keyof DocumentInfo, string>> = {
  name: '이름(상호)',
  id_number: '등록번호',
  representative: '대표자',
  address: '주소',
  issue_date: '발급일(개업일)',
  biz_type: '업태',
  biz_item: '종목',
  license_number: '면허번호',
};

/**
 * Confidence from formats and check digits (Tesseract's own confidence is unreliable):
 * every field that is missing, malformed or fails its checksum gets a warning.
 */
export function checkFields(info: DocumentInfo): FieldWarning[] {
  const warnings: FieldWarning[] = [];
  const business = info.type === '사업자등록증';
  const required: Array<keyof DocumentInfo> = business
    ? ['name', 'id_number', 'representative', 'address', 'issue_date', 'biz_type', 'biz_item']
    : ['name', 'id_number', 'address', 'issue_date', ...(info.type === '자동차운전면허증' ? (['license_number'] as const) : [])];
  for (const field of required) {
    if (!info[field])
      warnings.push({ field, code: 'NOT_FOUND', message: `${withParticle(FIELD_NAMES[field] ?? field, '을', '를')} 읽지 못했습니다.` });
  }
  if (info.id_number) {
    if (business && !businessChecksumOk(info.id_number)) {
      warnings.push({
        field: 'id_number',
        code: 'CHECKSUM_MISMATCH',
        message: '사업자등록번호의 검증번호가 맞지 않습니다. 잘못 읽었을 수 있습니다.',
      });
    } else if (!business && !residentChecksumOk(info.id_number)) {
      warnings.push({
        field: 'id_number',
        code: 'CHECKSUM_MISMATCH',
        message: '주민등록번호의 검증번호가 맞지 않습니다. 2020년 10월 이후 발급 번호라면 정상일 수 있습니다.',
      });
    }
  }
  const personal: Array<keyof DocumentInfo> = business ? ['representative'] : ['name'];
  for (const field of personal) {
    const value = info[field];
    if (value && !/^[가-힣]{2,5}$/.test(value)) {
      warnings.push({
        field,
        code: 'LOW_CONFIDENCE',
        message: `${withParticle(FIELD_NAMES[field] ?? field, '이', '가')} 이름 형식이 아닙니다.`,
      });
    }
  }
  if (info.address && !looksLikeAddress(info.address)) {
    warnings.push({ field: 'address', code: 'LOW_CONFIDENCE', message: '주소 형식이 아닙니다. 잘못 읽었을 수 있습니다.' });
  } else if (info.address && isCutAddress(info.address)) {
    warnings.push({
      field: 'address',
      code: 'LOW_CONFIDENCE',
      message: '주소가 다음 줄로 이어지는데 그 줄을 읽지 못했습니다. 주소 전체가 잘 보이게 다시 촬영해 보내 주세요.',
    });
  }
  return warnings;
}

/** True when a second reading may help: a field is missing or a check digit fails. */
export function needsSecondLook(parsed: ParsedDocument | undefined): boolean {
  return !parsed || parsed.warnings.some((warning) => warning.code === 'NOT_FOUND' || warning.code === 'CHECKSUM_MISMATCH');
}

/**
 * Two readings of one document (two preparations of the image): the first is kept, and
 * each field it missed, or whose check digit failed where the other's holds, is taken from
 * the second. A second reading of another type is ignored.
 */
export function combineReadings(first: ParsedDocument | undefined, second: ParsedDocument | undefined): ParsedDocument | undefined {
  if (!first || !second) return first ?? second;
  if (first.info.type !== second.info.type) return first;
  const info: DocumentInfo = { ...first.info };
  const failed = new Set(first.warnings.filter((w) => w.code === 'CHECKSUM_MISMATCH').map((w) => w.field));
  const secondFailed = new Set(second.warnings.filter((w) => w.code === 'CHECKSUM_MISMATCH').map((w) => w.field));
  for (const field of Object.keys(info) as Array<keyof DocumentInfo>) {
    if (field === 'type') continue;
    const mine = info[field];
    const theirs = second.info[field];
    if (!theirs) continue;
    if (!mine || (failed.has(field) && !secondFailed.has(field))) (info as unknown as Record<string, string>)[field] = theirs;
  }
  return { info, warnings: checkFields(info) };
}
