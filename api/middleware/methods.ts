import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { AppError } from '../../src/errors.js';
import type { Route } from '../route.js';

/** 405 for a path that exists under other methods; `Allow` lists them (RFC 9110 §15.5.6). */
export function methodNotAllowed(method: string, allowed: readonly string[]): AppError {
  const list = allowed.join(', ');
  return new AppError('METHOD_NOT_ALLOWED', `이 경로는 ${method} 요청을 받지 않습니다. 쓸 수 있는 메서드: ${list}`, {}).en(
    `This path does not take ${method}; it takes ${list}.`,
  );
}

/** `/api/v1/keys/:id` → a pattern matching `/api/v1/keys/12` (and a trailing slash), case-insensitive as express matches. */
function patternOf(path: string): RegExp {
  const escaped = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${escaped}/?$`, 'i');
}

/** The methods each declared path takes, for the 405s of express's routes (after every route had its turn). */
export function methodGuard(routes: readonly Route[]): RequestHandler {
  const byPath = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  for (const route of routes) {
    const entry = byPath.get(route.path) ?? { pattern: patternOf(route.path), methods: new Set<string>() };
    entry.methods.add(route.method.toUpperCase());
    if (route.method === 'get') entry.methods.add('HEAD');
    byPath.set(route.path, entry);
  }
  const entries = [...byPath.values()];
  return (req, res, next) => {
    const allowed = new Set<string>();
    for (const entry of entries) if (entry.pattern.test(req.path)) for (const method of entry.methods) allowed.add(method);
    if (allowed.size === 0 || allowed.has(req.method)) return next();
    const list = [...allowed];
    res.setHeader('Allow', list.join(', '));
    next(methodNotAllowed(req.method, list));
  };
}

/** The operation door's 405 (its paths take POST only): `Allow: POST`. */
export function allowOnlyPost(req: IncomingMessage, res: ServerResponse): AppError {
  res.setHeader('Allow', 'POST');
  return methodNotAllowed(req.method ?? 'GET', ['POST']);
}
