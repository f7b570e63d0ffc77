import { rolesHolding } from '../src/platform/roles.js';
import { z } from 'zod';
import { AppError, ERROR_STATUS, errorBody } from '../src/errors.js';
import type { Runtime } from '../src/runtime.js';
import { parseInput } from '../src/validation.js';
import { API_TAGS, declaredTags } from './openapi-tags.js';
import { declaredErrors, openApiPath, type Answer, type AuthKind, type Route } from './route.js';
import { webhookDocs } from './webhook-docs.js';

/**
 * The OpenAPI 3.1 document, generated at start from the route declarations (api/routes/*.ts):
 * request and response schemas are the zod schemas the routes validate with and answer in
 * (JSON Schema 2020-12 through `z.toJSONSchema`), and every error example is `errorBody` of
 * an instance of what the code throws, so the docs cannot drift from the code.
 */
export function buildOpenApiDocument(runtime: Runtime, routes: readonly Route[]): object {
  checkDeclarations(routes);
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method] = operationOf(route);
  const base = runtime.config.PUBLIC_BASE_URL.replace(/\/+$/, '');
  return {
    openapi: '3.1.0',
    info: {
      title: 'AI Utility Hub API',
      version: '1.0.0',
      description:
        '한국 팀을 위한 여덟 가지 AI 유틸리티. 모든 기능 호출은 `X-API-Key` 헤더가 필요하며, 응답마다 남은 호출 수(`remaining`)와 ' +
        '`RateLimit-Policy`/`RateLimit` 헤더가 붙습니다. 오류는 `{success:false, code, error, error_code}` 형태입니다.',
      // The portal (keys, usage) is where a user of this server asks; its terms are the licence to call the API.
      contact: { name: 'AI Utility Hub 포털', url: `${base}/` },
      license: { name: 'AI Utility Hub 이용약관', url: `${base}/terms` },
    },
    servers: [{ url: runtime.config.PUBLIC_BASE_URL }],
    tags: declaredTags(),
    security: [{ apiKey: [] }],
    paths,
    webhooks: webhookDocs(),
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
            ...ERROR_EXTRAS,
          },
        },
      },
    },
  };
}

/**
 * The extra fields some errors carry (CONTRACT §4: "plus the extra fields SPEC.md gives for a
 * status"), each an `extra` of an AppError factory; declared so clients can read them.
 */
const ERROR_EXTRAS = {
  field: { type: 'string', description: '400·404의 원인이 된 필드' },
  remaining: { type: 'integer', description: '429·422: 이번 달 남은 호출 수' },
  is_malicious: { const: true, description: '단축 URL 422: 유해한 주소' },
  category: { type: 'string', description: '단축 URL 422: 유해 분류 (phishing, malware, gambling, adult, spam)' },
  reason: { type: 'string', description: '거절한 이유 (단축 URL 422, 생성 거절, 알림 채널에 글을 쓸 수 없음)' },
  candidates: { type: 'array', items: { type: 'string' }, description: '택배사 이름이 여럿과 맞을 때 그 택배사 id' },
  roles: { type: 'array', items: { type: 'string' }, description: '403 FORBIDDEN_ROLE: 이 일을 할 수 있는 팀 역할' },
  carrier_candidates: {
    type: 'array',
    description: '운송장 번호로 찾아본 택배사들 (404)',
    items: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        name: { type: 'string' },
        name_ko: { type: 'string' },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
        rule: { enum: ['published', 'inferred'] },
        found: { type: ['boolean', 'null'] },
      },
    },
  },
  limit: { type: 'integer', description: '지식 저장 한도 409: 한도 값' },
  limit_type: { type: 'string', description: '지식 저장 한도 409: 어떤 한도인지' },
} as const;

/** Who may call a route, said in the description (generators copy it into their doc comments). */
const WHO_CALLS: Record<AuthKind, string> = {
  none: '인증 없이 부를 수 있습니다.',
  key: '`X-API-Key` 헤더에 API 키가 필요합니다.',
  token: '로그인 토큰(`Authorization: Bearer`, `POST /api/v1/auth/login`)이 필요합니다.',
  either: '`X-API-Key` 헤더의 API 키 또는 로그인 토큰(`Authorization: Bearer`)이 필요합니다.',
};

/** A route's description: its own text, who may call it and, for an operation, what a call costs. */
function descriptionOf(route: Route): string {
  const charge = route.operation
    ? `호출은 \`${route.operation.api}\` 한도에서 차감되고, 응답의 \`remaining\`이 이번 달 남은 횟수입니다. 요청이 잘못된 4xx는 차감하지 않습니다.`
    : '';
  const roles = route.right ? `로그인 토큰으로는 팀 역할 ${rolesHolding(route.right).join(', ')}만 부를 수 있습니다.` : '';
  return [route.description, WHO_CALLS[route.auth], roles, charge].filter(Boolean).join('\n\n');
}

const OPERATION_ID = /^[a-z][a-zA-Z0-9]*$/;

