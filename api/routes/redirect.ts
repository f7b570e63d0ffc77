import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import type { Redirects, Target } from '../../src/operations/shorten/redirects.js';
import type { UrlVerdict } from '../../src/operations/url-detect/checker.js';
import { CATEGORY_LABEL } from '../../src/operations/url-detect/category-labels.js';
import type { Runtime } from '../../src/runtime.js';
import { sendError } from '../middleware/errors.js';
import { defineRoute, type Route } from '../route.js';

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>링크를 찾을 수 없습니다</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.6}</style>
</head><body><h1>링크를 찾을 수 없습니다</h1>
<p>요청한 단축 URL이 없거나 잘못 입력되었습니다. 주소를 다시 확인해 주세요.</p></body></html>`;

export type RedirectTarget = Target;

/** 410 of an expired or used-up link (issue 36): the original target is not revealed. */
export function linkGone(reason: 'expired' | 'used_up'): AppError {
  return reason === 'expired'
    ? new AppError('GONE', '유효 기간이 지난 단축 URL입니다.').en('This short link has expired.')
    : new AppError('GONE', '허용된 클릭 수를 모두 사용한 단축 URL입니다.').en('This short link has used up its clicks.');
}

const GONE_PAGE = (title: string, text: string) => `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.6}</style>
</head><body><h1>${title}</h1><p>${text}</p>
<p>링크를 보낸 분께 새 링크를 요청해 주세요.</p></body></html>`;

/** 404 of an unknown short code (JSON callers; browsers get NOT_FOUND_PAGE). */
export const shortLinkNotFound = () => new AppError('NOT_FOUND', '단축 URL을 찾을 수 없습니다.').en('No such short link.');

/** 403 of a short link whose target a harmful-URL list now names (JSON callers; browsers get the warning page). */
export function blockedTarget(verdict: Pick<UrlVerdict, 'category' | 'reason'>): AppError {
  const label = blockedLabel(verdict);
  return new AppError('FORBIDDEN', `이 단축 URL의 목적지는 ${label} 사이트로 확인되어 이동을 차단했습니다.`, {
    is_malicious: true,
    category: verdict.category,
    reason: verdict.reason,
  }).en('The destination of this short link is on a harmful-URL list, so the redirect was blocked.');
}

const blockedLabel = (verdict: Pick<UrlVerdict, 'category'>) => (verdict.category === 'clean' ? '유해' : CATEGORY_LABEL[verdict.category]);

/**
 * `GET {short_url_base}/<code>`: the hottest path, mounted ahead of logging and body parsing.
 * Cached, safe codes are answered before express (api/http-server.ts); this handles the rest:
 * a first lookup, an unknown code, and a target that a list now marks as harmful.
 */
export function redirectRoutes(runtime: Runtime): Route[] {
  const basePath = new URL(runtime.config.SHORT_URL_BASE).pathname.replace(/\/+$/, '');
  const pattern = new RegExp(`^${escapeRegExp(basePath)}/([0-9A-Za-z]{5})/?$`);
  const { redirects } = runtime;
  const html = { media: 'text/html' } as const;

  return [
    defineRoute({
      method: 'get',
      path: `${basePath}/:code`,
      operationId: 'followShortLink',
      tag: '보안/안전',
      summary: '단축 URL로 이동 (302). 나중에 유해 목록에 오른 주소는 경고 페이지(403, 브라우저에는 HTML)',
      auth: 'none',
      params: z.object({ code: z.string().meta({ pattern: '^[0-9A-Za-z]{5}$', examples: ['aZ3k9'] }) }),
      answers: {
        302: { description: '원래 URL로 이동', media: 'none', headers: { Location: { example: 'https://www.example.com/' } } },
        403: { description: '유해 목록에 오른 주소: 경고 페이지', ...html },
        404: { description: '없는 코드: 안내 페이지', ...html },
        410: { description: '만료되었거나 클릭 수(max_clicks)를 다 쓴 링크: 안내 페이지 (목적지는 보이지 않음)', ...html },
      },
      errors: [
        blockedTarget({ category: 'phishing', reason: '피싱 사이트 목록에 있는 도메인입니다.' }),
        shortLinkNotFound(),
        linkGone('expired'),
      ],
      handler: async (_input, req, res, next) => {
        const code = pattern.exec(req.path)?.[1];
        if (!code) return next();
        const target = await redirects.resolve(code);
        if (!target) return notFound(req, res);
        const verdict = redirects.warning(target);
        if (verdict) return warn(req, res, target.url, verdict);
        if (target.limited) {
          // Bots, link previewers and HEAD requests never take one of the link's clicks.
          const counts = req.method === 'GET' && !redirects.isBot(req.headers['user-agent']);
          const admission = await redirects.admit(target, { counts });
          if (admission !== 'go') return gone(req, res, admission);
        }
        sendRedirect(req, res, redirects, target);
      },
    }),
  ];
}

/** 302 to the link's target; the click is counted after the answer. */
export function sendRedirect(req: IncomingMessage, res: ServerResponse, redirects: Redirects, target: RedirectTarget): void {
  res.writeHead(302, {
    Location: target.url,
    'Cache-Control': 'private, no-store',
    'X-Robots-Tag': 'noindex',
    'Content-Length': '0',
  });
  res.end();
  if (req.method !== 'GET') return;
  const url = req.url ?? '';
  redirects.recordClick({
    linkId: target.linkId,
    referrer: req.headers.referer,
    userAgent: req.headers['user-agent'],
    ip: clientIp(req),
    qr: url.includes('?') && /[?&]qr=1(&|$)/.test(url),
  });
}

/**
 * The visitor's address as express's `trust proxy: loopback` sees it: behind a proxy on this
 * host, the nearest X-Forwarded-For entry that is not loopback; else the socket's peer.
 */
export function clientIp(req: IncomingMessage): string | undefined {
  const peer = unmapped(req.socket.remoteAddress);
  const forwarded = req.headers['x-forwarded-for'];
  if (!peer || !isLoopback(peer) || typeof forwarded !== 'string') return peer;
  const hops = forwarded.split(',').map((hop) => unmapped(hop.trim()));
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i];
    if (hop && !isLoopback(hop)) return hop;
  }
  return peer;
}

function unmapped(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') ? address.slice(7) : address;
}

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.');
}

function gone(req: Request, res: Response, reason: 'expired' | 'used_up'): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex');
  const error = linkGone(reason);
  if (req.accepts(['json', 'html']) === 'html') {
    const page =
      reason === 'expired'
        ? GONE_PAGE('유효 기간이 지난 링크입니다', '이 단축 URL은 만든 분이 정한 유효 기간이 끝나 더 이상 열리지 않습니다.')
        : GONE_PAGE('더 이상 열 수 없는 링크입니다', '이 단축 URL은 만든 분이 정한 클릭 수를 모두 사용해 더 이상 열리지 않습니다.');
    res.status(410).type('html').send(page);
  } else {
    sendError(res, error);
  }
}

function notFound(req: Request, res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex');
  if (req.accepts(['json', 'html']) === 'html') res.status(404).type('html').send(NOT_FOUND_PAGE);
  else sendError(res, shortLinkNotFound());
}

/**
 * A link whose target is now on a harmful-URL list: a Korean warning page (or JSON for API
 * clients) instead of the redirect. The target is shown as text, never as a link.
 */
function warn(req: Request, res: Response, url: string, verdict: UrlVerdict): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex');
  const error = blockedTarget(verdict);
  if (req.accepts(['json', 'html']) === 'html') {
    res
      .status(403)
      .type('html')
      .send(warningPage(blockedLabel(verdict), error.message, verdict.reason, url));
  } else {
    sendError(res, error);
  }
}

export function warningPage(label: string, message: string, reason: string, url: string): string {
  return `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>위험한 링크입니다</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.6}
h1{color:#b00020}code{word-break:break-all;background:#f4f4f4;padding:.1rem .3rem}</style>
</head><body><h1>⚠ 위험한 링크입니다 (${escapeHtml(label)})</h1>
<p>${escapeHtml(message)}</p><p>사유: ${escapeHtml(reason)}</p>
<p>목적지 주소: <code>${escapeHtml(url)}</code></p>
<p>개인정보·금융정보를 입력하거나 앱을 설치하지 마세요. 문자로 받은 링크라면 보낸 사람에게 직접 확인하세요.</p></body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
