import { z } from 'zod';
import { AppError } from '../src/errors.js';
import { CATALOG, type ApiId } from '../src/platform/catalog.js';
import { OUTPUT_SCHEMAS } from '../src/operations/output-schemas.js';
import { parseInput } from '../src/validation.js';

/**
 * The success bodies of every route as zod schemas, turned into the OpenAPI responses: the
 * eight operations from the operations' own output schemas (src/platform/output-schemas.ts)
 * inside the door's envelope, the account, watch, statistics and health routes here.
 */
const iso = z.string().describe('ISO 8601');
const keySummary = z.object({ id: z.number().int(), name: z.string(), prefix: z.string(), created_at: iso, last_used_at: iso.nullable() });
const watchView = z.object({
  id: z.number().int(),
  carrier_id: z.string(),
  track_id: z.string(),
  status: z.string(),
  target: z.union([
    z.object({ type: z.literal('webhook'), url: z.string() }),
    z.object({ type: z.enum(['slack', 'discord']), channel_id: z.string() }),
  ]),
  state: z.object({ id: z.string(), text: z.string() }).nullable(),
  end_reason: z.string().nullable(),
  created_at: iso,
  expires_at: iso,
  next_poll_at: iso.nullable(),
  last_notified_at: iso.nullable(),
});
const ok = <T extends z.ZodRawShape>(shape: T) => z.object({ success: z.literal(true), ...shape });

/** Non-operation routes: `METHOD path` → the body of its success. */
const ROUTE_SCHEMAS: Record<string, z.ZodType> = {
  'post /api/v1/auth/register': ok({ user: z.object({ id: z.number().int(), email: z.string() }) }),
  'post /api/v1/auth/login': ok({ token: z.string(), expires_at: iso }),
  'post /api/v1/keys': ok({ api_key: z.string().describe('전체 키: 이 응답에서만 보입니다'), key: keySummary }),
  'get /api/v1/keys': ok({ keys: z.array(keySummary) }),
  'delete /api/v1/keys/{id}': ok({}),
  'get /api/v1/catalog': ok({
    monthly_quota: z.number().int(),
    apis: z.array(
      z.object({
        id: z.enum(CATALOG.map((api) => api.id) as [ApiId, ...ApiId[]]),
        name: z.string(),
        name_en: z.string(),
        path: z.string(),
        category: z.string(),
        category_en: z.string(),
        description: z.string(),
        description_en: z.string(),
        status: z.literal('normal'),
        requires_subscription: z.boolean(),
        available: z.boolean(),
        engine: z.string(),
        unavailable_reason: z.string().optional(),
        unavailable_reason_en: z.string().optional(),
      }),
    ),
  }),
  'post /api/v1/subscriptions': ok({ subscription: z.object({ api: z.string(), remaining: z.number().int(), renews_at: iso }) }),
  'get /api/v1/usage': ok({
    usage: z.array(
      z.object({ api: z.string(), subscribed: z.boolean(), remaining: z.number().int().nullable(), renews_at: iso.nullable() }),
    ),
  }),
  'post /api/v1/delivery/watch': ok({ watch: watchView, webhook_secret: z.string().optional(), remaining: z.number().int() }),
  'get /api/v1/delivery/watch': ok({ watches: z.array(watchView) }),
  'delete /api/v1/delivery/watch/{id}': ok({ id: z.number().int() }),
  'get /api/v1/url/shorten/{code}/stats': ok({
    code: z.string(),
    short_url: z.string(),
    url: z.string(),
    created_at: iso,
    clicks: z.object({
      total: z.number().int(),
      human: z.number().int(),
      bot: z.number().int(),
      daily: z.array(
        z.object({
          date: z.string().describe('YYYY-MM-DD (Asia/Seoul)'),
          total: z.number().int(),
          human: z.number().int(),
          bot: z.number().int(),
        }),
      ),
    }),
  }),
  'get /healthz': z.object({ status: z.enum(['ok', 'starting', 'draining']) }),
  'get /healthz/live': z.object({ status: z.literal('ok') }),
  'get /healthz/ready': z.object({ status: z.literal('ok') }),
  'post /api/v1/auth/logout': ok({}),
  'get /api/v1/url/lists': z.looseObject({
    success: z.literal(true),
    lists: z.array(
      z.looseObject({
        name: z.string(),
        category: z.string(),
        entries: z.number().int(),
        fetched_at: iso.nullable(),
        last_error: z.string().nullable(),
      }),
    ),
  }),
};

/** An operation's 200 body: its output in the envelope every door adds. */
function operationSchema(api: ApiId): z.ZodType {
  const envelope = z.object({
    success: z.literal(true),
    api: z.literal(api),
    remaining: z.number().int().describe('이번 달 남은 호출 수'),
  });
  const output = OUTPUT_SCHEMAS[api];
  return output instanceof z.ZodObject ? output.extend(envelope.shape) : z.intersection(envelope, output);
}

