import { z } from 'zod';

/** SPEC §5: `base64_image` (a data-URI prefix is allowed) and the optional `mask`. */
export const ocrIdcardSchema = z.object({
  // The decoded limit (10 MB, 413 beyond it) is checked on the bytes; this documents its Base64 length.
  base64_image: z.string().trim().min(1, '이미지를 Base64로 보내세요.').meta({ maxLength: 14_000_000 }),
  mask: z.boolean().default(false),
});

export type OcrIdcardInput = z.output<typeof ocrIdcardSchema>;
