import { z } from 'zod';

export const MAX_PROMPT_CHARS = 8000;
export const MAX_GENERATE_TOKENS = 4000;
export const MAX_STYLE_CHARS = 50;

export const generateSchema = z.object({
  prompt: z
    .string()
    .trim()
    .min(1, '생성할 주제나 지시를 입력하세요.')
    .refine((text) => [...text].length <= MAX_PROMPT_CHARS, `prompt는 ${MAX_PROMPT_CHARS.toLocaleString('en-US')}자 이하여야 합니다.`)
    .meta({ maxLength: MAX_PROMPT_CHARS }),
  max_tokens: z
    .number()
    .int('정수여야 합니다.')
    .min(1, '1 이상이어야 합니다.')
    .max(MAX_GENERATE_TOKENS, `${MAX_GENERATE_TOKENS.toLocaleString('en-US')} 이하여야 합니다.`)
    .default(500),
  temperature: z.number().min(0, '0 이상이어야 합니다.').max(1, '1 이하여야 합니다.').default(0.7),
  /** A known code (blog, email, poem, ...) gets its guide; any other short text is passed on as the wanted style. */
  style: z
    .string()
    .trim()
    .min(1, 'style을 비우지 말고 생략하세요.')
    .max(MAX_STYLE_CHARS, `style은 ${MAX_STYLE_CHARS}자 이하여야 합니다.`)
    .optional(),
});

export type GenerateInput = z.output<typeof generateSchema>;

export const generateOutputSchema = z.object({ content: z.string(), tokens_used: z.number().int() });
