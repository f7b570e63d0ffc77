import { cleanAddress, continuesAddress, looksLikeAddress } from './address.js';
import { syllableCost } from './regions.js';
import { findDate, findLicenceNumber, findShortDate, findResidentNumber, residentChecksumOk } from './numbers.js';
import { compact, respaceHangul, trimJunk } from './text.js';

export interface CardFields {
  name: string;
  id_number: string;
  address: string;
  issue_date: string;
  license_number?: string;
}

/** Words of the card's printed furniture: never a name. */
const NOT_A_NAME = /주민|등록증|운전|면허|자동차|보통|대형|소형|특수|청장|시장|군수|경찰|적성|갱신|기간|조건|암호|일련/;
/** The renewal period ("적성검사기간 2026.01.01.~2026.12.31."); a lone ~ is a speck, not a period. */
const RENEWAL = /적성|갱신|기간|[\d.]\s*~|~\s*\d|\d\s*[-~]\s*\d{4}/;
/** The issuer's line ("서울특별시 금천구청장"), even with the seal's specks after it. */
export function isIssuerLine(line: string): boolean {
  const text = compact(line).replace(/[^가-힣]+$/, '');
  return /(청장|시장|군수|동장|읍장|면장)[가-힣]{0,2}$/.test(text) && !/\d{3}/.test(text);
}

/** The class boxes of a licence (1종보통, 2종소형 …), printed on the name's line on newer cards. */
const LICENCE_CLASS =
  /[12l|I]\s*종\s*(?:보\s*통|대\s*형|소\s*형|특\s*수|원\s*동\s*기)[가-힣()]*|원\s*동\s*기\s*장\s*치?|특\s*수\s*\(?[가-힣]*\)?/g;
/** A line that ends like an address: a road, a lot number, a village or a reference in parentheses. */
const ADDRESS_END = /(로|길|동|리|가|읍|면|번지|호|층|차|[)）])$/;

/**
 * Reads a 주민등록증 or 자동차운전면허증. Cards have no labels, so fields come from formats
 * and line order: the resident number line anchors everything; the name is the Hangul-only
 * line just above it (a licence has its licence number above that), the address follows it,
 * and the issue date is the last date that is not the renewal period, just above the issuer.
 */
export function parseCard(allLines: string[], licence: boolean): CardFields {
  // Lines of specks only (a column of the portrait or the seal cut off by its gap) carry nothing
  // and would stop an address running over the next lines.
  const lines = allLines.filter((line) => trimJunk(line).length > 0);
  const numbers = lines.map((line) => findResidentNumber(line));
  const candidates = numbers.flatMap((number, index) => (number ? [{ number, index }] : []));
  // Prefer a number whose check digit holds: a misread digit usually breaks it.
  const anchor = candidates.find((c) => residentChecksumOk(c.number)) ?? candidates[0];
  const anchorIndex = anchor?.index ?? -1;

  const licenceNumber = licence ? lines.map((line) => findLicenceNumber(line)).find(Boolean) : undefined;
  return {
    name: findName(lines, anchorIndex),
    id_number: anchor?.number ?? '',
    address: findAddress(lines, anchorIndex),
    issue_date: findIssueDate(lines),
    ...(licence ? { license_number: licenceNumber ?? '' } : {}),
  };
}

/** A personal name: 2–4 Hangul syllables, read as spaced syllables or as one word. */
export function nameFrom(line: string): string | undefined {
  const name = nameIn(line);
  return name && withKnownSurname(name);
}

/**
 * A three-syllable name whose first syllable is no family name but one jamo away from one
 * (족성동, 자영성, 융동영) starts with that family name. A lost or misread final is the
 * commonest slip (자→장, 족→조), so a surname that differs only in its final comes first,
 * then the commonest. Two-syllable names (a given name alone, 둘리) are left alone.
 */
export function withKnownSurname(name: string): string {
  const first = name[0] as string;
  if (name.length !== 3 || SURNAMES.has(first)) return name;
  const close = [...SURNAMES].filter((candidate) => syllableCost(first, candidate) <= 1 / 3 + 1e-9);
  const surname = close.find((candidate) => sameButFinal(first, candidate)) ?? close[0];
  return surname ? surname + name.slice(1) : name;
}

/** Two syllables with the same initial and vowel. */
function sameButFinal(a: string, b: string): boolean {
  return Math.floor((a.charCodeAt(0) - 0xac00) / 28) === Math.floor((b.charCodeAt(0) - 0xac00) / 28);
}

