import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { AppError, errorBody } from '../../src/errors.js';
import type { Redirects } from '../../src/operations/shorten/redirects.js';
import type { UrlVerdict } from '../../src/operations/url-detect/checker.js';
import { CATEGORY_LABEL } from '../../src/operations/url-detect/category-labels.js';
import type { Runtime } from '../../src/runtime.js';

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>링크를 찾을 수 없습니다</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.6}</style>
</head><body><h1>링크를 찾을 수 없습니다</h1>
<p>요청한 단축 URL이 없거나 잘못 입력되었습니다. 주소를 다시 확인해 주세요.</p></body></html>`;

type RedirectTarget = { linkId: number; url: string };

/**
 * `GET {short_url_base}/<code>`: the hottest path, mounted ahead of logging and body parsing.
 * Cached, safe codes are answered before express (api/http-server.ts); this handles the rest:
 * a first lookup, an unknown code, and a target that a list now marks as harmful.
 */
export function redirectHandler(runtime: Runtime): RequestHandler {
  const basePath = new URL(runtime.config.SHORT_URL_BASE).pathname.replace(/\/+$/, '');
  const pattern = new RegExp(`^${escapeRegExp(basePath)}/([0-9A-Za-z]{5})/?$`);
  const { redirects } = runtime;

  function redirect(req: Request, res: Response, target: RedirectTarget): void {
    const verdict = redirects.warning(target);
    if (verdict) return warn(req, res, target.url, verdict);
    sendRedirect(req, res, redirects, target);
  }

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const code = pattern.exec(req.path)?.[1];
    if (!code) return next();
    redirects
      .resolve(code)
      .then((target) => (target ? redirect(req, res, target) : notFound(req, res)))
      .catch(next);
  };
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
  redirects.recordClick({ linkId: target.linkId, referrer: req.headers.referer, userAgent: req.headers['user-agent'] });
}

function notFound(req: Request, res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex');
  if (req.accepts(['json', 'html']) === 'html') {
    res.status(404).type('html').send(NOT_FOUND_PAGE);
  } else {
    res.status(404).json(errorBody(new AppError('NOT_FOUND', '단축 URL을 찾을 수 없습니다.')));
  }
}

/**
 * A link whose target is now on a harmful-URL list: a Korean warning page (or JSON for API
 * clients) instead of the redirect. The target is shown as text, never as a link.
 */
function warn(req: Request, res: Response, url: string, verdict: UrlVerdict): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex');
  const label = verdict.category === 'clean' ? '유해' : CATEGORY_LABEL[verdict.category];
  const message = `이 단축 URL의 목적지는 ${label} 사이트로 확인되어 이동을 차단했습니다.`;
  if (req.accepts(['json', 'html']) === 'html') {
    res
      .status(403)
      .type('html')
      .send(warningPage(label, message, verdict.reason, url));
  } else {
    res
      .status(403)
      .json(errorBody(new AppError('FORBIDDEN', message, { is_malicious: true, category: verdict.category, reason: verdict.reason })));
  }
}

function warningPage(label: string, message: string, reason: string, url: string): string {
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

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
