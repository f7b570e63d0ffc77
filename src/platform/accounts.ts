import { and, desc, eq, gt, inArray, lte, ne, notInArray } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { accounts, sessions, teamMembers } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { parseInput } from '../validation.js';
import type { AuditLog } from './audit-log.js';
import type { ApiId } from './catalog.js';
import type { LoginGuard } from './login-guard.js';
import type { PasswordHasher } from './password-hasher.js';
import type { Role } from './roles.js';
import { createUsageStamp } from './usage-stamp.js';
import { DUMMY_PASSWORD_HASH, generateLoginToken, sha256 } from './secrets.js';
import type { Subscriptions } from './subscriptions.js';

const SESSION_TTL_MS = 24 * 60 * 60 * 1000;
/** Live login tokens kept per member: a new log-in beyond this ends the oldest session. */
export const MAX_SESSIONS_PER_MEMBER = 20;

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

/** A team (CONTRACT §3 Teams): keys, subscriptions and quotas are its own. */
export interface Account {
  id: number;
  /** The founding owner's e-mail: the team's label. */
  email: string;
}

/** A person of a team, signed in with their own e-mail and password. */
export interface Member {
  id: number;
  accountId: number;
  email: string;
  role: Role;
}

/** Who a login token belongs to: the member, and the team they act for. */
export interface Session {
  account: Account;
  member: Member;
}

export interface AccountsOptions {
  clock: Clock;
  /** Brute-force limits (log-in failures, attempts and sign-ups per address). */
  guard: LoginGuard;
  /** scrypt behind a semaphore. */
  passwords: PasswordHasher;
  /** The APIs a new account is subscribed to (the catalogue's open ones, src/operations/catalog.ts). */
  openApis: ApiId[];
  audit: AuditLog;
}

/** Where a request comes from (the client address): the per-address limits and the audit log. */
export interface Origin {
  address?: string | undefined;
}

/** Sign-up, log-in, log-out, password changes and login-token checks. */
export interface Accounts {
  /** Creates a team with its owner and subscribes it to the APIs that need no explicit subscription (409 when the e-mail is any team's member; 429 beyond the sign-ups of an address). */
  register(raw: unknown, origin?: Origin): Promise<Account>;
  /** Checks the member's password and issues a login token that expires in 24 hours (401 otherwise; 429 while throttled). */
  login(raw: unknown, origin?: Origin): Promise<{ token: string; expiresAt: Date }>;
  /** A session for a member who was just let in (an accepted invitation): the token, like log-in's. */
  startSession(member: Member): Promise<{ token: string; expiresAt: Date }>;
  /** Ends the session of a login token at once. */
  logout(token: string): Promise<void>;
  /** Changes the member's password after checking the current one; ends their other sessions (audit `password.changed`). */
  changePassword(session: Session, token: string, raw: unknown, origin?: Origin): Promise<void>;
  /** Deletes expired sessions, a batch at a time (housekeeping); returns how many went. */
  purgeExpiredSessions(batch?: number): Promise<number>;
  /** The member and team behind a login token, or undefined when the token is unknown, expired or its member removed. */
  sessionForToken(token: string): Promise<Session | undefined>;
}

export const changePasswordSchema = z.object({
  current_password: z.string().min(1, '지금 비밀번호를 입력하세요.').max(256, '비밀번호는 256자 이하여야 합니다.'),
  new_password: credentialsSchema.shape.password,
});

export const emailTaken = () => new AppError('EMAIL_TAKEN', '이미 가입된 이메일입니다.', { field: 'email' });
export const invalidCredentials = () => new AppError('INVALID_CREDENTIALS', '이메일 또는 비밀번호가 올바르지 않습니다.');
export const wrongCurrentPassword = () =>
  new AppError('INVALID_REQUEST', "'current_password' 필드: 지금 비밀번호가 올바르지 않습니다.", { field: 'current_password' }).en(
    "'current_password': the current password is wrong.",
  );

const memberColumns = { id: teamMembers.id, accountId: teamMembers.accountId, email: teamMembers.email, role: teamMembers.role };

