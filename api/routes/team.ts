import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import { changePasswordSchema, emailTaken, wrongCurrentPassword } from '../../src/platform/accounts.js';
import { auditCsv } from '../../src/platform/audit-csv.js';
import { auditQuerySchema } from '../../src/platform/audit-query.js';
import { seoulDate } from '../../src/seoul-time.js';
import { tooManyLogins } from '../../src/platform/login-guard.js';
import { ROLE_LABELS, ROLES } from '../../src/platform/roles.js';
import {
  alreadyMember,
  inviteInvalid,
  inviteSchema,
  joinSchema,
  lastOwner,
  memberNotFound,
  ownersOnly,
  roleChangeSchema,
  teamFull,
  tooManyInvites,
} from '../../src/platform/team.js';
import type { InviteMail } from '../../src/providers/mail.js';
import type { Runtime } from '../../src/runtime.js';
import { bearerToken, sessionOf } from '../middleware/auth.js';
import { iso, ok } from '../response-schemas.js';
import { defineRoute, type Route } from '../route.js';

const memberIdSchema = z.object({ id: z.coerce.number().int().positive() });
const member = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(ROLES),
  joined_at: iso,
  last_seen_at: iso.nullable(),
});
const memberExample = { id: 2, email: 'min@example.com', role: 'developer', joined_at: '2026-11-28T06:00:00.000Z', last_seen_at: null };
const auditEvent = z.object({
  at: iso,
  actor: z.object({
    kind: z.enum(['member', 'api_key', 'slack', 'discord', 'system']),
    id: z.string(),
    label: z.string().describe('팀원 이메일, API 키 접두사, Slack·Discord 사용자 id'),
  }),
  action: z.string(),
  target: z.string().describe('대상: `key:12 aik_3lWq8c laptop`, `member:2 min@example.com` …'),
  ip: z.string().nullable(),
});

