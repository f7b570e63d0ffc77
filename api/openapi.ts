import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../src/errors.js';
import { watchCreateSchema } from '../src/operations/delivery-watch/watch.schema.js';
import { credentialsSchema, loginSchema } from '../src/platform/accounts.js';
import { createKeySchema } from '../src/platform/api-keys.js';
import { CATALOG, type ApiId } from '../src/platform/catalog.js';
import type { Operation } from '../src/platform/execute.js';
import type { Runtime } from '../src/runtime.js';
import { OPERATION_EXAMPLES } from './openapi-examples.js';
import { completeDocument } from './openapi-responses.js';
import { subscribeSchema } from './routes/account.js';

/**
 * The OpenAPI 3.1 document, built at start from the same zod schemas the routes validate with
 * (JSON Schema 2020-12 through `z.toJSONSchema`), so the docs cannot drift from the code.
 */
export function buildOpenApiDocument(runtime: Runtime): object {
  const operations: Record<ApiId, Operation> = runtime.operations;
  const paths: Record<string, object> = {
    '/api/v1/auth/register': {
      post: endpoint(
        '계정 만들기',
        'account',
        credentialsSchema,
        { email: 'dev@example.com', password: 'correct horse battery' },
        {
          201: ok('가입됨', { success: true, user: { id: 1, email: 'dev@example.com' } }),
          400: error('INVALID_REQUEST', "'password' 필드: 비밀번호는 8자 이상이어야 합니다."),
          409: error('EMAIL_TAKEN', '이미 가입된 이메일입니다.'),
          429: error('RATE_LIMITED', '이 주소에서 가입 요청이 너무 많습니다. 59분 후에 다시 시도하세요.'),
        },
        [],
      ),
    },
    '/api/v1/auth/login': {
      post: endpoint(
        '로그인 (토큰 24시간 유효)',
        'account',
        loginSchema,
        { email: 'dev@example.com', password: 'correct horse battery' },
        {
          200: ok('토큰', { success: true, token: 'q0G…', expires_at: '2026-11-23T06:00:00.000Z' }),
          400: error('INVALID_REQUEST', "'password' 필드: 비밀번호를 입력하세요."),
          401: error('INVALID_CREDENTIALS', '이메일 또는 비밀번호가 올바르지 않습니다.'),
          429: error('RATE_LIMITED', '로그인 시도가 너무 많습니다. 15분 후에 다시 시도하세요.'),
        },
        [],
      ),
    },
    '/api/v1/auth/logout': {
      post: {
        tags: ['account'],
        summary: '로그아웃 (토큰 즉시 만료)',
        security: [{ bearer: [] }],
        responses: {
          200: ok('로그아웃됨', { success: true }),
          401: error('UNAUTHORIZED', '로그인이 필요하거나 토큰이 만료되었습니다. 다시 로그인하세요.'),
        },
      },
    },
    '/api/v1/keys': {
      post: endpoint(
        'API 키 만들기 (전체 키는 이 응답에서만 보입니다)',
        'account',
        createKeySchema,
        { name: 'laptop' },
        {
          201: ok('새 키', {
            success: true,
            api_key: 'aik_…',
            key: { id: 1, name: 'laptop', prefix: 'aik_3lWq8c', created_at: '2026-11-22T06:00:00.000Z' },
          }),
          400: error('INVALID_REQUEST', "'name' 필드: 100자 이하여야 합니다."),
          401: error('UNAUTHORIZED', '로그인이 필요하거나 토큰이 만료되었습니다. 다시 로그인하세요.'),
        },
        [{ bearer: [] }],
      ),
      get: {
        tags: ['account'],
        summary: 'API 키 목록',
        security: [{ bearer: [] }],
        responses: { 200: ok('키 목록', { success: true, keys: [] }), 401: error('UNAUTHORIZED', '로그인이 필요합니다.') },
      },
    },
    '/api/v1/keys/{id}': {
      delete: {
        tags: ['account'],
        summary: 'API 키 폐기 (즉시 사용 불가)',
        security: [{ bearer: [] }],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: ok('폐기됨', { success: true }), 404: error('NOT_FOUND', '해당 API 키를 찾을 수 없습니다.') },
      },
    },
    '/api/v1/catalog': {
      get: {
        tags: ['account'],
        summary: '여덟 가지 API 목록',
        security: [],
        responses: { 200: ok('카탈로그', { success: true, apis: [] }) },
      },
    },
    '/api/v1/subscriptions': {
      post: endpoint(
        'API 구독 (멱등)',
        'account',
        subscribeSchema,
        { api: 'delivery-tracking' },
        {
          201: ok('구독', {
            success: true,
            subscription: { api: 'delivery-tracking', remaining: 1000, renews_at: '2026-11-30T15:00:00.000Z' },
          }),
          400: error('INVALID_REQUEST', "'api' 필드: 잘못된 옵션입니다."),
        },
        [{ apiKey: [] }, { bearer: [] }],
      ),
    },
    '/api/v1/usage': {
      get: {
        tags: ['account'],
        summary: 'API별 남은 호출 수와 초기화 시각',
        security: [{ apiKey: [] }, { bearer: [] }],
        responses: { 200: ok('사용량', { success: true, usage: [] }) },
      },
    },
  };

  Object.assign(paths, watchPaths(), healthPaths());

  for (const api of CATALOG) {
    const example = OPERATION_EXAMPLES[api.id];
    paths[api.path] = {
      post: {
        ...endpoint(
          example.summary,
          api.category,
          operations[api.id].schema,
          example.request,
          operationResponses(api.id, example.response),
          [{ apiKey: [] }],
        ),
        operationId: api.id,
      },
    };
  }

  const requestSchemas: Record<string, z.ZodType> = {
    'post /api/v1/auth/register': credentialsSchema,
    'post /api/v1/auth/login': loginSchema,
    'post /api/v1/keys': createKeySchema,
    'post /api/v1/subscriptions': subscribeSchema,
    'post /api/v1/delivery/watch': watchCreateSchema,
    ...Object.fromEntries(CATALOG.map((api) => [`post ${api.path}`, operations[api.id].schema])),
  };
  const shortPath = new URL(runtime.config.SHORT_URL_BASE).pathname.replace(/\/+$/, '');
  return completeDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'AI Utility Hub API',
        version: '1.0.0',
        description:
          '한국 팀을 위한 여덟 가지 AI 유틸리티. 모든 기능 호출은 `X-API-Key` 헤더가 필요하며, 응답마다 남은 호출 수(`remaining`)와 ' +
          '`RateLimit-Policy`/`RateLimit` 헤더가 붙습니다. 오류는 `{success:false, code, error, error_code}` 형태입니다.',
      },
      servers: [{ url: runtime.config.PUBLIC_BASE_URL }],
      security: [{ apiKey: [] }],
      paths,
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bearer: { type: 'http', scheme: 'bearer', description: 'POST /api/v1/auth/login 의 token' },
        },
        schemas: {
          Error: {
            type: 'object',
            required: ['success', 'code', 'error', 'error_code'],
            properties: {
              success: { const: false },
              code: { type: 'integer', description: 'HTTP 상태와 같음' },
              error: { type: 'string', description: '한국어 메시지' },
              error_code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
              field: { type: 'string', description: '400의 원인이 된 필드' },
            },
          },
        },
      },
    },
    requestSchemas,
    shortPath,
  );
}

