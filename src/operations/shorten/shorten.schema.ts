import { z } from 'zod';

export const MAX_URL_LENGTH = 2048;

/** Largest `max_clicks` a link may have. */
export const MAX_CLICK_LIMIT = 10_000_000;

const utmValue = z.string().trim().min(1, '빈 값은 쓸 수 없습니다.').max(200, '200자 이하여야 합니다.');

/** Issue 36: UTM tags appended to the target (existing parameters kept, encoded once). */
export const utmSchema = z
  .object({
    source: utmValue.describe('utm_source (예: newsletter)'),
    medium: utmValue.describe('utm_medium (예: email)'),
    campaign: utmValue.describe('utm_campaign (예: winter_sale)'),
    term: utmValue.optional().describe('utm_term'),
    content: utmValue.optional().describe('utm_content'),
  })
  .describe('UTM 태그: 목적지 URL에 utm_* 매개변수로 붙습니다 (기존 매개변수는 그대로)');

/** Issue 36: the options a link may be made with, beside SPEC's `url` and `check_harmful`. */
export const linkOptionsShape = {
  expires_at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('이 시각 이후에는 410 안내 페이지 (ISO 8601, 예: 2026-12-31T23:59:59+09:00)'),
  max_clicks: z
    .number()
    .int()
    .min(1)
    .max(MAX_CLICK_LIMIT)
    .optional()
    .describe('사람의 클릭을 이만큼 받으면 410 안내 페이지 (봇·링크 미리보기는 세지 않음)'),
  utm: utmSchema.optional(),
};

export const shortenSchema = z.object({
  url: z.string().trim().min(1, 'URL을 입력하세요.').max(MAX_URL_LENGTH, `URL은 ${MAX_URL_LENGTH}자 이하여야 합니다.`),
  check_harmful: z.boolean().default(false),
  ...linkOptionsShape,
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
  /** Issue 36: present when the link was made with them. */
  expires_at: z.string().optional(),
  max_clicks: z.number().int().optional(),
});