/** CONTRACT §3 Teams: invitations, joining, members and their roles, the audit log, and a member's password. */
export function teamRoutes(runtime: Runtime): Route[] {
  const { team, audit, accounts } = runtime.platform;
  const tag = '팀';
  const inviteUrl = (token: string) => `${runtime.config.PUBLIC_BASE_URL}/#join=${token}`;

  /** True when the SMTP server took the mail; a failure is logged by its kind only (no address, link or server text). */
  async function mailInvite(mail: InviteMail, inviteId: number): Promise<boolean> {
    if (!runtime.inviteMailer) return false;
    try {
      await runtime.inviteMailer.sendInvite(mail);
      return true;
    } catch (error) {
      const { code, responseCode, command } = error as { code?: unknown; responseCode?: unknown; command?: unknown };
      runtime.logger.warn(
        { invite_id: inviteId, smtp: { code, responseCode, command } },
        'invitation mail not sent: the portal shows the link to pass on',
      );
      return false;
    }
  }

  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/team/invites',
      operationId: 'inviteMember',
      tag,
      summary: '팀원 초대 (한 번만 쓰는 링크, 7일 유효)',
      description:
        '초대 링크는 이 응답에서만 보입니다 (저장되는 것은 해시뿐). 초대받은 사람이 링크를 열어 비밀번호를 정하면 팀원이 됩니다. 소유자(owner) 역할로 초대하는 일은 소유자만 할 수 있습니다.',
      auth: 'token',
      right: 'members',
      body: { schema: inviteSchema, example: { email: 'min@example.com', role: 'developer' }, validatedBy: 'core' },
      answers: {
        201: {
          description: '초대',
          schema: ok({
            invite: z.object({ id: z.number().int(), email: z.string(), role: z.enum(ROLES), expires_at: iso }),
            invite_url: z.string().describe('초대받은 사람에게 보낼 링크 (이 응답에서만 보입니다)'),
            mailed: z.boolean().describe('초대 메일을 보냈는지 (SMTP_URL이 설정된 서버만 보냅니다; false면 링크를 직접 전해 주세요)'),
          }),
          example: {
            success: true,
            invite: { id: 1, email: 'min@example.com', role: 'developer', expires_at: '2026-12-05T06:00:00.000Z' },
            invite_url: 'https://hub.example.com/#join=q0G…',
            mailed: true,
          },
        },
      },
      errors: [alreadyMember(), ownersOnly(), tooManyInvites()],
      handler: async ({ body }, req, res) => {
        const session = sessionOf(req);
        const { invite, token } = await team.invite(session, body, { address: req.ip });
        const url = inviteUrl(token);
        // Sent once the invitation is committed; a mail that fails leaves the invitation and its link standing.
        const mailed = await mailInvite(
          {
            to: invite.email,
            teamEmail: session.account.email,
            inviterEmail: session.member.email,
            roleLabel: ROLE_LABELS[invite.role],
            url,
            expiresAt: new Date(invite.expires_at),
          },
          invite.id,
        );
        res.setHeader('Cache-Control', 'no-store');
        return { success: true, invite, invite_url: url, mailed };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/team/join',
      operationId: 'joinTeam',
      tag,
      summary: '초대 링크로 팀에 들어가기 (비밀번호를 정하고 바로 로그인)',
      auth: 'none',
      body: { schema: joinSchema, example: { token: 'q0G…', password: 'correct horse battery' }, validatedBy: 'core' },
      answers: {
        201: {
          description: '로그인 토큰',
          schema: ok({ token: z.string(), expires_at: iso }),
          example: { success: true, token: 'r8T…', expires_at: '2026-11-29T06:00:00.000Z' },
        },
      },
      errors: [inviteInvalid(), emailTaken(), teamFull()],
      handler: async ({ body }, req, res) => {
        const { token, expiresAt } = await team.join(body, { address: req.ip });
        res.setHeader('Cache-Control', 'no-store');
        return { success: true, token, expires_at: expiresAt.toISOString() };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/team/members',
      operationId: 'listMembers',
      tag,
      summary: '팀원 목록',
      auth: 'token',
      right: 'read',
      answers: {
        200: { description: '팀원', schema: ok({ members: z.array(member) }), example: { success: true, members: [memberExample] } },
      },
      handler: async (_input, req) => ({ success: true, members: await team.members(sessionOf(req).account.id) }),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/team/members/:id',
      operationId: 'changeMemberRole',
      tag,
      summary: '팀원 역할 바꾸기 (마지막 소유자는 바꿀 수 없음)',
      auth: 'token',
      right: 'members',
      params: memberIdSchema,
      body: { schema: roleChangeSchema, example: { role: 'admin' }, validatedBy: 'core' },
      answers: {
        200: { description: '바뀐 팀원', schema: ok({ member }), example: { success: true, member: { ...memberExample, role: 'admin' } } },
      },
      errors: [memberNotFound(), ownersOnly(), lastOwner()],
      handler: async ({ params, body }, req) => ({
        success: true,
        member: await team.changeRole(sessionOf(req), params.id, body, { address: req.ip }),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/team/members/:id',
      operationId: 'removeMember',
      tag,
      summary: '팀원 내보내기 또는 팀 떠나기 (그 팀원의 로그인은 바로 끝납니다)',
      description:
        '다른 팀원을 내보내는 일은 소유자·관리자가, 자기 자신은 누구나 할 수 있습니다. 그 팀원이 만든 API 키는 팀에 남고, 감사 로그에 누가 만들었는지 남습니다. 마지막 소유자는 떠날 수 없습니다.',
      auth: 'token',
      right: 'read',
      params: memberIdSchema,
      answers: { 200: { description: '내보냄', schema: ok({}), example: { success: true } } },
      errors: [memberNotFound(), ownersOnly(), lastOwner()],
      handler: async ({ params }, req) => {
        await team.remove(sessionOf(req), params.id, { address: req.ip });
        return { success: true };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/audit',
      operationId: 'listAuditEvents',
      tag,
      summary: '감사 로그: 누가, 언제, 어디서, 무엇을 했는지 (최신순, 1년 보관)',
      description: '`format=csv`는 엑셀에서 바로 열리는 CSV(UTF-8, BOM)를 내려받습니다. 키·비밀번호·토큰·메시지 내용은 기록하지 않습니다.',
      auth: 'token',
      right: 'audit',
      query: auditQuerySchema,
      answers: {
        200: {
          description: '감사 이벤트',
          schema: ok({ events: z.array(auditEvent) }),
          example: {
            success: true,
            events: [
              {
                at: '2026-11-28T06:00:00.000Z',
                actor: { kind: 'member', id: '1', label: 'dev@example.com' },
                action: 'key.created',
                target: 'key:12 aik_3lWq8c laptop',
                ip: '203.0.113.7',
              },
            ],
          },
          csv: 'at,actor_kind,actor_id,actor_label,action,target,ip',
        },
      },
      handler: async ({ query }, req, res) => {
        const { account } = sessionOf(req);
        if (query.from && query.to && query.from >= query.to)
          throw new AppError('INVALID_REQUEST', "'from' 필드: from은 to보다 앞이어야 합니다.", { field: 'from' }).en(
            "'from': from must come before to.",
          );
        const events = await audit.list(account.id, query);
        res.setHeader('Cache-Control', 'no-store');
        if (query.format === 'json') return { success: true, events: events.map(({ id: _id, ...event }) => event) };
        res.setHeader('Content-Disposition', `attachment; filename="audit-${seoulDate(runtime.clock())}.csv"`);
        res.type('text/csv; charset=utf-8').send(auditCsv(events));
        return undefined;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/password',
      operationId: 'changePassword',
      tag: '계정',
      summary: '내 비밀번호 바꾸기 (다른 기기의 로그인은 끝납니다)',
      auth: 'token',
      right: 'read',
      body: {
        schema: changePasswordSchema,
        example: { current_password: 'correct horse battery', new_password: 'another long passphrase' },
        validatedBy: 'core',
      },
      answers: { 200: { description: '바뀜', schema: ok({}), example: { success: true } } },
      errors: [wrongCurrentPassword(), tooManyLogins(15 * 60)],
      handler: async ({ body }, req) => {
        await accounts.changePassword(sessionOf(req), bearerToken(req) ?? '', body, { address: req.ip });
        return { success: true };
      },
    }),
  ];
}