/** CONTRACT §5 watches: webhook deliveries of parcel changes. */
function watchPaths(): Record<string, object> {
  const auth = [{ apiKey: [] }, { bearer: [] }];
  const watch = { id: 12, carrier_id: 'kr.cjlogistics', track_id: '123456789012', status: 'active' };
  return {
    '/api/v1/delivery/watch': {
      post: endpoint(
        '배송 변경 알림(웹훅) 등록: 변경마다 X-Signature(HMAC-SHA256) 서명된 POST를 보냅니다',
        '택배 조회',
        watchCreateSchema,
        { carrier_id: 'kr.cjlogistics', track_id: '1234-5678-9012', webhook_url: 'https://example.com/hooks/parcel' },
        {
          201: ok('등록됨 (webhook_secret은 이 응답에서만 보입니다)', { success: true, watch, webhook_secret: 'whsec_…', remaining: 998 }),
          400: error('INVALID_REQUEST', "'webhook_url' 필드: https URL이어야 합니다.", { field: 'webhook_url' }),
          403: error('SUBSCRIPTION_REQUIRED', "'delivery-tracking' API 구독이 필요합니다."),
          409: error('CONFLICT', '이미 같은 대상으로 알림 중인 운송장입니다.'),
        },
        auth,
      ),
      get: {
        tags: ['택배 조회'],
        summary: '내 배송 알림 목록',
        security: auth,
        responses: { 200: ok('목록', { success: true, watches: [watch] }) },
      },
    },
    '/api/v1/url/lists': {
      get: {
        tags: ['유해 URL 탐지'],
        summary: '유해 URL 목록(피드) 상태: 이름, 분류, 항목 수, 받은 시각, 마지막 오류',
        security: auth,
        responses: {
          200: ok('피드 상태', {
            success: true,
            lists: [
              {
                name: 'urlhaus',
                category: 'malware',
                format: 'csv',
                entries: 18234,
                skipped_lines: 0,
                fetched_at: '2026-11-22T06:00:04.000Z',
                last_attempt_at: '2026-11-22T06:00:04.000Z',
                last_error: null,
              },
            ],
            loaded_entries: 18234,
            model: { examples: { clean: 90000, malware: 18234 }, threshold: 0.97 },
          }),
        },
      },
    },
    '/api/v1/delivery/watch/{id}': {
      delete: {
        tags: ['택배 조회'],
        summary: '배송 알림 해제',
        security: auth,
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        responses: { 200: ok('해제됨', { success: true, id: 12 }), 404: error('NOT_FOUND', '해당 배송 알림을 찾을 수 없습니다.') },
      },
    },
  };
}

