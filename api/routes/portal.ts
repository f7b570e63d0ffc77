import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import { keyNotFound, rotateKeySchema, updateKeySchema } from '../../src/platform/api-keys.js';
import { chatStatus, databaseWhere, isOperator, llmStatus, trackerStatus } from '../../src/server-status.js';
import type { Runtime } from '../../src/runtime.js';
import { accountOf, attributionOf, memberOf, sessionOf } from '../middleware/auth.js';
import { ROLES } from '../../src/platform/roles.js';
import { iso, keySummary, ok } from '../response-schemas.js';
import { defineRoute, type Route } from '../route.js';

const keyIdSchema = z.object({ id: z.coerce.number().int().positive() });
const keyExample = {
  id: 2,
  name: 'laptop',
  prefix: 'aik_7Qe2Lm',
  created_at: '2026-11-27T06:00:00.000Z',
  last_used_at: null,
  expires_at: '2027-01-31T14:59:59.999Z',
};

export const operatorOnly = () =>
  new AppError('FORBIDDEN', '운영자만 볼 수 있습니다 (ADMIN_EMAILS에 있는 계정).').en(
    'Only operators (accounts in ADMIN_EMAILS) may see this.',
  );

/**
 * The portal's account view beyond CONTRACT §3: who is signed in (and whether an operator),
 * a key's name, expiry and rotation, the last refused calls per key, and the operator's view
 * of what this server has configured (ADMIN_EMAILS accounts only).
 */
export function portalRoutes(runtime: Runtime): Route[] {
  const { apiKeys, usageLog } = runtime.platform;
  const tag = '계정';
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/account',
      operationId: 'getAccount',
      tag,
      summary: '로그인한 팀원과 팀 (역할, 운영자 여부 포함)',
      auth: 'token',
      right: 'read',
      answers: {
        200: {
          description: '계정',
          schema: ok({
            user: z.object({
              id: z.number().int().describe('팀(계정) id'),
              email: z.string().describe('로그인한 팀원의 이메일'),
              operator: z.boolean(),
              member_id: z.number().int(),
              role: z.enum(ROLES),
            }),
            team: z.object({ id: z.number().int(), email: z.string().describe('팀을 만든 사람의 이메일') }),
          }),
          example: {
            success: true,
            user: { id: 1, email: 'dev@example.com', operator: false, member_id: 1, role: 'owner' },
            team: { id: 1, email: 'dev@example.com' },
          },
        },
      },
      handler: (_input, req) => {
        const { account, member } = sessionOf(req);
        return {
          success: true,
          user: {
            id: account.id,
            email: member.email,
            operator: isOperator(runtime.config, member.email),
            member_id: member.id,
            role: member.role,
          },
          team: { id: account.id, email: account.email },
        };
      },
    }),
    defineRoute({
      method: 'patch',
      path: '/api/v1/keys/:id',
      operationId: 'updateApiKey',
      tag,
      summary: 'API 키 이름이나 만료일 바꾸기 (expires_at: null은 만료 없음)',
      auth: 'token',
      right: 'keys',
      params: keyIdSchema,
      body: { schema: updateKeySchema, example: { name: 'laptop', expires_at: '2027-01-31' }, validatedBy: 'core' },
      answers: { 200: { description: '바뀐 키', schema: ok({ key: keySummary }), example: { success: true, key: keyExample } } },
      errors: [keyNotFound()],
      handler: async ({ params, body }, req) => ({
        success: true,
        key: await apiKeys.update(accountOf(req), params.id, body, attributionOf(req)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/keys/:id/rotate',
      operationId: 'rotateApiKey',
      tag,
      summary: 'API 키 교체: 새 키를 만들고, 이전 키는 grace_hours(기본 24시간) 동안 더 쓸 수 있습니다',
      auth: 'token',
      right: 'keys',
      params: keyIdSchema,
      body: { schema: rotateKeySchema, example: { grace_hours: 24 }, validatedBy: 'core' },
      answers: {
        201: {
          description: '새 키 (전체 키는 이 응답에서만 보입니다)와 유예 기간이 정해진 이전 키',
          schema: ok({ api_key: z.string(), key: keySummary, previous: keySummary }),
          example: {
            success: true,
            api_key: 'aik_…',
            key: { ...keyExample, id: 3 },
            previous: { ...keyExample, expires_at: '2026-11-28T06:00:00.000Z' },
          },
        },
      },
      errors: [keyNotFound()],
      handler: async ({ params, body }, req, res) => {
        const rotated = await apiKeys.rotate(accountOf(req), params.id, body ?? {}, attributionOf(req));
        res.setHeader('Cache-Control', 'no-store');
        return { success: true, api_key: rotated.apiKey, key: rotated.key, previous: rotated.previous };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/keys/errors',
      operationId: 'listApiKeyErrors',
      tag,
      summary: '키마다 최근 거부된 호출: 상태, 시각, 오류 코드 (본문은 저장하지 않습니다)',
      auth: 'token',
      right: 'read',
      answers: {
        200: {
          description: '최근 오류 (키마다 최대 20개, 최신순)',
          schema: ok({
            errors: z.array(
              z.object({ key_id: z.number().int(), api: z.string().nullable(), status: z.number().int(), error_code: z.string(), at: iso }),
            ),
          }),
          example: {
            success: true,
            errors: [{ key_id: 1, api: 'url-shortener', status: 429, error_code: 'QUOTA_EXCEEDED', at: '2026-11-27T06:00:00.000Z' }],
          },
        },
      },
      handler: async (_input, req) => ({ success: true, errors: await usageLog.lastErrors(accountOf(req).id) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/operator/status',
      operationId: 'getOperatorStatus',
      tag,
      summary: '운영자용: 이 서버에 설정된 LLM, 택배 조회, 채팅, 데이터베이스 (ADMIN_EMAILS 계정만)',
      auth: 'token',
      right: 'read',
      answers: {
        200: {
          description: '서버 설정 상태',
          schema: ok({
            llm: z.object({
              on: z.boolean(),
              host: z.string(),
              model: z.string(),
              vision: z.string().nullable(),
              embedding: z.string().nullable(),
            }),
            tracker: z.object({ host: z.string(), hosted: z.boolean(), credentials: z.boolean(), usable: z.boolean() }),
            chat: z.object({ slack: z.boolean(), discord: z.boolean() }),
            database: z.string(),
          }),
          example: {
            success: true,
            llm: { on: false, host: 'api.openai.com', model: 'gpt-4o-mini', vision: null, embedding: null },
            tracker: { host: 'apis.tracker.delivery', hosted: true, credentials: false, usable: false },
            chat: { slack: false, discord: false },
            database: 'PGlite (embedded) in ./data',
          },
        },
      },
      errors: [operatorOnly()],
      handler: (_input, req) => {
        if (!isOperator(runtime.config, memberOf(req).email)) throw operatorOnly();
        const { config } = runtime;
        return {
          success: true,
          llm: llmStatus(config),
          tracker: trackerStatus(config),
          chat: chatStatus(config),
          database: databaseWhere(config),
        };
      },
    }),
  ];
}