/** A declaration mistake stops the start: an undeclared tag, an operationId that is not camelCase or not unique. */
function checkDeclarations(routes: readonly Route[]): void {
  const seen = new Set<string>();
  for (const route of routes) {
    const where = `${route.method.toUpperCase()} ${route.path}`;
    if (!(route.tag in API_TAGS)) throw new Error(`${where}: tag '${route.tag}' is not declared in api/openapi-tags.ts`);
    if (!OPERATION_ID.test(route.operationId)) throw new Error(`${where}: operationId '${route.operationId}' is not camelCase`);
    if (seen.has(route.operationId)) throw new Error(`${where}: operationId '${route.operationId}' is declared twice`);
    seen.add(route.operationId);
  }
}

const SECURITY = {
  none: [],
  key: [{ apiKey: [] }],
  token: [{ bearer: [] }],
  either: [{ apiKey: [] }, { bearer: [] }],
} as const;

function operationOf(route: Route): object {
  const responses: Record<string, Record<string, any>> = {};
  for (const [status, answer] of Object.entries(route.answers)) responses[status] = answerOf(answer);
  const invalid = invalidRequestOf(route);
  const errors = invalid ? [invalid, ...declaredErrors(route)] : declaredErrors(route);
  for (const status of new Set(errors.map((error) => error.status))) {
    const [first, ...others] = errors.filter((error) => error.status === status);
    const codes = [first!, ...others].map((error) => (others.length > 0 ? `${error.code}: ${error.message}` : error.code));
    const response = (responses[status] ??= { description: '' });
    response.description = [response.description, ...codes].filter(Boolean).join(' / ');
    response.content = {
      ...response.content,
      'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: errorBody(first!) },
    };
  }
  return {
    operationId: route.operationId,
    tags: [route.tag],
    summary: route.summary,
    description: descriptionOf(route),
    security: SECURITY[route.auth],
    ...(route.params || route.query
      ? { parameters: [...(route.params ? parametersOf(route.params) : []), ...(route.query ? parametersOf(route.query, 'query') : [])] }
      : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(route.body.schema, 'input'), example: route.body.example } },
          },
        }
      : {}),
    responses,
  };
}

function answerOf(answer: Answer): Record<string, unknown> {
  const headers = answer.headers
    ? {
        headers: Object.fromEntries(
          Object.entries(answer.headers).map(([name, header]) => [
            name,
            { schema: { type: 'string' }, example: header.example, ...(header.description ? { description: header.description } : {}) },
          ]),
        ),
      }
    : {};
  if (answer.media === 'none') return { description: answer.description, ...headers };
  if (answer.media === 'image')
    return {
      description: answer.description,
      ...headers,
      content: { 'image/svg+xml': { schema: { type: 'string' } }, 'image/png': { schema: { type: 'string', format: 'binary' } } },
    };
  if (answer.media === 'text/html' || answer.media === 'text/plain')
    return {
      description: answer.description,
      ...headers,
      content: { [answer.media]: { schema: { type: 'string' }, ...(answer.example !== undefined ? { example: answer.example } : {}) } },
    };
  const json: Record<string, unknown> = {};
  if (answer.schema) json.schema = jsonSchema(answer.schema, 'output');
  if (answer.example !== undefined) json.example = answer.example;
  const csv = answer.csv ? { 'text/csv': { schema: { type: 'string', description: answer.csv } } } : {};
  return { description: answer.description, ...headers, content: { 'application/json': json, ...csv } };
}

/** Path parameters from the route's params schema (every one required: they are in the path), or query parameters. */
function parametersOf(params: z.ZodType, where: 'path' | 'query' = 'path'): object[] {
  const schema = jsonSchema(params, 'input') as {
    properties?: Record<string, { examples?: unknown[]; description?: string }>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (schema.required ?? []).includes(name),
    ...(property.description ? { description: property.description } : {}),
    schema: property,
    ...(property.examples?.[0] !== undefined ? { example: property.examples[0] } : {}),
  }));
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): object {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  return rest;
}

/**
 * The route's real 400: its own example request with one field missing (or, when none is
 * required, of the wrong type), parsed by the schema it validates with: the message names that field.
 */
function invalidRequestOf(route: Route): AppError | undefined {
  if (!route.body) return invalidParameterOf(route);
  const { schema, example } = route.body;
  for (const field of Object.keys(example)) {
    for (const value of [undefined, { wrong: 'type' }]) {
      try {
        parseInput(schema, { ...example, [field]: value });
      } catch (error) {
        if (error instanceof AppError && error.status === 400 && error.extra.field === field) return error;
      }
    }
  }
  return undefined;
}

/** A route without a body: its real 400 for a path or query parameter that does not parse (`/keys/abc`), if any can fail. */
function invalidParameterOf(route: Route): AppError | undefined {
  for (const schema of [route.params, route.query]) {
    if (!schema) continue;
    const { properties = {} } = jsonSchema(schema, 'input') as { properties?: Record<string, unknown> };
    for (const name of Object.keys(properties)) {
      try {
        parseInput(schema, { [name]: 'x' });
      } catch (error) {
        if (error instanceof AppError && error.status === 400 && error.extra.field === name) return error;
      }
    }
  }
  return undefined;
}
