import type { RequestHandler } from 'express';
import { DEFAULT_BODY_LIMIT_MB, readJsonBody } from '../json-body.js';

export { DEFAULT_BODY_LIMIT_MB };

/**
 * A JSON body reader with a size limit in MB (a route declares its own: the ID reader's 10 MB
 * image in Base64 is ~13.4 MB, so it takes 15), the same reader the operation door uses
 * (api/json-body.ts). Routes that need a key or token read the body only after the caller is
 * known (`authenticate` ends with it), so an anonymous caller cannot make the service buffer 15 MB.
 */
export function jsonBody(limitMb: number = DEFAULT_BODY_LIMIT_MB): RequestHandler {
  const limitBytes = limitMb * 1024 * 1024;
  return (req, _res, next) => {
    readJsonBody(req, limitBytes).then((body) => {
      req.body = body;
      next();
    }, next);
  };
}
