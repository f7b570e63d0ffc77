import { z } from 'zod';
import { bulkShortenOutputSchema } from '../../src/operations/shorten/bulk.js';
import { parseQrQuery, QR_DEFAULT_SIZE, QR_MAX_SIZE, QR_MIN_SIZE, qrTarget, renderQr } from '../../src/operations/shorten/qr.js';
import { shortUrl } from '../../src/operations/shorten/shorten.js';
import { CATEGORY_LABEL } from '../../src/operations/url-detect/category-labels.js';
import { quotaExceeded, subscriptionRequired } from '../../src/platform/subscriptions.js';
import type { Runtime } from '../../src/runtime.js';
import { koreanDateTime } from '../../src/seoul-time.js';
import { sendError } from '../middleware/errors.js';
import { defineRoute, type Route } from '../route.js';
import { RATE_LIMIT_HEADERS } from './operations.js';
import { escapeHtml, linkGone, shortLinkNotFound } from './redirect.js';

const EXAMPLE_RENEWAL = new Date('2026-11-30T15:00:00.000Z');
const codeParams = z.object({ code: z.string().meta({ pattern: '^[0-9A-Za-z]{5}$', examples: ['aZ3k9'] }) });
const CODE = /^[0-9A-Za-z]{5}$/;

/**
 * Issue 36's routes beside SPEC's shortener: bulk creation (an operation: one `url-shortener`
 * call per link made), a link's QR code, and its preview page (`<code>+`).
 */
export function shortLinkRoutes(runtime: Runtime): Route[] {
  const operation = runtime.shortenBulk;
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/url/shorten/bulk',
      tag: '보안/안전',
      summary: `URL 여러 개를 한 번에 단축 (최대 100개): 항목마다 성공 또는 오류 본문, 새로 만든 링크마다 1회 차감`,
      operationId: 'shortenUrls',
      auth: 'key',
      body: {
        schema: operation.schema,
        example: {
          urls: ['https://www.example.com/a', 'https://www.example.com/b'],
          utm: { source: 'kakao', medium: 'social', campaign: 'winter' },
        },
        validatedBy: 'core',
      },
      answers: {
        200: {
          description: '항목별 결과 (요청 순서)',
          schema: bulkShortenOutputSchema.extend({
            success: z.literal(true),
            api: z.literal('url-shortener'),
            remaining: z.number().int(),
          }),
          example: {
            success: true,
            results: [
              { success: true, short_url: 'http://localhost:3000/s/aZ3k9', code: 'aZ3k9', url: 'https://www.example.com/a', created: true },
              {
                success: false,
                code: 400,
                error: "'url' 필드: http:// 또는 https://로 시작하는 올바른 URL이 아닙니다.",
                error_code: 'INVALID_REQUEST',
                field: 'url',
              },
            ],
            created: 1,
            failed: 1,
            api: 'url-shortener',
            remaining: 998,
          },
          headers: RATE_LIMIT_HEADERS,
        },
      },
      errors: [subscriptionRequired('harmful-url-detection'), quotaExceeded('url-shortener', EXAMPLE_RENEWAL, 721673)],
      operation,
    }),
  ];
}

