import { closestName, SIDO_NAMES as SIDO_LIST, SIGUNGU_NAMES, sigunguOf } from './regions.js';
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
  const hangul = text.replace(/^[^가-힣]+/, '');
  return (
    SIDO.test(text.slice(0, 12)) ||
    /[가-힣]+(시|군|구)[가-힣]*(로|길|동|읍|면)/.test(text) ||
    // Cards that leave the 시·도 out start at the 시·군·구 ("부천시 원미구 상1동").
    SIGUNGU_NAMES.some((name) => name.length >= 3 && hangul.startsWith(name) && hangul.length > name.length + 1)
  );
}

/** A line that continues an address: the unit, or the reference dong in parentheses. */
export function continuesAddress(line: string): boolean {
  const text = trimJunk(line);
  return (
    /[(（]\s*[가-힣]/.test(line) || /[가-힣]\s*[)）]/.test(line) || /\d+\s*동\s*\d+\s*호/.test(text) || /^[가-힣\d\s,-]*\d+\s*호/.test(text)
  );
}

const ROAD = /^(.*?[가-힣\d](?:로|길)(?:\d+번?길)?\s*\d+(?:-\d+)?)(?!\d)/;
/**
 * The detail after the building number: "111동 2104호", "3층 301호", "지하1층", "B101호". Between
 * a number and 호, 농/둥/통 are 동 misread (no address has 통 there).
 */
const UNIT_PART = /^(?:제|지하|B)?\d+(?:-\d+)?(?:동|층|호)$/;
/** The reference part "(동, 건물)"; one cut off at the photo's edge ends at the specks after it ("(관양동, 새빛아파!"). */
const REFERENCES = /[(（]\s*([가-힣][가-힣\d,\s]*?)\s*(?:[)）]|[^가-힣\d,\s()（）]*$)/g;

/**
 * Division names read against the real list: the 시·도 (also glued to its 시·군·구, as in
 * "경강북도해운대구") and the one or two 시·군·구 after it are replaced by the known name they
 * are one or two syllables away from — for a 시·군·구, one of the 시·도 read when one is that
 * close, before a nearer one of another 시·도. The rest of the address is kept as read.
 */
function correctDivisions(tokens: string[]): string[] {
  const out = [...tokens];
  const sidoAt = out.findIndex((token, i) => i < 5 && /[시도]$/.test(token) && closestName(token, SIDO_LIST));
  let sido: string | undefined;
  if (sidoAt >= 0) {
    sido = closestName(out[sidoAt] as string, SIDO_LIST) as string;
    out[sidoAt] = sido;
  } else {
    const glued = out.findIndex((token, i) => i < 5 && splitGlued(token));
    if (glued >= 0) out.splice(glued, 1, ...(splitGlued(out[glued] as string) as [string, string]));
    sido = glued >= 0 ? out[glued] : undefined;
  }
  const from = sido ? out.indexOf(sido) + 1 : 0;
  const preferred = sido ? sigunguOf(sido) : [];
  for (let i = from; i < Math.min(out.length, from + 2); i++) {
    const glued = splitLeadingDivision(out[i] as string, preferred);
    if (glued) out.splice(i, 1, ...glued);
    const token = out[i] as string;
    if (!/[시군구]$/.test(token)) break;
    if (SIGUNGU_NAMES.includes(token)) continue;
    // An address never names a 시·군·구 of another 시·도 ("광주광역시 주서구": 서구, not 대구's 수성구).
    const known = closestName(token, preferred) ?? closestName(token, SIGUNGU_NAMES, preferred);
    if (known) out[i] = known;
  }
  return out;
}

/** "경상북도해운대구" → ["경상북도", "해운대구"], when both halves are (nearly) known names. */
function splitGlued(token: string): [string, string] | undefined {
  for (let k = 3; k <= token.length - 2; k++) {
    const head = token.slice(0, k);
    const tail = token.slice(k);
    if (!/[시도]$/.test(head) || !/[시군구]$/.test(tail)) continue;
    const sido = closestName(head, SIDO_LIST);
    const sigungu = closestName(tail, SIGUNGU_NAMES);
    if (sido && sigungu) return [sido, sigungu];
  }
  return undefined;
}

