import type { RequestHandler } from 'express';

/**
 * The portal, the docs and every answer: no framing (clickjacking of the key page), no MIME
 * sniffing (a JSON answer is never run as a script), and a content policy that allows only the
 * service's own scripts. Inline styles stay allowed (Swagger UI and the Korean 404/warning
 * pages set them); inline scripts do not — the portal and the docs load theirs from files.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Name, value, name, value…: the shape `res.writeHead` takes (api/http-answer.ts writes them in one go). */
export const SECURITY_HEADERS: readonly string[] = [
  'Content-Security-Policy',
  CONTENT_SECURITY_POLICY,
  'X-Frame-Options',
  'DENY',
  'X-Content-Type-Options',
  'nosniff',
  'Cross-Origin-Opener-Policy',
  'same-origin',
];

export const securityHeaders: RequestHandler = (_req, res, next) => {
  for (let i = 0; i < SECURITY_HEADERS.length; i += 2) res.setHeader(SECURITY_HEADERS[i]!, SECURITY_HEADERS[i + 1]!);
  next();
};