/** The public pages of a code (mounted early, beside the redirect). */
export function shortLinkPageRoutes(runtime: Runtime): Route[] {
  const basePath = new URL(runtime.config.SHORT_URL_BASE).pathname.replace(/\/+$/, '');
  const { redirects } = runtime;
  return [
    defineRoute({
      method: 'get',
      path: `${basePath}/:code/qr`,
      operationId: 'getShortLinkQr',
      tag: '보안/안전',
      summary:
        '단축 URL의 QR 코드 (쿼리 format=svg|png, 기본 svg; size=64~2048 픽셀, 기본 300). 오류 정정 M, 여백 4칸. QR로 연 클릭은 통계에서 따로 셉니다 (?qr=1)',
      auth: 'none',
      params: codeParams,
      query: z.object({
        format: z.enum(['svg', 'png']).optional().describe('이미지 형식 (기본 svg)'),
        size: z.coerce.number().int().min(QR_MIN_SIZE).max(QR_MAX_SIZE).optional().describe(`한 변의 픽셀 수 (기본 ${QR_DEFAULT_SIZE})`),
      }),
      answers: { 200: { description: 'QR 코드 이미지 (image/svg+xml 또는 image/png)', media: 'image' } },
      errors: [shortLinkNotFound()],
      handler: async ({ params }, req, res) => {
        const qr = parseQrQuery(req.query as Record<string, unknown>);
        const target = CODE.test(params.code) ? await redirects.resolve(params.code) : undefined;
        if (!target) return sendError(res, shortLinkNotFound());
        const image = await renderQr(qrTarget(shortUrl(runtime.config.SHORT_URL_BASE, params.code)), qr);
        res.setHeader('Cache-Control', 'public, max-age=86400');
        res.setHeader('X-Robots-Tag', 'noindex');
        res.status(200).type(image.contentType).send(image.body);
      },
    }),
    defineRoute({
      method: 'get',
      path: `${basePath}/:code\\+`,
      operationId: 'previewShortLink',
      tag: '보안/안전',
      summary: '단축 URL 미리보기: 이동하지 않고 목적지, 안전 검사 결과, 만든 날짜를 보여 줍니다 (브라우저에는 HTML, API에는 JSON)',
      auth: 'none',
      params: codeParams,
      answers: {
        200: {
          description: '미리보기',
          schema: z.object({
            success: z.literal(true),
            code: z.string(),
            url: z.string(),
            created_at: z.string(),
            safety: z.object({ is_malicious: z.boolean(), category: z.string(), reason: z.string() }),
          }),
          example: {
            success: true,
            code: 'aZ3k9',
            url: 'https://www.example.com/',
            created_at: '2026-11-22T06:00:00.000Z',
            safety: { is_malicious: false, category: 'clean', reason: '유해 목록에 없는 주소입니다.' },
          },
        },
        410: { description: '만료되었거나 클릭 수를 다 쓴 링크 (목적지는 보이지 않음)', media: 'text/html' },
      },
      errors: [shortLinkNotFound(), linkGone('expired')],
      handler: async ({ params }, req, res) => {
        const link = CODE.test(params.code) ? await runtime.shortLinks.findPreview(params.code) : undefined;
        if (!link) return sendError(res, shortLinkNotFound());
        const now = runtime.clock().getTime();
        const gone =
          link.expiresAt && link.expiresAt.getTime() <= now
            ? 'expired'
            : link.maxClicks && link.clicksUsed >= link.maxClicks
              ? 'used_up'
              : undefined;
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('X-Robots-Tag', 'noindex');
        if (gone) return sendError(res, linkGone(gone));
        const verdict = redirects.warning({
          linkId: link.id,
          url: link.url,
          ...(link.harmCategory ? { harm: { category: link.harmCategory, reason: link.harmReason ?? '' } } : {}),
        });
        const safety = verdict
          ? { is_malicious: true, category: verdict.category, reason: verdict.reason }
          : {
              is_malicious: false,
              category: 'clean',
              reason: link.scannedAt ? '다시 검사한 결과 유해 신호가 없습니다.' : '유해 목록에 없는 주소입니다.',
            };
        const body = { success: true as const, code: link.code, url: link.url, created_at: link.createdAt.toISOString(), safety };
        if (req.accepts(['json', 'html']) !== 'html') return body;
        res.status(200).type('html').send(previewPage(runtime.config.SHORT_URL_BASE, body));
      },
    }),
  ];
}

function previewPage(
  base: string,
  link: { code: string; url: string; created_at: string; safety: { is_malicious: boolean; category: string; reason: string } },
): string {
  const harmful = link.safety.is_malicious;
  const label = CATEGORY_LABEL[link.safety.category as keyof typeof CATEGORY_LABEL] ?? '유해';
  const verdict = harmful
    ? `<p class="bad">⚠ ${escapeHtml(label)} 사이트로 확인된 주소입니다. 열지 마세요.</p>`
    : `<p class="ok">✔ 알려진 위험 신호가 없습니다.</p>`;
  // A harmful target is shown as text only; a safe one may be opened through the short link (counted, limits applied).
  const go = harmful
    ? ''
    : `<p><a href="${escapeHtml(shortUrl(base, link.code))}" rel="noopener noreferrer nofollow">이 주소로 이동</a></p>`;
  return `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>단축 URL 미리보기</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.6}
code{word-break:break-all;background:#f4f4f4;padding:.1rem .3rem}.bad{color:#b00020;font-weight:600}.ok{color:#1b5e20}</style>
</head><body><h1>단축 URL 미리보기</h1>
<p>목적지 주소: <code>${escapeHtml(link.url)}</code></p>
${verdict}<p>안전 검사 사유: ${escapeHtml(link.safety.reason)}</p>
<p>만든 날짜: ${escapeHtml(koreanDateTime(new Date(link.created_at)))}</p>
${go}</body></html>`;
}