function toJson(schema: z.ZodType): object {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/** The JSON schema of a route's success body, when the route is known. */
export function successSchema(method: string, path: string): object | undefined {
  const api = CATALOG.find((entry) => entry.path === path && method === 'post');
  if (api) return toJson(operationSchema(api.id));
  const schema = ROUTE_SCHEMAS[`${method} ${path}`];
  return schema ? toJson(schema) : undefined;
}

/**
 * A 400 example that is the route's real answer to its own example request with one field
 * missing (or, when none is required, of the wrong type): the message names that field.
 */
export function badRequestExample(schema: z.ZodType, example: Record<string, unknown>): object | undefined {
  const attempts = Object.keys(example).flatMap((field) => [
    { field, body: { ...example, [field]: undefined } },
    { field, body: { ...example, [field]: { wrong: 'type' } } },
  ]);
  for (const { field, body } of attempts) {
    try {
      parseInput(schema, body);
    } catch (error) {
      if (error instanceof AppError && error.status === 400 && error.extra.field === field) {
        return { success: false, code: 400, error: error.message, error_code: error.code, ...error.extra };
      }
    }
  }
  return undefined;
}

type PathItem = Record<
  string,
  { responses: Record<string, { content?: Record<string, { schema?: object; example?: unknown }> }>; requestBody?: any }
>;

const errorRef = { $ref: '#/components/schemas/Error' };
const jsonError = (description: string, example: object) => ({
  description,
  content: { 'application/json': { schema: errorRef, example } },
});

/** Routes the document must show besides the API: statistics, the redirect itself, health. */
function extraPaths(shortPath: string): Record<string, object> {
  return {
    '/api/v1/url/shorten/{code}/stats': {
      get: {
        tags: ['보안/안전'],
        summary: '단축 URL 클릭 통계 (만든 계정만): 전체, 사람, 봇, 날짜별(한국 시간)',
        security: [{ apiKey: [] }],
        parameters: [
          { name: 'code', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9A-Za-z]{5}$' }, example: 'aZ3k9' },
        ],
        responses: {
          200: {
            description: '통계',
            content: {
              'application/json': {
                example: {
                  success: true,
                  code: 'aZ3k9',
                  short_url: 'http://localhost:3000/s/aZ3k9',
                  url: 'https://www.example.com/',
                  created_at: '2026-11-22T06:00:00.000Z',
                  clicks: { total: 3, human: 2, bot: 1, daily: [{ date: '2026-11-22', total: 3, human: 2, bot: 1 }] },
                },
              },
            },
          },
          401: jsonError('UNAUTHORIZED', { success: false, code: 401, error: '유효하지 않은 API 키입니다.', error_code: 'UNAUTHORIZED' }),
          404: jsonError('NOT_FOUND', {
            success: false,
            code: 404,
            error: '해당 단축 URL을 찾을 수 없습니다.',
            error_code: 'NOT_FOUND',
            field: 'code',
          }),
        },
      },
    },
    [`${shortPath}/{code}`]: {
      get: {
        tags: ['보안/안전'],
        summary: '단축 URL로 이동 (302). 나중에 유해 목록에 오른 주소는 경고 페이지(200, HTML)',
        security: [],
        parameters: [
          { name: 'code', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9A-Za-z]{5}$' }, example: 'aZ3k9' },
        ],
        responses: {
          302: { description: '원래 URL로 이동', headers: { Location: { schema: { type: 'string' } } } },
          200: { description: '유해 목록에 오른 주소: 경고 페이지', content: { 'text/html': { schema: { type: 'string' } } } },
          404: { description: '없는 코드', content: { 'text/html': { schema: { type: 'string' } } } },
        },
      },
    },
    '/healthz': {
      get: {
        tags: ['account'],
        summary: '준비 상태: 준비되면 200 {"status":"ok"}',
        security: [],
        responses: {
          200: { description: '준비됨', content: { 'application/json': { example: { status: 'ok' } } } },
          503: {
            description: '시작 중이거나 종료 중',
            content: { 'application/json': { schema: toJson(ROUTE_SCHEMAS['get /healthz']!), example: { status: 'draining' } } },
          },
        },
      },
    },
  };
}

/**
 * Completes the document built from the route declarations: the routes it lacks, a response
 * schema on every success, and 400 examples that are the route's real answer naming its own
 * field. `requestSchemas` maps `method path` to the zod schema the route validates with.
 */
export function completeDocument<T extends { paths: Record<string, object> }>(
  doc: T,
  requestSchemas: Record<string, z.ZodType>,
  shortPath: string,
): T {
  const paths = doc.paths as Record<string, PathItem>;
  for (const [path, item] of Object.entries(extraPaths(shortPath))) paths[path] ??= item as PathItem;
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const json = response.content?.['application/json'];
        if (/^2/.test(status) && json && !json.schema) {
          const schema = successSchema(method, path);
          if (schema) json.schema = schema;
        }
      }
      const schema = requestSchemas[`${method} ${path}`];
      const bad = operation.responses['400']?.content?.['application/json'];
      const example = operation.requestBody?.content?.['application/json']?.example;
      if (schema && bad && example && typeof example === 'object') bad.example = badRequestExample(schema, example) ?? bad.example;
    }
  }
  return doc;
}
