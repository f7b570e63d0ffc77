import { z } from 'zod';
import { TONE_NAMES, toneCode, toneList } from './tone-names.js';

export const MAX_TONE_TEXT = 3000;

/** SPEC §2's ten tone codes, `formal` first (the default). */
export const TONES = ['formal', 'casual', 'informal', 'professional', 'emotive', 'child', 'cute', 'lovely', 'elder', 'thug'] as const;

export type Tone = (typeof TONES)[number];

export const toneSchema = z.object({
  text: z
    .string()
    .refine((text) => text.trim().length > 0, '변환할 텍스트를 입력하세요.')
    // Characters as people count them (code points), not UTF-16 units: an emoji is one.
    .refine((text) => [...text].length <= MAX_TONE_TEXT, `텍스트는 ${MAX_TONE_TEXT.toLocaleString('en-US')}자 이하여야 합니다.`)
    .meta({ maxLength: MAX_TONE_TEXT }),
  // The Korean names are taken too (해요체 → casual); the answer gives the code (tone-names.ts).
  target_tone: z.preprocess(toneCode, z.enum(TONES, { error: `지원하는 말투: ${toneList()}` }).default('formal')).meta({
    description: `말투 코드 또는 한국어 이름 (응답은 코드): ${toneList()}`,
    enum: [...TONES, ...TONES.map((tone) => TONE_NAMES[tone].ko)],
  }),
});

export type ToneInput = z.output<typeof toneSchema>;

export const toneOutputSchema = z.object({ transformed_text: z.string(), target_tone: z.enum(TONES) });
