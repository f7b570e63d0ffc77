import { respaceHangul, trimJunk } from './text.js';

/** First-level divisions (시·도), in full and as commonly abbreviated. */
const SIDO =
  /(서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충청|충북|충남|전라|전북|전남|경상|경북|경남|제주)[가-힣]*(특별시|광역시|특별자치시|특별자치도|도)?/;

const SIDO_NAMES =
  '서울특별시|부산광역시|대구광역시|인천광역시|광주광역시|대전광역시|울산광역시|세종특별자치시|경기도|강원특별자치도|강원도|충청[남북]도|전라[남북]도|전북특별자치도|경상[남북]도|제주특별자치도';
const SIDO_SHORT = '서울|부산|대구|인천|광주|대전|울산|세종|경기|강원|충북|충남|전북|전남|경북|경남|제주';
/** A token that is a 시·도, in full or abbreviated ("서울", "경기"). */
const SIDO_TOKEN = new RegExp(`^(?:${SIDO_NAMES}|${SIDO_SHORT})$`);
const GLUED_SIDO = new RegExp(`^[^\\s]{1,2}(${SIDO_NAMES})$`);

/** True when a line reads like the start of a Korean address. */
export function looksLikeAddress(line: string): boolean {
  const text = line.replace(/\s+/g, '');
  return SIDO.test(text.slice(0, 12)) || /[가-힣]+(시|군|구)[가-힣]*(로|길|동|읍|면)/.test(text);
}

/** A line that continues an address: the unit, or the reference dong in parentheses. */
export function continuesAddress(line: string): boolean {
  const text = trimJunk(line);
  return /[(（]\s*[가-힣]/.test(line) || /[가-힣]\s*[)）]/.test(line) || /\d+\s*동\s*\d+\s*호/.test(text) || /^[가-힣\d\s,-]*\d+\s*호/.test(text);
}

const ROAD = /^(.*?[가-힣\d](?:로|길)\s*\d+(?:-\d+)?)(?!\d)/;
const UNIT = /(\d+)\s*동\s*(\d+)\s*호|(\d+)\s*호/;
const REFERENCE = /[(（]\s*([가-힣][가-힣\d,\s]*?)\s*(?:[)）]|$)/;

/**
 * Cleans an address read from one or two lines. Noise before the 시·도 is dropped, syllables
 * are re-joined, and a road-name address is rebuilt from its grammar — 도로명 건물번호,
 * 상세주소 (동·호), (참고항목) — so specks between or after the parts fall away.
 */
export function cleanAddress(lines: string[]): string {
  const tokens = respaceHangul(lines.map((line) => trimJunk(line.replace(/([(（])\s+/g, '$1'))).join(' '))
    .split(' ')
    .filter(Boolean);
  // The address starts at the 시·도; a speck may be glued to its front ("가인천광역시").
  let first = tokens.findIndex((token, i) => i < 5 && SIDO_TOKEN.test(token));
  if (first < 0) {
    first = tokens.findIndex((token, i) => i < 5 && GLUED_SIDO.test(token));
    if (first >= 0) tokens[first] = (tokens[first] as string).replace(GLUED_SIDO, '$1');
  }
  const text = trimJunk(tokens.slice(Math.max(0, first)).join(' '));
  const road = ROAD.exec(text);
  if (!road) return text.replace(/\s*,\s*/g, ', ').trim();
  const rest = text.slice(road[0].length);
  const unit = UNIT.exec(rest);
  const reference = REFERENCE.exec(rest);
  let address = road[1] as string;
  if (unit) address += `, ${unit[3] ? `${unit[3]}호` : `${unit[1]}동 ${unit[2]}호`}`;
  if (reference) {
    // A reference is one or two names ("세종로, 정부서울청사"): spaces inside them are OCR's.
    const names = (reference[1] as string).split(',').map((name) => name.replace(/\s+/g, '').trim());
    address += ` (${names.filter(Boolean).join(', ')})`;
  }
  return address.replace(/\s+/g, ' ').trim();
}
