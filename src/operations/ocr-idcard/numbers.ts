import { normalizeDigits } from './text.js';

/**
 * Korean identity numbers and dates: finding them in OCR lines, their check digits, and the
 * one date format the service answers with (`YYYY.MM.DD.`).
 */

const SEP = '[-–—~_.]';
const RESIDENT = new RegExp(`(?<!\\d)(\\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])${SEP}?([1-8]\\d{6})(?!\\d)`);
const LICENCE = new RegExp(`(?<!\\d)(\\d{2})${SEP}(\\d{2})${SEP}(\\d{6})${SEP}(\\d{2})(?!\\d)`);
/** Licences issued before 2017 print the region's name before a 2-6-2 number ("서울 05-123456-78"). */
const REGIONS = '서울|부산|경기|강원|충북|충남|전북|전남|경북|경남|제주|대구|인천|광주|대전|울산';
const OLD_LICENCE = new RegExp(`(${REGIONS})\\s*(\\d{2})${SEP}(\\d{6})${SEP}(\\d{2})(?!\\d)`);
const BUSINESS = new RegExp(`(?<!\\d)(\\d{3})${SEP}?(\\d{2})${SEP}?(\\d{5})(?!\\d)`);

/** Resident number check digit (weights 2–9, 2–5). Numbers issued since October 2020 have random tails. */
export function residentChecksumOk(number: string): boolean {
  const digits = number.replace(/\D/g, '');
  if (digits.length !== 13) return false;
  const weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  const sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  return (11 - (sum % 11)) % 10 === Number(digits[12]);
}

/** Business registration number check digit (weights 1,3,7,1,3,7,1,3,5 plus the carry of the ninth). */
export function businessChecksumOk(number: string): boolean {
  const digits = number.replace(/\D/g, '');
  if (digits.length !== 10) return false;
  const weights = [1, 3, 7, 1, 3, 7, 1, 3, 5];
  let sum = weights.reduce((total, weight, i) => total + weight * Number(digits[i]), 0);
  sum += Math.floor((Number(digits[8]) * 5) / 10);
  return (10 - (sum % 10)) % 10 === Number(digits[9]);
}

/**
 * Readings of a line to try in turn: spaces inside digit groups kept, then closed; then the
 * slash (the Korean model's favourite misreading around a 7) read in each plausible way.
 * The caller keeps the first reading whose check digit holds.
 */
function digitReadings(line: string): string[] {
  const readings = [normalizeDigits(line, false), normalizeDigits(line, true)];
  if (line.includes('/')) {
    // "7" misread as "/", a "/" added beside a 7, or a 7 printed twice as "7/7"... as "7/".
    const variants = [
      line.replace(/(?<=\d)\/|\/(?=\d)/g, '7'),
      line.replace(/(?<=\d)\/|\/(?=\d)/g, ''),
      line.replace(/7\/|\/7/g, '7').replace(/\//g, ''),
      line.replace(/7\/(?=\d)/g, ''),
    ];
    for (const variant of variants) readings.push(normalizeDigits(variant, false), normalizeDigits(variant, true));
  }
  return readings;
}

/** The first reading that matches, preferring one whose check digit holds. */
function findNumber(line: string, pattern: RegExp, format: (m: RegExpExecArray) => string, valid: (n: string) => boolean) {
  let first: string | undefined;
  for (const reading of digitReadings(line)) {
    const match = pattern.exec(reading);
    if (!match) continue;
    const number = format(match);
    if (valid(number)) return number;
    first ??= number;
  }
  return first;
}

export function findResidentNumber(line: string): string | undefined {
  const format = (m: RegExpExecArray) => `${m[1]}${m[2]}${m[3]}-${m[4]}`;
  const found = findNumber(line, RESIDENT, format, residentChecksumOk);
  if (found) return found;
  // A speck of the portrait read as a digit before the number ("3510312-1544859"): taken
  // off only when what is left is a number whose check digit holds.
  const trimmed = line.replace(/(?<!\d)\d(?=\d{6}\s*[-–]\s*\d{7}(?!\d))/, '');
  const number = trimmed !== line ? findNumber(trimmed, RESIDENT, format, residentChecksumOk) : undefined;
  return number && residentChecksumOk(number) ? number : undefined;
}

export function findLicenceNumber(line: string): string | undefined {
  return (
    findNumber(
      line,
      LICENCE,
      (m) => `${m[1]}-${m[2]}-${m[3]}-${m[4]}`,
      () => true,
    ) ??
    findNumber(
      line.replace(/([가-힣])\s+(?=[가-힣])/g, '$1'),
      OLD_LICENCE,
      (m) => `${m[1]} ${m[2]}-${m[3]}-${m[4]}`,
      () => true,
    )
  );
}

export function findBusinessNumber(line: string): string | undefined {
  return findNumber(line, BUSINESS, (m) => `${m[1]}-${m[2]}-${m[3]}`, businessChecksumOk);
}

const DATE_PATTERNS = [
  /(?<!\d)((?:19|20)\d{2})\s*년\s*(\d{1,2})\s*월\s*(\d{1,2})\s*일/,
  // The dots are often read as commas, or as a colon where a speck sits over the dot.
  /(?<!\d)((?:19|20)\d{2})\s*[.\-/,:;]\s*(\d{1,2})\s*[.\-/,:;]\s*(\d{1,2})(?!\d)/,
  // One dot lost under the guilloche ("2005 9. 26."): a space for it, the other kept.
  /(?<![\d.])((?:19|20)\d{2})\s+(\d{1,2})\s*[.,]\s*(\d{1,2})(?!\d)/,
];

/** The first plausible date in a line, as `YYYY.MM.DD.`. */
export function findDate(line: string): string | undefined {
  const text = normalizeDates(line);
  for (const pattern of DATE_PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (month < 1 || month > 12 || day < 1 || day > 31) continue;
    return `${year}.${String(month).padStart(2, '0')}.${String(day).padStart(2, '0')}.`;
  }
  return undefined;
}

/**
 * A date whose century was lost at the start of a line ("20.07.28.", the "20" of 2020 under
 * a speck): `YY.MM.DD.` with every dot, read as 20YY up to this year. For the issue date only,
 * when no full date was read.
 */
export function findShortDate(line: string, now = new Date()): string | undefined {
  const match = /(?<![\d.,])(\d{2})[.,](\d{2})[.,](\d{2})[.,](?!\d)/.exec(normalizeDates(line));
  if (!match) return undefined;
  const [year, month, day] = [2000 + Number(match[1]), Number(match[2]), Number(match[3])];
  if (year > now.getFullYear() || month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return `${year}.${String(month).padStart(2, '0')}.${String(day).padStart(2, '0')}.`;
}

/** Digit look-alikes are fixed only around digits, so the 년/월/일 markers survive. */
function normalizeDates(line: string): string {
  return line
    .split(' ')
    .map((token) => (/\d/.test(token) && !/[가-힣]/.test(token) ? normalizeDigits(token) : token))
    .join(' ');
}

/** `900101-1******`: the birth date and the sex digit stay, the rest is hidden. */
export function maskResidentNumber(number: string): string {
  return number.replace(/^(\d{6})-?(\d)\d{6}$/, '$1-$2******');
}

/** `11-19-******-78` (`서울 05-******-78`): region and year stay, the serial is hidden. */
export function maskLicenceNumber(number: string): string {
  return number.replace(
    /^((?:[가-힣]{2} )?\d{2})-(\d{2}-)?\d{6}-(\d{2})$/,
    (_, head: string, year: string | undefined, tail: string) => `${head}-${year ?? ''}******-${tail}`,
  );
}
