import { z } from 'zod';

/** SPEC §5: `base64_image` (a data-URI prefix is allowed) and the optional `mask`. */
export const ocrIdcardSchema = z.object({
  base64_image: z.string().trim().min(1, '이미지를 Base64로 보내세요.'),
  mask: z.boolean().default(false),
});

export type OcrIdcardInput = z.output<typeof ocrIdcardSchema>;
