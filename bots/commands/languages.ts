import { LANGUAGES, type Language } from '../../src/operations/translate/translate.schema.js';

/**
 * The target language as chat users type it: the code, or its name in Korean or English
 * (`/translate 영어 …` on Slack reads as Discord's choice "영어 (en)" does).
 */
const NAMES: Record<Language, { ko: string; en: string; aliases: string[] }> = {
  ko: { ko: '한국어', en: 'Korean', aliases: ['한국말', '한글', 'kr', 'kor'] },
  en: { ko: '영어', en: 'English', aliases: ['영문', 'eng'] },
  ja: { ko: '일본어', en: 'Japanese', aliases: ['일어', 'jp', 'jpn', '日本語'] },
  zh: { ko: '중국어', en: 'Chinese', aliases: ['중문', 'cn', 'chi', '中文'] },
};

const BY_NAME = new Map<string, Language>(
  LANGUAGES.flatMap((code) =>
    [code, NAMES[code].ko, NAMES[code].en, ...NAMES[code].aliases].map((name) => [name.toLowerCase(), code] as const),
  ),
);

/** The language code for a code or a name; the input unchanged when unknown (the core says what it accepts). */
export function languageCode(input: string): string {
  return BY_NAME.get(input.trim().toLowerCase()) ?? input;
}

/** The name of a language in the user's language: 영어 / English. */
export function languageName(code: string, locale: 'ko' | 'en'): string {
  const entry = NAMES[code as Language];
  return entry ? entry[locale] : code;
}

/** Discord choices: the name in Korean with the code, localized for English clients. */
export const LANGUAGE_CHOICES = LANGUAGES.map((code) => ({
  name: `${NAMES[code].ko} (${code})`,
  name_localizations: { 'en-US': `${NAMES[code].en} (${code})`, 'en-GB': `${NAMES[code].en} (${code})` },
  value: code,
}));
