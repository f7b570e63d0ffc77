import type { Request, RequestHandler, Response } from 'express';
import type { Runtime } from '../../src/runtime.js';

const NOT_FOUND_PAGE = `<!doctype html>
<html lang="ko"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>링크를 찾을 수 없습니다</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.6}</style>
</head><body><h1>링크를 찾을 수 없습니다</h1>
<p>요청한 단축 URL이 없거나 잘못 입력되었습니다. 주소를 다시 확인해 주세요.</p></body></html>`;

/**
 * `GET {short_url_base}/<code>`: the hottest path, mounted ahead of logging and body parsing.
 * A cached code is answered synchronously; the click is recorded after the answer, in a batch.
 */
export function redirectHandler(runtime: Runtime): RequestHandler {
  const basePath = new URL(runtime.config.SHORT_URL_BASE).pathname.replace(/\/+$/, '');
  const pattern = new RegExp(`^${escapeRegExp(basePath)}/([0-9A-Za-z]{5})/?$`);
  const { redirects } = runtime;

  function redirect(req: Request, res: Response, target: { linkId: number; url: string }): void {
    res.writeHead(302, {
      Location: target.url,
      'Cache-Control': 'private, no-store',
      'X-Robots-Tag': 'noindex',
      'Content-Length': '0',
    });
    res.end();
    redirects.recordClick({ linkId: target.linkId, referrer: req.headers.referer, userAgent: req.headers['user-agent'] });
  }

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const code = pattern.exec(req.path)?.[1];
    if (!code) return next();
    const cached = redirects.peek(code);
    if (cached) return redirect(req, res, cached);
    redirects
      .resolve(code)
      .then((target) => (target ? redirect(req, res, target) : notFound(req, res)))
      .catch(next);
  };
}

function notFound(req: Request, res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Robots-Tag', 'noindex');
  if (req.accepts(['json', 'html']) === 'html') {
    res.status(404).type('html').send(NOT_FOUND_PAGE);
  } else {
    res.status(404).json({ success: false, code: 404, error: '단축 URL을 찾을 수 없습니다.', error_code: 'NOT_FOUND' });
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
