import { z } from 'zod';
import { credentialsSchema, emailTaken, invalidCredentials, loginSchema } from '../../src/platform/accounts.js';
import { createKeySchema, keyNotFound } from '../../src/platform/api-keys.js';
import { availabilityOf, CATALOG } from '../../src/operations/catalog.js';
import { API_IDS } from '../../src/platform/catalog.js';
import { catalogFeatures } from '../../src/server-status.js';
import { usageQuerySchema, usagePeriod } from '../../src/platform/usage-period.js';
import { tooManyLogins, tooManySignUps } from '../../src/platform/login-guard.js';
import type { Runtime } from '../../src/runtime.js';
import { accountOf, attributionOf, bearerToken } from '../middleware/auth.js';
import { catalogBody, iso, keySummary, ok } from '../response-schemas.js';
import { defineRoute, type Route } from '../route.js';

export const subscribeSchema = z.object({ api: z.enum(API_IDS) });
const keyIdSchema = z.object({ id: z.coerce.number().int().positive() });

const credentials = { email: 'dev@example.com', password: 'correct horse battery' };
const keyExample = {
  id: 1,
  name: 'laptop',
  prefix: 'aik_3lWq8c',
  created_at: '2026-11-22T06:00:00.000Z',
  last_used_at: null,
  expires_at: null,
};

