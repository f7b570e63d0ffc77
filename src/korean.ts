import { josa, numberToHangul } from 'es-hangul';

/**
 * Korean particles chosen from the word they follow, as a writer would, instead of
 * `이(가)`-style placeholders. Hangul is es-hangul's work; numbers are read aloud first
 * (`12` → 십이 → `12가`), and a Latin ending is read as Koreans say it (`URL` → 유알엘 → `URL을`).
 */
export type Particle = Parameters<typeof josa.pick>[1];

/** `word` followed by its particle: `withJosa('책', '을/를')` → `책을`, `withJosa('7', '이/가')` → `7이`. */
export function withJosa(word: string, particle: Particle): string {
  return word + josa.pick(spoken(word), particle);
}

/** True when the word, read aloud, ends in a final consonant (받침). */
export function endsWithBatchim(word: string): boolean {
  return josa.pick(spoken(word), '이/가') === '이';
}

/** What decides the particle: the last word read aloud, ignoring closing quotes and brackets. */
function spoken(word: string): string {
  const core = word.replace(/[\s'"’”)\]}>.,!?`*]+$/u, '');
  const digits = /(\d{1,15})$/.exec(core)?.[1];
  if (digits) return numberToHangul(Number(digits)) || '영';
  const latin = /([A-Za-z]+)$/.exec(core)?.[1];
  if (latin) return latinSound(latin);
  return core;
}

/**
 * A syllable that ends as the Latin word does when read: an acronym by its last letter's name
 * (L 엘 and R 알 end in ㄹ, M 엠 and N 엔 in another consonant), a word by its sound.
 */
function latinSound(word: string): string {
  const acronym = word === word.toUpperCase();
  if (acronym ? /[LR]$/.test(word) : /l$/i.test(word)) return '갈';
  if (acronym ? /[MN]$/.test(word) : /(?:m|n|ng|ck)$/i.test(word)) return '각';
  return '가';
}