function nameIn(line: string): string | undefined {
  // Hanja in parentheses and specks of the photo (symbols, digits) around the name go.
  const tokens = line
    .replace(LICENCE_CLASS, ' ')
    .replace(/[(（][^)）]*[)）]/g, ' ')
    // An unclosed one runs to the end only after the name ("홍길동 (洪吉"), not before it ("(> 김혜윤").
    .replace(/([가-힣][^(（]*)[(（][^)）]*$/, '$1 ')
    .split(/\s+/)
    // A dot or speck glued to a syllable ("오 우 수.") is not part of it.
    .map((token) => (/[가-힣]/.test(token) ? token.replace(/^[^가-힣]+|[^가-힣]+$/g, '') : token))
    .filter(Boolean);
  while (tokens.length > 0 && !/[가-힣]/.test(tokens[0] as string)) tokens.shift();
  while (tokens.length > 0 && !/[가-힣]/.test(tokens[tokens.length - 1] as string)) tokens.pop();
  const text = tokens.join(' ');
  if (!text || NOT_A_NAME.test(compact(text))) return undefined;
  const syllables: string[] = [];
  for (const token of tokens) {
    if (!/^[가-힣]$/.test(token)) break;
    syllables.push(token);
  }
  if (syllables.length >= 2 && syllables.length <= 4) return syllables.join('');
  // A name followed by specks read as syllables (its hanja without the parentheses):
  // most names are a family name and two syllables.
  if (syllables.length > 4 && SURNAMES.has(syllables[0] as string)) return syllables.slice(0, 3).join('');
  const first = tokens.find((token) => /[가-힣]/.test(token));
  if (first && /^[가-힣]{2,4}$/.test(first) && tokens.indexOf(first) <= 1) return first;
  const joined = compact(respaceHangul(text));
  if (/^[가-힣]{2,4}$/.test(joined)) return joined;
  // Specks of the portrait read before the name ("| | 제 / 윤 주 현"): a later run of spaced
  // syllables that starts with a family name.
  const runs = text.split(/\s+(?:\S*[^가-힣\s]\S*\s+)+/).map((part) => part.split(' '));
  const run = runs.find((r) => r.length >= 2 && r.length <= 4 && r.every((t) => /^[가-힣]$/.test(t)) && SURNAMES.has(r[0] as string));
  return run?.join('');
}

/** The most common family names (over 95% of the population), commonest first: a name that starts with one is likelier right. */
const SURNAMES = new Set([
  ...'김이박최정강조윤장임한오서신권황안송류전홍고문양손배백허유남심노하곽성차주우구민진나지엄채원천방공현함변염여추도소석선설마길연위표명기반왕금옥육인맹제모탁국어은편용예경봉사부가복태목형피두감호제',
]);

function nameScore(name: string, distance: number): number {
  const lengthScore = name.length === 3 ? 2 : 1;
  return lengthScore + (SURNAMES.has(name[0] as string) ? 2 : 0) - distance * 0.25;
}

function findName(lines: string[], anchorIndex: number): string {
  // Between the title (and a licence's number) and the resident number — or, if that was
  // not read, the address: the likeliest-looking name, closest first.
  // An old licence's number starts with a region's name ("충남 15-…"): not the address.
  const addressIndex = lines.findIndex((line) => looksLikeAddress(line) && !findLicenceNumber(line));
  const limit = anchorIndex >= 0 ? anchorIndex : addressIndex >= 0 ? addressIndex : lines.length;
  const titleIndex = lines.findIndex((line) => /주민등록|면허증|운전면|자동차/.test(compact(line)));
  const licenceIndex = lines.findIndex((line, i) => i < limit && findLicenceNumber(line));
  const from = Math.max(titleIndex, licenceIndex) + 1;
  let best: { name: string; score: number } | undefined;
  for (let index = limit - 1; index >= from; index--) {
    const line = lines[index] as string;
    if (findDate(line) || findResidentNumber(line) || findLicenceNumber(line)) continue;
    const name = nameFrom(line);
    const score = name ? nameScore(name, limit - 1 - index) : -Infinity;
    if (name && (!best || score > best.score)) best = { name, score };
  }
  return best?.name ?? '';
}

function findAddress(lines: string[], anchorIndex: number): string {
  const start = anchorIndex >= 0 ? anchorIndex + 1 : 0;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i] as string;
    // The address comes before the issue date; after it only the issuer is printed (its line
    // misread, "대 구 광 역 ㅅ 통", still starts with a 시·도).
    if (anchorIndex >= 0 && findDate(line) && !RENEWAL.test(line)) break;
    if (!looksLikeAddress(line) || RENEWAL.test(line) || isIssuerLine(line) || findLicenceNumber(line)) continue;
    const parts = [line];
    // An address runs over up to three lines; it stops at the date, the issuer or the renewal period.
    // Specks between them (the guilloche or the portrait, cut off by a column gap: digits, lone
    // syllables, no word of two syllables) are passed over, up to two such lines.
    let end = Math.min(lines.length, i + 3);
    for (let j = i + 1; j < end; j++) {
      const next = lines[j] as string;
      if (findDate(next) || isIssuerLine(next) || RENEWAL.test(next) || findResidentNumber(next)) break;
      const text = trimJunk(next);
      if (continuesAddress(next)) {
        parts.push(next);
        continue;
      }
      if (!/[가-힣]{2}/.test(compact(text))) {
        if (end >= i + 5) break;
        end = Math.min(lines.length, end + 1);
        continue;
      }
      if (!ADDRESS_END.test(compact(text))) break;
      parts.push(next);
    }
    return cleanAddress(parts);
  }
  return '';
}

function findIssueDate(lines: string[]): string {
  let found = '';
  for (const line of lines) {
    if (RENEWAL.test(compact(line))) continue;
    if (findResidentNumber(line) || findLicenceNumber(line)) continue;
    const date = findDate(line);
    if (date) found = date;
  }
  if (found) return found;
  // No full date: one that lost its century, above the issuer (the renewal period is skipped).
  for (const line of lines) {
    if (RENEWAL.test(compact(line)) || findResidentNumber(line) || findLicenceNumber(line)) continue;
    found = findShortDate(line) ?? found;
  }
  return found;
}
