import type { Language } from './translate.schema.js';

/**
 * The four languages as users type them, on every door: the code, the Korean name, its one-
 * syllable short form (한/영/일/중), the English name and common spellings. The answer still
 * gives the code.
 */
export const LANGUAGE_NAMES: Record<Language, { ko: string; short: string; en: string; aliases: string[] }> = {
  ko: { ko: '한국어', short: '한', en: 'Korean', aliases: ['한국말', '한글', 'kr', 'kor'] },
  en: { ko: '영어', short: '영', en: 'English', aliases: ['영문', 'eng'] },
  ja: { ko: '일본어', short: '일', en: 'Japanese', aliases: ['일어', 'jp', 'jpn', '日本語'] },
  zh: { ko: '중국어', short: '중', en: 'Chinese', aliases: ['중문', 'cn', 'chi', '中文'] },
};

const BY_NAME = new Map<string, string>([
  ['자동', 'auto'],
  ['자동 감지', 'auto'],
  ...(Object.keys(LANGUAGE_NAMES) as Language[]).flatMap((code) => {
    const { ko, short, en, aliases } = LANGUAGE_NAMES[code];
    return [code, ko, short, en, ...aliases].map((name) => [name.toLowerCase(), code] as [string, string]);
  }),
]);

/** The language code of a code or a name (`영어`, `영`, `English`, `EN` → `en`); the input unchanged when unknown. */
export function languageCodeOf(input: unknown): unknown {
  return typeof input === 'string' ? (BY_NAME.get(input.trim().toLowerCase()) ?? input.trim().toLowerCase()) : input;
}

/** The language's name in the reader's language: `영어` / `English`. */
export function languageNameOf(code: string, locale: 'ko' | 'en'): string {
  const entry = LANGUAGE_NAMES[code as Language];
  return entry ? entry[locale] : code;
}