/**
 * A 시·군·구 glued by the syllable re-joining to the road after it ("강낳구테헤린로22길" →
 * "강남구", "테헤린로22길"): split where a prefix is within one jamo or so of a known name.
 */
function splitLeadingDivision(token: string, preferred: readonly string[]): [string, string] | undefined {
  for (let k = Math.min(5, token.length - 1); k >= 3; k--) {
    const head = token.slice(0, k);
    const tail = token.slice(k);
    if (!/^[가-힣]/.test(tail)) continue;
    const known = closestName(head, SIGUNGU_NAMES, preferred, /[시군구]$/.test(head) ? 0.7 : 0.34);
    if (known) return [known, tail];
  }
  return undefined;
}

/**
 * Numbered names ("상1동", "역삼1길", "종로3가"): a 1 read as `!`, `|`, `l` or `I` between the
 * name and its suffix is the digit, and 통 glued to such a number is 동 (ㄷ and ㅌ look alike;
 * a real 통 stands apart, after the 동: "상동 1통 2반").
 */
function numberedNames(line: string): string {
  return line
    .replace(/([가-힣])\s*[!|lI]\s*(?=(?:동|가|로|길|통)(?:\s|$|[(,]))/g, '$11')
    .replace(/([가-힣])\s*(\d{1,2})\s*통(?=\s|$|[(,])(?!\s*\d+\s*반)/g, '$1$2동');
}

/**
 * Korean spelling (두음 법칙) never starts a native or Sino-Korean word with 려, 랴, 례, 료 or
 * 류: they become 여, 야, 예, 요, 유 (역삼, 여의도, 용산). A name read with such a first
 * syllable ("력삼1길") had its ㅇ misread as ㄹ. Loanwords (리버, 라온) keep other vowels.
 */
function initialSoundRule(text: string): string {
  return text.replace(/(^|[\s(（,])([가-힣])(?=[가-힣])/g, (whole, before: string, syllable: string, at: number) => {
    const code = syllable.charCodeAt(0) - 0xac00;
    const [initial, vowel] = [Math.floor(code / 588), Math.floor((code % 588) / 28)];
    if (initial !== 5 || ![2, 6, 7, 12, 17].includes(vowel)) return whole;
    // After a lone syllable the space is OCR's, inside a word ("(대 륭테크노타운)"): kept.
    if (/(?:^|[\s(（])[가-힣]\s$/.test(text.slice(Math.max(0, at - 3), at + before.length))) return whole;
    return before + String.fromCharCode(0xac00 + 11 * 588 + (code % 588));
  });
}

/**
 * A lone syllable with a double final (앉, 읽, 값 …) is no word of an address: it is a speck
 * of the print the engine read as Hangul, and would be glued to the road name after it.
 */
function dropCompoundFinalSpecks(line: string): string {
  return line
    .split(' ')
    .filter((token) => {
      if (!/^[가-힣]$/.test(token)) return true;
      return ![3, 5, 6, 9, 10, 11, 12, 13, 14, 15, 18].includes((token.charCodeAt(0) - 0xac00) % 28);
    })
    .join(' ');
}

/** "테헤란로 22 길 12" → "테헤란로22길 12", "역삼 1 길" → "역삼1길": OCR spaces inside road names. */
function joinRoadNames(text: string): string {
  return text.replace(/([가-힣]+(?:로|길)?)\s*(\d+)\s*(번길|길|로|가)(?=\s|$|[(,])/g, '$1$2$3');
}

/**
 * Specks of the card's print read between the 시·군·구 and the road ("포항시 의 ^ 중앙로"):
 * tokens without two Hangul syllables, when a road name follows within three tokens.
 */
function dropSpecksBeforeRoad(tokens: string[]): string[] {
  const division = tokens.findIndex((token) => SIGUNGU_NAMES.includes(token));
  if (division < 0) return tokens;
  const road = tokens.findIndex((token, i) => i > division && i <= division + 4 && /^[가-힣]{2,}[\d가-힣]*(로|길)$/.test(token));
  if (road < 0) return tokens;
  const between = tokens.slice(division + 1, road).filter((token) => /[가-힣]{2,}/.test(token) && !/^[가-힣]$/.test(token));
  return [...tokens.slice(0, division + 1), ...between, ...tokens.slice(road)];
}

/** Every unit, floor and room printed before the reference part; specks between them fall away. */
function unitParts(detail: string): string[] {
  return (
    detail
      .replace(/(\d+)\s*[농둥통](?=\s*\d+\s*호)/g, '$1동')
      // 층 is often read 증 or 충 (a stroke more or less): after a number in an address it can only be 층.
      .replace(/(\d)\s*[증충](?![가-힣])/g, '$1층')
      .replace(/(\d)\s+(동|층|호)(?![가-힣])/g, '$1$2')
      // A comma before a unit is often read as a dot (".1901호"): a dot never stands inside a unit.
      .split(/[\s,.()（）]+/)
      .filter((token) => UNIT_PART.test(token))
  );
}

/**
 * Cleans an address read from one or more lines. Noise before the 시·도 is dropped, syllables
 * are re-joined, division names are checked against the real list, and a road-name address
 * is rebuilt from its grammar — 도로명 건물번호, 상세주소 (동·호), (참고항목) — so specks
 * between or after the parts fall away.
 */
export function cleanAddress(lines: string[]): string {
  const tokens = correctDivisions(
    // Each line is re-spaced alone: a line break is always a word break.
    lines
      .map((line) =>
        respaceHangul(trimJunk(dropCompoundFinalSpecks(numberedNames(line.replace(/([(（])\s+/g, '$1').replace(/\s+([)）])/g, '$1'))))),
      )
      .join(' ')
      .split(' ')
      .filter(Boolean),
  );
  // The address starts at the 시·도 — or, on cards that leave it out, at the 시·군·구.
  let first = tokens.findIndex((token, i) => i < 5 && SIDO_TOKEN.test(token));
  if (first < 0) {
    first = tokens.findIndex((token, i) => i < 5 && GLUED_SIDO.test(token));
    if (first >= 0) tokens[first] = (tokens[first] as string).replace(GLUED_SIDO, '$1');
  }
  if (first < 0) first = tokens.findIndex((token, i) => i < 3 && SIGUNGU_NAMES.includes(token));
  const text = initialSoundRule(joinRoadNames(trimJunk(dropSpecksBeforeRoad(tokens.slice(Math.max(0, first))).join(' '))));
  const road = ROAD.exec(text);
  // Not a road-name address (a lot number, a village): kept as read, up to its last reference.
  if (!road)
    return text
      .replace(/(.*[)）]).*$/, '$1')
      .replace(/\s*,\s*/g, ', ')
      .trim();
  const rest = text.slice(road[0].length);
  const units = unitParts(rest.replace(REFERENCES, ' '));
  const references = [...rest.matchAll(REFERENCES)].map((m) => m[1] as string);
  let address = road[1] as string;
  if (units.length > 0) address += `, ${units.join(' ')}`;
  for (const reference of references.slice(0, 2)) {
    // A reference is one or two names ("세종로, 정부서울청사"): spaces inside them are OCR's.
    // A 법정동 in the reference never ends in 통 (a 통 is a ward of a 동, never named there): ㄷ read as ㅌ.
    // A building name cut after "아파" can only be an 아파트.
    const names = reference.split(',').map((name) =>
      name
        .replace(/\s+/g, '')
        .replace(/(?<=[가-힣])통$/, '동')
        .replace(/아파$/, '아파트'),
    );
    address += ` (${names.filter(Boolean).join(', ')})`;
  }
  // Left open as printed, so that the reader is told (checkFields) and the line reading is tried.
  if (endsOpen(lines)) address = address.replace(/[)）]?$/, ',');
  return address.replace(/\s+/g, ' ').trim();
}

/**
 * The last line read ends on a comma, specks aside ("테헤란로 143,", "(여의도동,"): the address
 * goes on in a line that was not read. A printed address never ends on a comma.
 */
function endsOpen(lines: string[]): boolean {
  return /,[^가-힣\d()（）]*$/.test(lines.join(' '));
}

/** An address {@link cleanAddress} left open: its next printed line is missing. */
export function isCutAddress(address: string): boolean {
  return address.endsWith(',');
}
