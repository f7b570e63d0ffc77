import { z } from 'zod';
import { AppError, ERROR_STATUS, errorBody } from '../src/errors.js';
import type { Runtime } from '../src/runtime.js';
import { parseInput } from '../src/validation.js';
import { declaredErrors, openApiPath, type Answer, type Route } from './route.js';
import { webhookDocs } from './webhook-docs.js';

/**
 * The OpenAPI 3.1 document, generated at start from the route declarations (api/routes/*.ts):
 * request and response schemas are the zod schemas the routes validate with and answer in
 * (JSON Schema 2020-12 through `z.toJSONSchema`), and every error example is `errorBody` of
 * an instance of what the code throws, so the docs cannot drift from the code.
 */
export function buildOpenApiDocument(runtime: Runtime, routes: readonly Route[]): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method] = operationOf(route);
  return {
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
            field: { type: 'string', description: '400의 원인이 된 필드' },
          },
        },
      },
    },
  };
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
    ...(route.operationId ? { operationId: route.operationId } : {}),
    tags: [route.tag],
    summary: route.summary,
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
  if (answer.media === 'text/html')
    return { description: answer.description, ...headers, content: { 'text/html': { schema: { type: 'string' } } } };
  const json: Record<string, unknown> = {};
  if (answer.schema) json.schema = jsonSchema(answer.schema, 'output');
  if (answer.example !== undefined) json.example = answer.example;
  return { description: answer.description, ...headers, content: { 'application/json': json } };
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
  if (!route.body) return undefined;
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