export function createAccounts(db: Database, subscriptions: Pick<Subscriptions, 'subscribeAll'>, options: AccountsOptions): Accounts {
  const now = options.clock;
  const { guard, passwords, audit } = options;

  /** Drops the member's expired sessions and all but their newest live ones. */
  async function trimSessions(memberId: number): Promise<void> {
    const keep = db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.memberId, memberId), gt(sessions.expiresAt, now())))
      .orderBy(desc(sessions.id))
      .limit(MAX_SESSIONS_PER_MEMBER);
    await db.delete(sessions).where(and(eq(sessions.memberId, memberId), notInArray(sessions.id, keep)));
  }

  async function startSession(member: Member): Promise<{ token: string; expiresAt: Date }> {
    const { token, hash } = generateLoginToken();
    const expiresAt = new Date(now().getTime() + SESSION_TTL_MS);
    await db.insert(sessions).values({ accountId: member.accountId, memberId: member.id, tokenHash: hash, expiresAt });
    await trimSessions(member.id);
    return { token, expiresAt };
  }

  const seen = createUsageStamp((memberId, at) => db.update(teamMembers).set({ lastSeenAt: at }).where(eq(teamMembers.id, memberId)), now);

  return {
    async register(raw: unknown, origin: Origin = {}): Promise<Account> {
      const { email, password } = parseInput(credentialsSchema, raw);
      await guard.beforeSignUp(origin.address);
      const passwordHash = await passwords.hash(password);
      const account = await db.transaction(async (tx) => {
        const [team] = await tx.insert(accounts).values({ email }).returning({ id: accounts.id, email: accounts.email });
        const [owner] = await tx
          .insert(teamMembers)
          .values({ accountId: team!.id, email, passwordHash, role: 'owner' })
          .onConflictDoNothing({ target: teamMembers.email })
          .returning({ id: teamMembers.id });
        // The e-mail is some team's member already: the new team goes with the transaction.
        if (!owner) throw emailTaken();
        return team!;
      });
      await subscriptions.subscribeAll(account.id, options.openApis);
      return account;
    },

    async login(raw: unknown, origin: Origin = {}): Promise<{ token: string; expiresAt: Date }> {
      const { email, password } = parseInput(loginSchema, raw);
      // A flood past the hashing lane is refused first: before the throttle's writes and the lookup.
      passwords.refuseIfFull();
      await guard.beforeLogin(email, origin.address);
      const [member] = await db
        .select({ ...memberColumns, passwordHash: teamMembers.passwordHash })
        .from(teamMembers)
        .where(eq(teamMembers.email, email));
      // Verify against a dummy hash when there is no member: the timing must not tell.
      const valid = await passwords.verify(password, member?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!member || !valid) {
        await guard.loginFailed(email);
        throw invalidCredentials();
      }
      await guard.loginSucceeded(email);
      return startSession({ ...member, role: member.role as Role });
    },

    startSession,

    async logout(token: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.tokenHash, sha256(token)));
    },

    async changePassword(session: Session, token: string, raw: unknown, origin: Origin = {}): Promise<void> {
      const body = parseInput(changePasswordSchema, raw);
      const { member } = session;
      passwords.refuseIfFull();
      // The same throttle as log-in: a stolen session must not become a password oracle.
      await guard.beforeLogin(member.email, origin.address);
      const [row] = await db.select({ passwordHash: teamMembers.passwordHash }).from(teamMembers).where(eq(teamMembers.id, member.id));
      if (!row || !(await passwords.verify(body.current_password, row.passwordHash))) {
        await guard.loginFailed(member.email);
        throw wrongCurrentPassword();
      }
      await guard.loginSucceeded(member.email);
      const passwordHash = await passwords.hash(body.new_password);
      await db.transaction(async (tx) => {
        await tx.update(teamMembers).set({ passwordHash }).where(eq(teamMembers.id, member.id));
        // Whoever else holds a session of this member is signed out; this one stays.
        await tx.delete(sessions).where(and(eq(sessions.memberId, member.id), ne(sessions.tokenHash, sha256(token))));
        await audit.record(tx, {
          accountId: member.accountId,
          actor: { kind: 'member', id: String(member.id), label: member.email },
          action: 'password.changed',
          target: `member:${member.id} ${member.email}`,
          ip: origin.address,
        });
      });
    },

    async purgeExpiredSessions(batch = 10_000): Promise<number> {
      const expired = db.select({ id: sessions.id }).from(sessions).where(lte(sessions.expiresAt, now())).limit(batch);
      const deleted = await db.delete(sessions).where(inArray(sessions.id, expired)).returning({ id: sessions.id });
      return deleted.length;
    },

    async sessionForToken(token: string): Promise<Session | undefined> {
      // Read on every request, never cached: a removed member's next request is refused on every instance.
      const [row] = await db
        .select({ member: memberColumns, account: { id: accounts.id, email: accounts.email } })
        .from(sessions)
        .innerJoin(teamMembers, eq(teamMembers.id, sessions.memberId))
        .innerJoin(accounts, eq(accounts.id, teamMembers.accountId))
        .where(and(eq(sessions.tokenHash, sha256(token)), gt(sessions.expiresAt, now())));
      if (!row) return undefined;
      seen(row.member.id);
      return { account: row.account, member: { ...row.member, role: row.member.role as Role } };
    },
  };
}
