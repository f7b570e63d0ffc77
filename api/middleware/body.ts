import express, { type RequestHandler } from 'express';

/** JSON bodies: a 10 MB image in Base64 is ~13.4 MB, so the reader's route gets 15 MB; others 1 MB. */
const IMAGE_BODY_LIMIT = '15mb';
const DEFAULT_BODY_LIMIT = '1mb';
const IMAGE_ROUTES = new Set(['/api/v1/ocr/idcard']);

const small = express.json({ limit: DEFAULT_BODY_LIMIT, type: () => true });
const large = express.json({ limit: IMAGE_BODY_LIMIT, type: () => true });

/**
 * Any content type is read as JSON (curl's default form type included), with a per-route size
 * limit. Routes that need a key or token read the body only after the caller is known
 * (`authenticate` ends with this), so an anonymous caller cannot make the service buffer 15 MB.
 */
export const jsonBody: RequestHandler = (req, res, next) =>
  (IMAGE_ROUTES.has(req.originalUrl.split('?')[0] ?? '') ? large : small)(req, res, next);
