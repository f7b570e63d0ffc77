/**
 * Text clean-up for Korean OCR output. Tesseract's Korean model often splits a word into
 * single syllables ("세 종 대 로") and leaves specks of the photo or the table as stray
 * symbols at the ends of lines; these helpers undo both without touching the content.
 */

const HANGUL_SYLLABLE = /^[가-힣]$/;
const HANGUL_WORD = /^[가-힣]+$/;
/** One-syllable words that stand alone in the fields we read. */
const ONE_SYLLABLE_WORDS = new Set(['및', '등', '외', '겸', '또는']);

/** Lines of the OCR text, trimmed, empty ones dropped. */
export function splitLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line.length > 0);
}

/**
 * The text as people write it: Tesseract reads letter-spaced Korean (titles and labels of ID
 * documents: `주 민 등 록 증`, `성 명`) as one syllable per word. Two or more single-syllable
 * words in a row are one word again (`주민등록증`, `성명`); words of two syllables or more, digits
 * and Latin letters keep their spaces.
 */
export function joinSpacedSyllables(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/(?<![가-힣])[가-힣](?: [가-힣](?![가-힣]))+/g, (run) => run.replace(/ /g, '')))
    .join('\n');
}

/** The line without any whitespace, for matching labels and titles. */
export function compact(text: string): string {
  return text.replace(/\s+/g, '');
}

/** A token with no letter or digit, or a lone jamo: noise from lines, photos and stamps. */
function isJunkToken(token: string): boolean {
  if (/^[ㄱ-ㅣ]+$/.test(token)) return true;
  return !/[0-9A-Za-z가-힣]/.test(token);
}

/** A label's value: junk at both ends dropped, and a lone trailing letter or digit (a speck). */
export function trimValue(text: string): string {
  const tokens = trimJunk(text).split(' ').filter(Boolean);
  if (tokens.length > 1 && /^[0-9A-Za-z]$/.test(tokens[tokens.length - 1] as string)) tokens.pop();
  return tokens.join(' ');
}

/** Drops junk tokens from both ends of a line. */
export function trimJunk(line: string): string {
  const tokens = line.split(' ').filter(Boolean);
  while (tokens.length > 0 && isJunkToken(tokens[0] as string)) tokens.shift();
  while (tokens.length > 0 && isJunkToken(tokens[tokens.length - 1] as string)) tokens.pop();
  return tokens.join(' ');
}

/**
 * Re-joins syllables Tesseract spaced apart: a run of one-syllable Hangul tokens is glued
 * together and to the Hangul word that follows it; a lone syllable at the end of a word
 * ("세종대 로") joins the word before.
 */
export function respaceHangul(text: string): string {
  const tokens = text.split(' ').filter(Boolean);
  const out: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i] as string;
    if (!HANGUL_SYLLABLE.test(token) || ONE_SYLLABLE_WORDS.has(token)) {
      out.push(token);
      i++;
      continue;
    }
    let run = '';
    while (i < tokens.length && HANGUL_SYLLABLE.test(tokens[i] as string) && !ONE_SYLLABLE_WORDS.has(tokens[i] as string)) {
      run += tokens[i];
      i++;
    }
    const next = tokens[i];
    if (next !== undefined && /^[가-힣]/.test(next) && !ONE_SYLLABLE_WORDS.has(next)) {
      out.push(run + next);
      i++;
    } else if (run.length === 1 && out.length > 0 && HANGUL_WORD.test(out[out.length - 1] as string)) {
      out[out.length - 1] += run;
    } else {
      out.push(run);
    }
  }
  return out.join(' ');
}

const DIGIT_LOOKALIKES: Record<string, string> = {
  O: '0',
  o: '0',
  D: '0',
  Q: '0',
  l: '1',
  I: '1',
  i: '1',
  '|': '1',
  '!': '1',
  ']': '1',
  '[': '1',
  B: '8',
  S: '5',
  s: '5',
  Z: '2',
  z: '2',
  G: '6',
  b: '6',
  g: '9',
  q: '9',
  T: '7',
  A: '4',
};

/**
 * Digit fields: in a token that is mostly digits, letters that look like digits are read as
 * the digits (O→0, l→1, B→8, ...), and spaces inside a digit group are closed.
 */
export function normalizeDigits(line: string, joinSpaces = true): string {
  const fixed = line
    .split(' ')
    .map((token) => {
      const digitCount = (token.match(/\d/g) ?? []).length;
      if (digitCount < 2 || digitCount < token.replace(/[-.~,_–—]/g, '').length * 0.5) return token;
      return [...token].map((ch) => DIGIT_LOOKALIKES[ch] ?? ch).join('');
    })
    .join(' ');
  const joined = joinSpaces ? fixed.replace(/(\d)\s+(?=\d)/g, '$1') : fixed;
  return joined.replace(/(\d)\s*([-–—~_])\s*(?=\d)/g, '$1$2');
}

/** Hangul in a string, for comparisons that ignore spacing. */
export function hangulOnly(text: string): string {
  return text.replace(/[^가-힣]/g, '');
}

/**
 * The particle that fits after a word: `withParticle('종목', '을', '를')` is "종목을",
 * `withParticle('주소', '을', '를')` "주소를", decided by the last syllable's final consonant.
 */
export function withParticle(word: string, afterConsonant: string, afterVowel: string): string {
  const last = [...word.replace(/[^가-힣]/g, '')].pop();
  const hasFinal = last !== undefined && (last.charCodeAt(0) - 0xac00) % 28 !== 0;
  return `${word}${hasFinal ? afterConsonant : afterVowel}`;
}
