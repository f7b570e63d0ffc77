import { and, asc, count, eq, gt, isNull, lt } from 'drizzle-orm';
import { z } from 'zod';
import type { Database, Executor } from '../../db/client.js';
import { sessions, teamInvites, teamMembers } from '../../db/schema.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { MAX_ROW_ID, parseInput } from '../validation.js';
import type { Accounts, Member, Origin, Session } from './accounts.js';
import { credentialsSchema } from './accounts.js';
import type { AuditActor, AuditLog } from './audit-log.js';
import type { PasswordHasher } from './password-hasher.js';
import { forbiddenRole, roleHolds, ROLES, type Role } from './roles.js';
import { generateLoginToken, sha256 } from './secrets.js';

/** An invitation link works this long, once. */
export const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** Open invitations per team: enough for a company, not a mailing list. */
export const MAX_OPEN_INVITES = 100;
/** Members per team. */
export const MAX_MEMBERS = 500;

const roleField = z.enum(ROLES, { error: `role은 ${ROLES.join(', ')} 중 하나여야 합니다.` });
export const inviteSchema = z.object({ email: credentialsSchema.shape.email, role: roleField });
export const joinSchema = z.object({
  token: z.string().trim().min(1, '초대 링크의 토큰을 보내세요.').max(200, '초대 토큰이 올바르지 않습니다.'),
  password: credentialsSchema.shape.password,
});
export const roleChangeSchema = z.object({ role: roleField });

export interface MemberSummary {
  id: number;
  email: string;
  role: Role;
  joined_at: string;
  last_seen_at: string | null;
}

export interface Invitation {
  id: number;
  email: string;
  role: Role;
  expires_at: string;
}

/** The people of a team (issue 48): invitations, joining, roles and removal, each with its audit row in the same transaction. */
export interface Team {
  /** A one-time invitation valid 7 days; the token is returned once (for the link), only its hash is kept. */
  invite(session: Session, raw: unknown, origin?: Origin): Promise<{ invite: Invitation; token: string }>;
  /** Takes an invitation: a new member with the invited e-mail and role, and their first session. */
  join(raw: unknown, origin?: Origin): Promise<{ token: string; expiresAt: Date; member: Member }>;
  members(accountId: number): Promise<MemberSummary[]>;
  /** Changes a member's role; only an owner makes or unmakes an owner; the last owner stays one (409). */
  changeRole(session: Session, memberId: number, raw: unknown, origin?: Origin): Promise<MemberSummary>;
  /** Removes a member (an admin or owner, or oneself); their sessions end in the same transaction; the last owner cannot go (409). */
  remove(session: Session, memberId: number, origin?: Origin): Promise<void>;
  /** Deletes invitations expired for a week (housekeeping). */
  purgeExpiredInvites(): Promise<number>;
}

export const memberNotFound = () => new AppError('NOT_FOUND', '해당 팀원을 찾을 수 없습니다.').en('No such member in your team.');
export const inviteInvalid = () =>
  new AppError('NOT_FOUND', '초대 링크가 올바르지 않거나 만료되었거나 이미 사용되었습니다. 초대한 사람에게 새 링크를 요청하세요.').en(
    'The invitation link is wrong, expired or already used. Ask for a new one.',
  );
export const alreadyMember = () =>
  new AppError('EMAIL_TAKEN', '이 이메일은 이미 팀원입니다 (한 사람은 한 팀에만 속합니다).', { field: 'email' }).en(
    'This e-mail is already a member of a team (one person, one team).',
  );
export const lastOwner = () =>
  new AppError('CONFLICT', '마지막 소유자는 역할을 바꾸거나 팀을 떠날 수 없습니다. 먼저 다른 팀원을 소유자로 지정하세요.').en(
    'The last owner cannot be demoted or leave. Make another member an owner first.',
  );
