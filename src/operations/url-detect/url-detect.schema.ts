import { z } from 'zod';

export const MAX_DETECT_URL_LENGTH = 2048;

/** Validated before any quota is taken: a malformed URL costs nothing (400 naming `url`). */
export const urlDetectSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'URL을 입력하세요.')
    .max(MAX_DETECT_URL_LENGTH, `URL은 ${MAX_DETECT_URL_LENGTH}자 이하여야 합니다.`)
    .refine(
      (value) => /^https?:\/\/[^/?#\s]/i.test(value) && URL.canParse(value),
      'http:// 또는 https://로 시작하는 올바른 URL이 아닙니다.',
    ),
});

export type UrlDetectInput = z.output<typeof urlDetectSchema>;

export const URL_CATEGORIES = ['clean', 'spam', 'gambling', 'adult', 'phishing', 'malware'] as const;

export const urlDetectOutputSchema = z.object({
  is_malicious: z.boolean(),
  category: z.enum(URL_CATEGORIES),
  reason: z.string(),
  url: z.string().describe('판정한 URL의 정규화된 형태'),
  source: z.string().describe('판정 근거: allowlist, list, rules, llm'),
});
