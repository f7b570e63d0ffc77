import { z } from 'zod';

export const MAX_URL_LENGTH = 2048;

export const shortenSchema = z.object({
  url: z.string().trim().min(1, 'URL을 입력하세요.').max(MAX_URL_LENGTH, `URL은 ${MAX_URL_LENGTH}자 이하여야 합니다.`),
  check_harmful: z.boolean().default(false),
});

export type ShortenInput = z.output<typeof shortenSchema>;

export const CODE_PATTERN = /^[0-9A-Za-z]{5}$/;

export const shortenOutputSchema = z.object({
  short_url: z.string(),
  code: z.string().length(5),
  url: z.string(),
  safety_check: z
    .object({ is_malicious: z.literal(false), category: z.string(), reason: z.string(), remaining: z.number().int() })
    .optional(),
});
