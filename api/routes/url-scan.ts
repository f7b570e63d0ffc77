import { apiLabel } from '../../src/operations/catalog.js';
import { z } from 'zod';
import { quotaExceeded, subscriptionRequired } from '../../src/platform/subscriptions.js';
import { urlScanOutputSchema } from '../../src/operations/url-scan/url-scan.schema.js';
import { ocrFailed, ocrTimedOut } from '../../src/providers/ocr/tesseract-pool.js';
import type { Runtime } from '../../src/runtime.js';
import { defineRoute, type Route } from '../route.js';
import { ocrIdcardModule } from '../../src/operations/ocr-idcard/ocr-idcard.module.js';
import { RATE_LIMIT_HEADERS } from './operations.js';

const EXAMPLE_RENEWAL = new Date('2026-11-30T15:00:00.000Z');

/** The answer's example, typed by the output schema: a field the answer gains is a type error here until the example shows it. */
const SCAN_EXAMPLE = {
  urls: [
    {
      url: 'http://cj-track.example/a',
      final_url: 'http://cj-track.example/a',
      is_malicious: false,
      category: 'clean',
      reason: '알려진 위험 신호가 없습니다.',
    },
  ],
  is_smishing: true,
  scam_type: 'parcel',
  scam_label: '택배 사칭',
  advice:
    '택배 문자 속 링크를 누르지 말고, 주문한 쇼핑몰이나 택배사 공식 앱·누리집에서 운송장 번호로 직접 조회하세요. 이미 눌렀다면 설치된 앱을 지우고 118(한국인터넷진흥원)에 상담하세요.',
  score: 0.97,
  reasons: [
    "문자에 'CJ대한통운'이 나오지만 링크(cj-track.example)는 CJ대한통운의 공식 주소가 아닙니다.",
    "'주소확인', '주소지 불일치', '반송' 같은 배송·주소 확인 유도 문구가 링크와 함께 있습니다.",
    "택배 사칭 문자에 흔한 표현('반송', '주소지', '주소확인')이 있습니다.",
    '한국어 사기 문자로 학습한 모델이 이 문자를 사기 문자와 닮았다고 판단했습니다(97점/100점).',
  ],
  urls_found: 1,
} satisfies z.output<typeof urlScanOutputSchema>;

/**
 * CONTRACT §5: `POST /api/v1/url/scan` — a message's text, an SMS screenshot or a QR code photo:
 * every URL in it (at most 20 checked) with the detector's verdict, and the message judged (scam
 * type, reasons, advice, score). One `harmful-url-detection` call per message and one per URL checked.
 */
export function urlScanRoutes(runtime: Runtime): Route[] {
  const operation = runtime.urlScan;
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/url/scan',
      tag: '보안/안전',
      summary: '이거 스미싱이야? 메시지·문자 캡처·QR 코드를 판단하고 그 속 URL을 모두 검사 (메시지 1회 + URL마다 1회)',
      operationId: 'scanMessage',
      auth: 'key',
      // A screenshot in Base64 may be as large as an ID image.
      body: {
        schema: operation.schema,
        example: { text: '[CJ대한통운] 주소지 불일치로 반송 예정입니다. 주소확인 hxxp://cj-track[.]example/a' },
        validatedBy: 'core',
        limitMb: ocrIdcardModule.bodyLimitMb,
      },
      answers: {
        200: {
          description: '검사 결과',
          schema: urlScanOutputSchema.extend({
            success: z.literal(true),
            api: z.literal(operation.api),
            remaining: z.number().int().describe('이번 달 남은 호출 수 (메시지 1회, 검사한 URL마다 1회)'),
          }),
          example: { success: true, ...SCAN_EXAMPLE, api: 'harmful-url-detection', remaining: 999 },
          headers: RATE_LIMIT_HEADERS,
        },
      },
      errors: [
        subscriptionRequired(operation.api, apiLabel(operation.api)),
        quotaExceeded(operation.api, EXAMPLE_RENEWAL, 721673, apiLabel(operation.api)),
        ocrFailed(),
        ocrTimedOut(),
      ],
      operation,
    }),
  ];
}
