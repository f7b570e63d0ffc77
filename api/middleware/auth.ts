import type { Request, RequestHandler } from 'express';
import type { Account, Member } from '../../src/platform/accounts.js';
import type { Attribution, AuditActor } from '../../src/platform/audit-log.js';
import { forbiddenRole, roleHolds, type Right } from '../../src/platform/roles.js';
import { memberActor } from '../../src/platform/team.js';
import type { ApiKeys } from '../../src/platform/api-keys.js';
import { AppError } from '../../src/errors.js';
import type { Runtime } from '../../src/runtime.js';
import { jsonBody } from './body.js';

declare module 'express-serve-static-core' {
  interface Request {
    account?: Account;
    /** The signed-in member, when the request came with a login token (none with an API key). */
    member?: Member;
    /** The API key's row id and prefix, when the request came with one. */
    apiKey?: { id: number; prefix: string };
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

/** The member of a login-token request, once the auth middleware has run. */
export function memberOf(req: Request): Member {
  if (!req.member) throw new Error('token auth missing on this route');
  return req.member;
}

/** The session (team and member) of a login-token request. */
export const sessionOf = (req: Request) => ({ account: accountOf(req), member: memberOf(req) });

/** Who made the request, for the audit log: the member, or the API key (its prefix, never the key). */
export function actorOf(req: Request): AuditActor {
  if (req.member) return memberActor(req.member);
  if (req.apiKey) return { kind: 'api_key', id: String(req.apiKey.id), label: req.apiKey.prefix };
  throw new Error('auth middleware missing on this route');
}

/** Who made the request and from where, for the audit row of the change it asks for. */
export const attributionOf = (req: Request): Attribution => ({ actor: actorOf(req), ip: req.ip });

/** The 401s of the HTTP door: thrown here, and shown in the docs of every route by its auth kind. */
export const missingKey = () => new AppError('UNAUTHORIZED', 'API 키가 필요합니다. X-API-Key 헤더에 키를 넣어 주세요.');
export const badKey = () => new AppError('UNAUTHORIZED', '유효하지 않은 API 키입니다.');
export const badToken = () => new AppError('UNAUTHORIZED', '로그인이 필요하거나 토큰이 만료되었습니다. 다시 로그인하세요.');

/** The account of an `X-API-Key` value, the one key lookup of both doors: 401 when unknown. */
export async function accountForKey(apiKeys: ApiKeys, key: string): Promise<Account & { keyId: number; keyPrefix: string }> {
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
export function authenticate(
  runtime: Runtime,
  accepts: 'key' | 'token' | 'either',
  readBody: RequestHandler = jsonBody(),
  right?: Right,
): RequestHandler {
  const { apiKeys, accounts } = runtime.platform;
  return async (req, res, next) => {
    const key = req.get('x-api-key');
    const token = bearerToken(req);
    if (key !== undefined && accepts !== 'token') {
      const account = await accountForKey(apiKeys, key);
      req.account = { id: account.id, email: account.email };
      req.apiKey = { id: account.keyId, prefix: account.keyPrefix };
    } else if (token && accepts !== 'key') {
      const session = await accounts.sessionForToken(token);
      if (!session) throw badToken();
      // A member's role decides before the body is read, like the token itself.
      if (right && !roleHolds(session.member.role, right)) throw forbiddenRole(right);
      req.account = session.account;
      req.member = session.member;
    } else {
      throw accepts === 'token' ? badToken() : missingKey();
    }
    readBody(req, res, next);
  };
}
