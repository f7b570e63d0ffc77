import { z } from 'zod';
import { MAX_SCAN_CHARS } from './extract-urls.js';
import { SCAM_TYPES } from './scam-types.js';

/** `POST /api/v1/url/scan`: a message's text, a picture of it (SMS screenshot or QR code), or both. */
export const urlScanSchema = z
  .object({
    text: z
      .string()
      .max(MAX_SCAN_CHARS, `메시지는 ${MAX_SCAN_CHARS.toLocaleString('ko-KR')}자 이하여야 합니다.`)
      .optional()
      .meta({
        description: '검사할 메시지 글 (문자, 카카오톡, 메일 본문 등)',
        examples: ['[CJ대한통운] 주소지 불일치로 반송 예정. 확인 http://cj-track.example/a'],
      }),
    // The decoded limit (10 MB, 413 beyond it) is checked on the bytes; this documents its Base64 length.
    base64_image: z
      .string()
      .trim()
      .min(1, '이미지를 Base64로 보내세요.')
      .optional()
      .meta({ description: '문자 캡처 화면이나 QR 코드 사진 (JPEG, PNG, WebP; Base64)', maxLength: 14_000_000 }),
  })
  .refine((input) => (input.text?.trim().length ?? 0) > 0 || input.base64_image !== undefined, {
    message: "'text'(메시지 글)나 'base64_image'(문자 캡처·QR 코드 사진) 중 하나를 보내 주세요.",
  });

export type UrlScanInput = z.output<typeof urlScanSchema>;

/** The answer's domain part (the door adds `success`, `api`, `remaining`). */
export const urlScanOutputSchema = z.object({
  urls: z.array(
    z.object({
      url: z.string().describe('메시지에서 찾은 URL (절대 주소로 고친 형태)'),
      final_url: z.string().describe('단축 URL을 따라간 최종 주소 (따라가지 않았으면 url과 같음)'),
      is_malicious: z.boolean(),
      category: z.enum(['clean', 'spam', 'gambling', 'adult', 'phishing', 'malware']),
      reason: z.string(),
    }),
  ),
  is_smishing: z.boolean().describe('스미싱·사기 문자로 판단했는지 (링크가 없어도 참일 수 있음)'),
  scam_type: z.enum(SCAM_TYPES).nullable().describe('사기 유형 (스미싱이 아니면 null)'),
  scam_label: z.string().nullable().describe('사기 유형의 한국어 이름 (예: 가족·지인 사칭)'),
  advice: z.string().describe('지금 할 일 (한국어 문장)'),
  score: z.number().min(0).max(1).describe('사기일 가능성 0–1: 0.5부터 스미싱, 0.9부터 확실 (링크 가드는 이때만 경고)'),
  reasons: z.array(z.string()).describe('판단 이유 (한국어 문장)'),
  urls_found: z.number().int().describe('메시지에서 찾은 서로 다른 URL 수 (처음 20개만 검사·과금)'),
});