/** CONTRACT §3: sign-up, log-in, keys, catalogue, subscriptions and usage. */
export function accountRoutes(runtime: Runtime): Route[] {
  const { accounts, apiKeys, subscriptions } = runtime.platform;
  // SPEC's `status` stays `normal`; `available` and `engine` say what works on this server.
  const features = { ...catalogFeatures(runtime.config), llm: runtime.llm.configured };
  const tag = '계정';

  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/register',
      operationId: 'register',
      tag,
      summary: '계정 만들기',
      auth: 'none',
      body: { schema: credentialsSchema, example: credentials, validatedBy: 'core' },
      answers: {
        201: {
          description: '가입됨',
          schema: ok({ user: z.object({ id: z.number().int(), email: z.string() }) }),
          example: { success: true, user: { id: 1, email: 'dev@example.com' } },
        },
      },
      errors: [emailTaken(), tooManySignUps(59 * 60)],
      handler: async ({ body }, req) => ({ success: true, user: await accounts.register(body, { address: req.ip }) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/login',
      operationId: 'logIn',
      tag,
      summary: '로그인 (토큰 24시간 유효)',
      auth: 'none',
      body: { schema: loginSchema, example: credentials, validatedBy: 'core' },
      answers: {
        200: {
          description: '토큰',
          schema: ok({ token: z.string(), expires_at: iso }),
          example: { success: true, token: 'q0G…', expires_at: '2026-11-23T06:00:00.000Z' },
        },
      },
      errors: [invalidCredentials(), tooManyLogins(15 * 60)],
      handler: async ({ body }, req) => {
        const { token, expiresAt } = await accounts.login(body, { address: req.ip });
        return { success: true, token, expires_at: expiresAt.toISOString() };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/auth/logout',
      operationId: 'logOut',
      tag,
      summary: '로그아웃 (토큰 즉시 만료)',
      auth: 'token',
      right: 'read',
      answers: { 200: { description: '로그아웃됨', schema: ok({}), example: { success: true } } },
      handler: async (_input, req) => {
        await accounts.logout(bearerToken(req) ?? '');
        return { success: true };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/keys',
      operationId: 'createApiKey',
      tag,
      summary: 'API 키 만들기 (전체 키는 이 응답에서만 보입니다)',
      auth: 'token',
      right: 'keys',
      body: { schema: createKeySchema, example: { name: 'laptop' }, validatedBy: 'core' },
      answers: {
        201: {
          description: '새 키',
          schema: ok({ api_key: z.string().describe('전체 키: 이 응답에서만 보입니다'), key: keySummary }),
          example: { success: true, api_key: 'aik_…', key: keyExample },
        },
      },
      handler: async ({ body }, req, res) => {
        const { apiKey, key } = await apiKeys.create(accountOf(req), body, attributionOf(req));
        res.setHeader('Cache-Control', 'no-store');
        return { success: true, api_key: apiKey, key };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/keys',
      operationId: 'listApiKeys',
      tag,
      summary: 'API 키 목록',
      auth: 'token',
      right: 'read',
      answers: {
        200: { description: '키 목록', schema: ok({ keys: z.array(keySummary) }), example: { success: true, keys: [keyExample] } },
      },
      handler: async (_input, req) => ({ success: true, keys: await apiKeys.list(accountOf(req)) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/keys/:id',
      operationId: 'revokeApiKey',
      tag,
      summary: 'API 키 폐기 (즉시 사용 불가)',
      auth: 'token',
      right: 'keys',
      params: keyIdSchema,
      answers: { 200: { description: '폐기됨', schema: ok({}), example: { success: true } } },
      errors: [keyNotFound()],
      handler: async ({ params }, req) => {
        await apiKeys.revoke(accountOf(req), params.id, attributionOf(req));
        return { success: true };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/catalog',
      operationId: 'getCatalog',
      tag,
      summary: '여덟 가지 API 목록',
      auth: 'none',
      answers: { 200: { description: '카탈로그', schema: catalogBody, example: { success: true, monthly_quota: 1000, apis: [] } } },
      handler: () => ({
        success: true,
        /** Calls per API per month that a new subscription gets (DEFAULT_QUOTA). */
        monthly_quota: runtime.config.DEFAULT_QUOTA,
        apis: CATALOG.map((api) => ({
          id: api.id,
          name: api.name,
          name_en: api.nameEn,
          path: api.path,
          category: api.category,
          category_en: api.categoryEn,
          description: api.description,
          description_en: api.descriptionEn,
          status: 'normal',
          requires_subscription: api.requiresSubscription,
          ...availabilityOf(api.id, features),
        })),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/subscriptions',
      operationId: 'subscribe',
      tag,
      summary: 'API 구독 (멱등)',
      auth: 'either',
      right: 'subscriptions',
      body: { schema: subscribeSchema, example: { api: 'delivery-tracking' }, validatedBy: 'route' },
      answers: {
        201: {
          description: '구독',
          schema: ok({ subscription: z.object({ api: z.string(), remaining: z.number().int(), renews_at: iso }) }),
          example: { success: true, subscription: { api: 'delivery-tracking', remaining: 1000, renews_at: '2026-11-30T15:00:00.000Z' } },
        },
      },
      handler: async ({ body }, req) => ({
        success: true,
        subscription: await subscriptions.subscribe(accountOf(req).id, body.api, attributionOf(req)),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/usage',
      operationId: 'getUsage',
      tag,
      summary: 'API별 남은 호출 수, 초기화 시각, 날짜별 호출 수 (from/to: 한국 날짜, 기본은 이번 달)',
      auth: 'either',
      right: 'read',
      query: usageQuerySchema,
      answers: {
        200: {
          description: '사용량',
          schema: ok({
            usage: z.array(
              z.object({
                api: z.string(),
                subscribed: z.boolean(),
                remaining: z.number().int().nullable(),
                renews_at: iso.nullable(),
                monthly_quota: z.number().int().nullable().describe('한 달 호출 한도'),
              }),
            ),
            from: z.string().describe('YYYY-MM-DD (한국 날짜)'),
            to: z.string().describe('YYYY-MM-DD (한국 날짜)'),
            daily: z
              .array(z.object({ day: z.string(), api: z.string(), calls: z.number().int() }))
              .describe('응답한 호출 수, 날짜·API별 (호출이 없는 날은 빠짐)'),
          }),
          example: {
            success: true,
            usage: [
              { api: 'delivery-tracking', subscribed: true, remaining: 998, renews_at: '2026-11-30T15:00:00.000Z', monthly_quota: 1000 },
            ],
            from: '2026-11-01',
            to: '2026-11-27',
            daily: [
              { day: '2026-11-26', api: 'delivery-tracking', calls: 1 },
              { day: '2026-11-27', api: 'delivery-tracking', calls: 1 },
            ],
          },
        },
      },
      handler: async ({ query }, req) => {
        const account = accountOf(req);
        const { from, to } = usagePeriod(query, runtime.clock());
        const [usage, daily] = await Promise.all([subscriptions.usage(account.id), runtime.platform.usageLog.daily(account.id, from, to)]);
        return { success: true, usage, from, to, daily };
      },
    }),
  ];
}
