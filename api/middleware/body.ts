import express, { type RequestHandler } from 'express';

/** The JSON body limit of a route that declares none. */
export const DEFAULT_BODY_LIMIT_MB = 1;

const readers = new Map<number, RequestHandler>();

/**
 * A JSON body reader with a size limit in MB (a route declares its own: the ID reader's 10 MB
 * image in Base64 is ~13.4 MB, so it takes 15). Any content type is read as JSON (curl's
 * default form type included). Routes that need a key or token read the body only after the
 * caller is known (`authenticate` ends with it), so an anonymous caller cannot make the
 * service buffer 15 MB.
 */
export function jsonBody(limitMb: number = DEFAULT_BODY_LIMIT_MB): RequestHandler {
  let reader = readers.get(limitMb);
  if (!reader) readers.set(limitMb, (reader = express.json({ limit: `${limitMb}mb`, type: () => true })));
  return reader;
}
