import type { Request, RequestHandler } from 'express';
import type { Account } from '../../src/platform/accounts.js';
import type { ApiKeys } from '../../src/platform/api-keys.js';
import { AppError } from '../../src/errors.js';
import type { Runtime } from '../../src/runtime.js';
import { jsonBody } from './body.js';

declare module 'express-serve-static-core' {
  interface Request {
    account?: Account;
  }
}

/** The login token of `Authorization: Bearer <token>`, if any. */
export function bearerToken(req: Request): string | undefined {
  const header = req.get('authorization');
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1];
}

/** The account of the request, once an auth middleware has run. */
export function accountOf(req: Request): Account {
  if (!req.account) throw new Error('auth middleware missing on this route');
  return req.account;
}

/** The 401s of the HTTP door: thrown here, and shown in the docs of every route by its auth kind. */
export const missingKey = () => new AppError('UNAUTHORIZED', 'API 키가 필요합니다. X-API-Key 헤더에 키를 넣어 주세요.');
export const badKey = () => new AppError('UNAUTHORIZED', '유효하지 않은 API 키입니다.');
export const badToken = () => new AppError('UNAUTHORIZED', '로그인이 필요하거나 토큰이 만료되었습니다. 다시 로그인하세요.');

/** The account of an `X-API-Key` value, the one key lookup of both doors: 401 when unknown. */
export async function accountForKey(apiKeys: ApiKeys, key: string): Promise<Account> {
  const account = await apiKeys.authenticate(key.trim());
  if (!account) throw badKey();
  return account;
}

/** The 401s a route of this auth kind can answer. */
export function authErrors(accepts: 'key' | 'token' | 'either'): AppError[] {
  if (accepts === 'key') return [missingKey(), badKey()];
  if (accepts === 'token') return [badToken()];
  return [missingKey(), badKey(), badToken()];
}

/**
 * `X-API-Key` (the operations), `Authorization: Bearer` (account pages), or either; then the
 * JSON body is read. The key is checked (format, then lookup) before a byte of the body is
 * buffered: without a valid one the answer is 401 whatever the body holds.
 */
export function authenticate(runtime: Runtime, accepts: 'key' | 'token' | 'either', readBody: RequestHandler = jsonBody()): RequestHandler {
  const { apiKeys, accounts } = runtime.platform;
  return async (req, res, next) => {
    const key = req.get('x-api-key');
    const token = bearerToken(req);
    if (key !== undefined && accepts !== 'token') {
      req.account = await accountForKey(apiKeys, key);
    } else if (token && accepts !== 'key') {
      req.account = await accounts.accountForToken(token);
      if (!req.account) throw badToken();
    } else {
      throw accepts === 'token' ? badToken() : missingKey();
    }
    readBody(req, res, next);
  };
}
