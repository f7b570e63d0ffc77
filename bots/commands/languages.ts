import { LANGUAGE_NAMES as NAMES, languageCodeOf, languageNameOf } from '../../src/operations/translate/language-names.js';
import { LANGUAGES } from '../../src/operations/translate/translate.schema.js';

/**
 * The target language as chat users type it: the code, or its name in Korean or English
 * (`/translate 영어 …` on Slack reads as Discord's choice "영어 (en)" does); the names live in
 * the core (src/operations/translate/language-names.ts), which the HTTP API reads too.
 */
export function languageCode(input: string): string {
  return String(languageCodeOf(input));
}

/** The name of a language in the user's language: 영어 / English. */
export const languageName = languageNameOf;

/** Discord choices: the name in Korean with the code, localized for English clients. */
export const LANGUAGE_CHOICES = LANGUAGES.map((code) => ({
  name: `${NAMES[code].ko} (${code})`,
  name_localizations: { 'en-US': `${NAMES[code].en} (${code})`, 'en-GB': `${NAMES[code].en} (${code})` },
  value: code,
}));