function endpoint(summary: string, tag: string, schema: z.ZodType, example: object, responses: object, security: object[]) {
  return {
    tags: [tag],
    summary,
    security,
    requestBody: {
      required: true,
      content: { 'application/json': { schema: jsonSchema(schema), example } },
    },
    responses,
  };
}

function jsonSchema(schema: z.ZodType): object {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

function ok(description: string, example: object) {
  return { description, content: { 'application/json': { example } } };
}

function error(code: ErrorCode, message: string, extra: object = {}) {
  const status = ERROR_STATUS[code];
  return {
    description: code,
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/Error' },
        example: { success: false, code: status, error: message, error_code: code, ...extra },
      },
    },
  };
}

function operationResponses(api: ApiId, example: object) {
  const responses: Record<number, object> = {
    200: {
      ...ok('성공', example),
      headers: {
        'RateLimit-Policy': { schema: { type: 'string' }, example: '"monthly";q=1000;w=2592000' },
        RateLimit: { schema: { type: 'string' }, example: '"monthly";r=999;t=721673' },
      },
    },
    400: error('INVALID_REQUEST', "'text' 필드: 필수 항목입니다.", { field: 'text' }),
    401: error('UNAUTHORIZED', '유효하지 않은 API 키입니다.'),
    403: error('SUBSCRIPTION_REQUIRED', `'${api}' API 구독이 필요합니다.`),
    429: error('QUOTA_EXCEEDED', `이번 달 '${api}' 호출 한도를 모두 사용했습니다.`, { remaining: 0 }),
    502: error('UPSTREAM_ERROR', '외부 서비스 응답에 실패했습니다. 호출 수는 차감되지 않았습니다.'),
    503: error('NOT_CONFIGURED', 'AI 모델이 설정되지 않았습니다 (OPENAI_API_KEY / OPENAI_BASE_URL).'),
    504: error('UPSTREAM_TIMEOUT', '외부 서비스 응답 시간이 초과되었습니다.'),
  };
  if (api === 'url-shortener') {
    responses[422] = error('HARMFUL_URL', '유해한 URL로 판단되어 단축 URL을 만들지 않았습니다.', {
      is_malicious: true,
      category: 'gambling',
      reason: '도박 사이트 목록에 있는 도메인입니다.',
      remaining: 998,
    });
  }
  if (api === 'translation') responses[500] = error('TRANSLATION_ENGINE_ERROR', '번역 엔진 연결에 실패했습니다.');
  return responses;
}

/** Liveness and readiness for load balancers (api/routes/health.ts). */
function healthPaths(): Record<string, object> {
  const ready = {
    tags: ['health'],
    security: [],
    responses: {
      200: ok('준비됨', { status: 'ok' }),
      503: ok('데이터베이스 연결 불가 또는 종료 중 (Retry-After)', { status: 'unavailable', database: 'down' }),
    },
  };
  return {
    '/healthz': { get: { ...ready, summary: '준비 상태 (/healthz/ready와 같음)' } },
    '/healthz/ready': { get: { ...ready, summary: '준비 상태: 데이터베이스가 응답하고 종료 중이 아님' } },
    '/healthz/live': {
      get: { tags: ['health'], security: [], summary: '프로세스 생존 여부', responses: { 200: ok('살아 있음', { status: 'ok' }) } },
    },
  };
}