export const ownersOnly = () =>
  new AppError('FORBIDDEN_ROLE', '소유자 역할을 주거나 소유자를 바꾸는 일은 소유자만 할 수 있습니다.', { roles: ['owner'] }).en(
    'Only an owner may make or change an owner.',
  );
export const tooManyInvites = () =>
  new AppError('CONFLICT', `열린 초대가 ${MAX_OPEN_INVITES}개입니다. 만료되거나 사용된 뒤에 다시 초대하세요.`).en(
    `The team has ${MAX_OPEN_INVITES} open invitations; wait for some to be used or expire.`,
  );
export const teamFull = () =>
  new AppError('CONFLICT', `팀원은 ${MAX_MEMBERS}명까지입니다.`).en(`A team has at most ${MAX_MEMBERS} members.`);

export const memberActor = (member: Member): AuditActor => ({ kind: 'member', id: String(member.id), label: member.email });
const memberTarget = (member: { id: number; email: string }) => `member:${member.id} ${member.email}`;

interface TeamDeps {
  clock: Clock;
  passwords: PasswordHasher;
  accounts: Pick<Accounts, 'startSession'>;
  audit: AuditLog;
}

export function createTeam(db: Database, deps: TeamDeps): Team {
  const { clock, audit } = deps;

  /**
   * Locks the team's owner rows (in id order) and counts them. Every role change and removal
   * takes these locks first, so two at once cannot both pass the last-owner check, nor deadlock.
   */
  async function lockOwners(tx: Executor, accountId: number): Promise<number> {
    const owners = await tx
      .select({ id: teamMembers.id })
      .from(teamMembers)
      .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.role, 'owner')))
      .orderBy(asc(teamMembers.id))
      .for('update');
    return owners.length;
  }

  async function teamMember(tx: Executor, accountId: number, memberId: number) {
    if (memberId > MAX_ROW_ID) throw memberNotFound();
    const [row] = await tx
      .select()
      .from(teamMembers)
      .where(and(eq(teamMembers.id, memberId), eq(teamMembers.accountId, accountId)))
      .for('update');
    if (!row) throw memberNotFound();
    return row;
  }

  return {
    async invite(session, raw, origin = {}) {
      const { email, role } = parseInput(inviteSchema, raw);
      if (role === 'owner' && session.member.role !== 'owner') throw ownersOnly();
      const { token, hash } = generateLoginToken();
      const expiresAt = new Date(clock().getTime() + INVITE_TTL_MS);
      const accountId = session.account.id;
      const row = await db.transaction(async (tx) => {
        const [taken] = await tx.select({ id: teamMembers.id }).from(teamMembers).where(eq(teamMembers.email, email));
        if (taken) throw alreadyMember();
        const [open] = await tx
          .select({ n: count() })
          .from(teamInvites)
          .where(and(eq(teamInvites.accountId, accountId), isNull(teamInvites.acceptedAt), gt(teamInvites.expiresAt, clock())));
        if ((open?.n ?? 0) >= MAX_OPEN_INVITES) throw tooManyInvites();
        const [invite] = await tx
          .insert(teamInvites)
          .values({ accountId, email, role, tokenHash: hash, invitedBy: session.member.id, expiresAt })
          .returning();
        await audit.record(tx, {
          accountId,
          actor: memberActor(session.member),
          action: 'member.invited',
          target: `invite:${invite!.id} ${email} ${role}`,
          ip: origin.address,
        });
        return invite!;
      });
      return { invite: { id: row.id, email, role, expires_at: expiresAt.toISOString() }, token };
    },

    async join(raw, origin = {}) {
      const { token, password } = parseInput(joinSchema, raw);
      // Hash before taking the invitation: a slow hash must not hold the row.
      const passwordHash = await deps.passwords.hash(password);
      const member = await db.transaction(async (tx) => {
        // One use: the invitation is taken by the statement that checks it.
        const [invite] = await tx
          .update(teamInvites)
          .set({ acceptedAt: clock() })
          .where(and(eq(teamInvites.tokenHash, sha256(token)), isNull(teamInvites.acceptedAt), gt(teamInvites.expiresAt, clock())))
          .returning();
        if (!invite) throw inviteInvalid();
        const [size] = await tx.select({ n: count() }).from(teamMembers).where(eq(teamMembers.accountId, invite.accountId));
        if ((size?.n ?? 0) >= MAX_MEMBERS) throw teamFull();
        const [row] = await tx
          .insert(teamMembers)
          .values({ accountId: invite.accountId, email: invite.email, passwordHash, role: invite.role })
          .onConflictDoNothing({ target: teamMembers.email })
          .returning();
        if (!row) throw alreadyMember();
        const joined: Member = { id: row.id, accountId: row.accountId, email: row.email, role: row.role as Role };
        await audit.record(tx, {
          accountId: invite.accountId,
          actor: memberActor(joined),
          action: 'member.joined',
          target: `${memberTarget(joined)} ${joined.role}`,
          ip: origin.address,
        });
        return joined;
      });
      const session = await deps.accounts.startSession(member);
      return { ...session, member };
    },

    async members(accountId) {
      const rows = await db.select().from(teamMembers).where(eq(teamMembers.accountId, accountId)).orderBy(asc(teamMembers.id));
      return rows.map(summarize);
    },

    async changeRole(session, memberId, raw, origin = {}) {
      const { role } = parseInput(roleChangeSchema, raw);
      const accountId = session.account.id;
      return db.transaction(async (tx) => {
        const owners = await lockOwners(tx, accountId);
        const member = await teamMember(tx, accountId, memberId);
        if ((role === 'owner' || member.role === 'owner') && session.member.role !== 'owner') throw ownersOnly();
        if (member.role === role) return summarize(member);
        if (member.role === 'owner' && owners <= 1) throw lastOwner();
        const [row] = await tx.update(teamMembers).set({ role }).where(eq(teamMembers.id, member.id)).returning();
        await audit.record(tx, {
          accountId,
          actor: memberActor(session.member),
          action: 'member.role_changed',
          target: `${memberTarget(member)} ${member.role}→${role}`,
          ip: origin.address,
        });
        return summarize(row!);
      });
    },

    async remove(session, memberId, origin = {}) {
      const accountId = session.account.id;
      await db.transaction(async (tx) => {
        // Anyone may leave; removing someone else takes the `members` right.
        if (memberId !== session.member.id && !roleHolds(session.member.role, 'members')) throw forbiddenRole('members');
        const owners = await lockOwners(tx, accountId);
        const member = await teamMember(tx, accountId, memberId);
        if (member.role === 'owner' && member.id !== session.member.id && session.member.role !== 'owner') throw ownersOnly();
        if (member.role === 'owner' && owners <= 1) throw lastOwner();
        // Their sessions go with them (and by the foreign key's cascade): the next request is refused everywhere.
        await tx.delete(sessions).where(eq(sessions.memberId, member.id));
        await tx.delete(teamMembers).where(eq(teamMembers.id, member.id));
        await audit.record(tx, {
          accountId,
          actor: memberActor(session.member),
          action: 'member.removed',
          target: `${memberTarget(member)} ${member.role}`,
          ip: origin.address,
        });
      });
    },

    async purgeExpiredInvites() {
      const weekAgo = new Date(clock().getTime() - INVITE_TTL_MS);
      const deleted = await db.delete(teamInvites).where(lt(teamInvites.expiresAt, weekAgo)).returning({ id: teamInvites.id });
      return deleted.length;
    },
  };
}

function summarize(row: typeof teamMembers.$inferSelect): MemberSummary {
  return {
    id: row.id,
    email: row.email,
    role: row.role as Role,
    joined_at: row.joinedAt.toISOString(),
    last_seen_at: row.lastSeenAt?.toISOString() ?? null,
  };
}
