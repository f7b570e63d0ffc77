import { z } from 'zod';
import { LANGUAGE_NAMES, languageCodeOf } from './language-names.js';

export const MAX_TRANSLATE_TEXT = 3000;
export const LANGUAGES = ['ko', 'en', 'ja', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Codes are matched case-insensitively ("KO" is "ko"); Korean and English names are taken too (영어, 영, English). */
const code = <T extends readonly [string, ...string[]]>(values: T) =>
  z
    .preprocess(
      languageCodeOf,
      z.enum(values, { error: `지원하는 언어: ${values.join(', ')} (한국어·영어·일본어·중국어, 한·영·일·중도 됩니다)` }),
    )
    .meta({
      description: `${values.join(', ')}; 한국어 이름도 받습니다: 한국어/한, 영어/영, 일본어/일, 중국어/중 (응답은 코드)`,
      enum: [...values, ...LANGUAGES.flatMap((language) => [LANGUAGE_NAMES[language].ko, LANGUAGE_NAMES[language].short])],
    });

export const translateSchema = z.object({
  text: z
    .string()
    .refine((text) => text.trim().length > 0, '번역할 텍스트를 입력하세요.')
    .refine((text) => [...text].length <= MAX_TRANSLATE_TEXT, `텍스트는 ${MAX_TRANSLATE_TEXT.toLocaleString('en-US')}자 이하여야 합니다.`)
    .meta({ maxLength: MAX_TRANSLATE_TEXT }),
  source_lang: code(['auto', ...LANGUAGES] as const).default('auto'),
  target_lang: code(LANGUAGES),
});

export type TranslateInput = z.output<typeof translateSchema>;

export const translateOutputSchema = z.object({ translated: z.string(), source_lang: z.enum(LANGUAGES), target_lang: z.enum(LANGUAGES) });
