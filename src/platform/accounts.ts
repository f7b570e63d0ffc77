import { and, eq, gt } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { accounts, sessions } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { parseInput } from '../validation.js';
import { OPEN_APIS } from './catalog.js';
import { DUMMY_PASSWORD_HASH, generateLoginToken, hashPassword, sha256, verifyPassword } from './secrets.js';
import type { Subscriptions } from './subscriptions.js';

const SESSION_TTL_MS = 24 * 60 * 60 * 1000;

export const credentialsSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(254, '이메일은 254자 이하여야 합니다.')
    .pipe(z.email('올바른 이메일 주소가 아닙니다.')),
  password: z.string().min(8, '비밀번호는 8자 이상이어야 합니다.').max(256, '비밀번호는 256자 이하여야 합니다.'),
});

export interface Account {
  id: number;
  email: string;
}

/** Sign-up, log-in and login-token checks. */
export interface Accounts {
  /** Creates the account and subscribes it to the APIs that need no explicit subscription (409 when the email is taken). */
  register(raw: unknown): Promise<Account>;
  /** Checks the password and issues a login token that expires in 24 hours (401 otherwise). */
  login(raw: unknown): Promise<{ token: string; expiresAt: Date }>;
  /** The account behind a login token, or undefined when the token is unknown or expired. */
  accountForToken(token: string): Promise<Account | undefined>;
}


export function createAccounts(db: Database, subscriptions: Pick<Subscriptions, 'subscribeAll'>, clock: Clock): Accounts {
  return {
    /** Creates the account and subscribes it to the APIs that need no explicit subscription. */
    async register(raw: unknown): Promise<Account> {
      const { email, password } = parseInput(credentialsSchema, raw);
      const passwordHash = await hashPassword(password);
      const [account] = await db
        .insert(accounts)
        .values({ email, passwordHash })
        .onConflictDoNothing({ target: accounts.email })
        .returning({ id: accounts.id, email: accounts.email });
      if (!account) throw new AppError('EMAIL_TAKEN', '이미 가입된 이메일입니다.', { field: 'email' });
      await subscriptions.subscribeAll(account.id, OPEN_APIS);
      return account;
    },

    /** Checks the password and issues a login token that expires in 24 hours. */
    async login(raw: unknown): Promise<{ token: string; expiresAt: Date }> {
      const { email, password } = parseInput(credentialsSchema, raw);
      const [account] = await db.select().from(accounts).where(eq(accounts.email, email));
      // Verify against a dummy hash when there is no account: the timing must not tell.
      const valid = await verifyPassword(password, account?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!account || !valid) {
        throw new AppError('INVALID_CREDENTIALS', '이메일 또는 비밀번호가 올바르지 않습니다.');
      }
      const { token, hash } = generateLoginToken();
      const expiresAt = new Date(clock().getTime() + SESSION_TTL_MS);
      await db.insert(sessions).values({ accountId: account.id, tokenHash: hash, expiresAt });
      return { token, expiresAt };
    },

    /** The account behind a login token, or undefined when the token is unknown or expired. */
    async accountForToken(token: string): Promise<Account | undefined> {
      const [row] = await db
        .select({ id: accounts.id, email: accounts.email })
        .from(sessions)
        .innerJoin(accounts, eq(accounts.id, sessions.accountId))
        .where(and(eq(sessions.tokenHash, sha256(token)), gt(sessions.expiresAt, clock())));
      return row;
    },
  };
}
