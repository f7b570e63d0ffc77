import { z } from 'zod';

export const MAX_TRANSLATE_TEXT = 3000;
export const LANGUAGES = ['ko', 'en', 'ja', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Codes are matched case-insensitively ("KO" is "ko"). */
const code = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
    z.enum(values, { error: `지원하는 언어 코드: ${values.join(', ')}` }),
  );

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
