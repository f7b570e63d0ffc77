import { and, desc, eq, gt, inArray, lte, notInArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { accounts, sessions } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { parseInput } from '../validation.js';
import type { ApiId } from './catalog.js';
import type { LoginGuard } from './login-guard.js';
import type { PasswordHasher } from './password-hasher.js';
import { DUMMY_PASSWORD_HASH, generateLoginToken, sha256 } from './secrets.js';
import type { Subscriptions } from './subscriptions.js';

const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** Live login tokens kept per account: a new log-in beyond this ends the oldest session. */
export const MAX_SESSIONS_PER_ACCOUNT = 20;

export const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().max(254, '이메일은 254자 이하여야 합니다.').pipe(z.email('올바른 이메일 주소가 아닙니다.')),
  password: z
    .string()
    .min(8, '비밀번호는 8자 이상이어야 합니다.')
    .max(256, '비밀번호는 256자 이하여야 합니다.')
    // Eight spaces are eight characters but no secret: the length counts what is not blank.
    .refine((password) => password.replace(/\s/gu, '').length >= 8, '비밀번호는 공백을 빼고 8자 이상이어야 합니다.'),
});

/**
 * Log-in checks only that a password was sent: a wrong password is a wrong password (401),
 * whatever its length — the sign-up rule belongs to sign-up.
 */
export const loginSchema = credentialsSchema.extend({
  password: z.string().min(1, '비밀번호를 입력하세요.').max(256, '비밀번호는 256자 이하여야 합니다.'),
});

export interface Account {
  id: number;
  email: string;
}

export interface AccountsOptions {
  clock: Clock;
  /** Brute-force limits (log-in failures, attempts and sign-ups per address). */
  guard: LoginGuard;
  /** scrypt behind a semaphore. */
  passwords: PasswordHasher;
  /** The APIs a new account is subscribed to (the catalogue's open ones, src/operations/catalog.ts). */
  openApis: ApiId[];
}

/** Where a sign-up or log-in comes from (the client address), for the per-address limits. */
export interface Origin {
  address?: string | undefined;
}

/** Sign-up, log-in, log-out and login-token checks. */
export interface Accounts {
  /** Creates the account and subscribes it to the APIs that need no explicit subscription (409 when the email is taken; 429 beyond the sign-ups of an address). */
  register(raw: unknown, origin?: Origin): Promise<Account>;
  /** Checks the password and issues a login token that expires in 24 hours (401 otherwise; 429 while throttled). */
  login(raw: unknown, origin?: Origin): Promise<{ token: string; expiresAt: Date }>;
  /** Ends the session of a login token at once. */
  logout(token: string): Promise<void>;
  /** Deletes expired sessions, a batch at a time (housekeeping); returns how many went. */
  purgeExpiredSessions(batch?: number): Promise<number>;
  /** The account behind a login token, or undefined when the token is unknown or expired. */
  accountForToken(token: string): Promise<Account | undefined>;
}

export const emailTaken = () => new AppError('EMAIL_TAKEN', '이미 가입된 이메일입니다.', { field: 'email' });
export const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', '이메일 또는 비밀번호가 올바르지 않습니다.');

export function createAccounts(db: Database, subscriptions: Pick<Subscriptions, 'subscribeAll'>, options: AccountsOptions): Accounts {
  const now = options.clock;
  const { guard, passwords } = options;

  /** Drops the account's expired sessions and all but its newest live ones. */
  async function trimSessions(accountId: number): Promise<void> {
    const keep = db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.accountId, accountId), gt(sessions.expiresAt, now())))
      .orderBy(desc(sessions.id))
      .limit(MAX_SESSIONS_PER_ACCOUNT);
    await db.delete(sessions).where(and(eq(sessions.accountId, accountId), notInArray(sessions.id, keep)));
  }

  return {
    /** Creates the account and subscribes it to the APIs that need no explicit subscription. */
    async register(raw: unknown, origin: Origin = {}): Promise<Account> {
      const { email, password } = parseInput(credentialsSchema, raw);
      await guard.beforeSignUp(origin.address);
      const passwordHash = await passwords.hash(password);
      const [account] = await db
        .insert(accounts)
        .values({ email, passwordHash })
        .onConflictDoNothing({ target: accounts.email })
        .returning({ id: accounts.id, email: accounts.email });
      if (!account) throw emailTaken();
      await subscriptions.subscribeAll(account.id, options.openApis);
      return account;
    },

    /** Checks the password and issues a login token that expires in 24 hours. */
    async login(raw: unknown, origin: Origin = {}): Promise<{ token: string; expiresAt: Date }> {
      const { email, password } = parseInput(loginSchema, raw);
      // A flood past the hashing lane is refused first: before the throttle's writes and the lookup.
      passwords.refuseIfFull();
      await guard.beforeLogin(email, origin.address);
      const [account] = await db.select().from(accounts).where(eq(accounts.email, email));
      // Verify against a dummy hash when there is no account: the timing must not tell.
      const valid = await passwords.verify(password, account?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!account || !valid) {
        await guard.loginFailed(email);
        throw invalidCredentials();
      }
      await guard.loginSucceeded(email);
      const { token, hash } = generateLoginToken();
      const expiresAt = new Date(now().getTime() + SESSION_TTL_MS);
      await db.insert(sessions).values({ accountId: account.id, tokenHash: hash, expiresAt });
      await trimSessions(account.id);
      return { token, expiresAt };
    },

    /** Ends the session of a login token at once (unknown or expired tokens: nothing to do). */
    async logout(token: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.tokenHash, sha256(token)));
    },

    /** Deletes expired sessions, a batch at a time (housekeeping); returns how many went. */
    async purgeExpiredSessions(batch = 10_000): Promise<number> {
      const expired = db.select({ id: sessions.id }).from(sessions).where(lte(sessions.expiresAt, now())).limit(batch);
      const deleted = await db.delete(sessions).where(inArray(sessions.id, expired)).returning({ id: sessions.id });
      return deleted.length;
    },

    /** The account behind a login token, or undefined when the token is unknown or expired. */
    async accountForToken(token: string): Promise<Account | undefined> {
      const [row] = await db
        .select({ id: accounts.id, email: accounts.email })
        .from(sessions)
        .innerJoin(accounts, eq(accounts.id, sessions.accountId))
        .where(and(eq(sessions.tokenHash, sha256(token)), gt(sessions.expiresAt, now())));
      return row;
    },
  };
}
