import type { Request, Response } from 'express';
import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import { linkNotFound } from '../../src/operations/shorten/stats.js';
import { checkNeedsSubscription, judgedHarmful, listedHarmful } from '../../src/operations/shorten/shorten.js';
import { ENGINE_FAILURE } from '../../src/operations/translate/translate.js';
import { CATALOG, type ApiId } from '../../src/platform/catalog.js';
import { executeOperation, type Operation } from '../../src/platform/execute.js';
import { quotaExceeded, subscriptionRequired } from '../../src/platform/subscriptions.js';
import { notConfigured, timedOut, upstreamFailure } from '../../src/providers/llm-errors.js';
import { ocrFailed, ocrTimedOut } from '../../src/providers/ocr/tesseract-pool.js';
import { trackerFailure } from '../../src/providers/tracker.js';
import type { Runtime } from '../../src/runtime.js';
import { accountOf } from '../middleware/auth.js';
import { setQuotaHeaders } from '../middleware/quota-headers.js';
import { OPERATION_EXAMPLES } from '../openapi-examples.js';
import { linkStatsBody, operationBody } from '../response-schemas.js';
import { defineRoute, type Route } from '../route.js';
import { DEFAULT_BODY_LIMIT_MB } from '../json-body.js';
import { RequestCaller } from '../http-answer.js';

/**
 * Runs an operation for an express request (validate, charge, run, refund on failure), sets the
 * quota headers and returns its output with the HTTP envelope's `remaining`: for a route that is
 * not an operation's own but charges one (`POST /delivery/watch`).
 */
export async function runForRequest<Schema extends z.ZodType, Output extends object>(
  runtime: Runtime,
  operation: Operation<Schema, Output>,
  req: Request,
  res: Response,
): Promise<{ output: Output; remaining: number }> {
  const caller = new RequestCaller(accountOf(req), req.log, String(req.id)).cancelOnClose(res);
  const { output, quota } = await executeOperation(runtime.platform.subscriptions, operation, caller, req.body);
  setQuotaHeaders(res, quota, runtime.clock());
  return { output, remaining: quota.remaining };
}

/** What the docs show for the `RateLimit` headers of an answered call and of a 429. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { example: '"monthly";q=1000;w=2592000' },
  RateLimit: { example: '"monthly";r=999;t=721673' },
};
const EXAMPLE_RENEWAL = new Date('2026-11-30T15:00:00.000Z');

/** JSON body limits above the default: a 10 MB ID image in Base64 is ~13.4 MB. */
const BODY_LIMIT_MB: Partial<Record<ApiId, number>> = { 'ocr-idcard': 15 };

/** The body limit an operation's route declares. */
function operationBodyLimitMb(api: ApiId): number {
  return BODY_LIMIT_MB[api] ?? DEFAULT_BODY_LIMIT_MB;
}

/** The errors each operation can answer besides 400, 401, 403 (subscription) and 429 (quota). */
function operationErrors(runtime: Runtime): Record<ApiId, AppError[]> {
  const llm = [upstreamFailure(undefined, 'HTTP 500'), notConfigured(), timedOut(runtime.config.LLM_TIMEOUT_MS)];
  const verdict = { category: 'gambling', reason: '도박 사이트 목록에 있는 도메인입니다.' };
  return {
    'chatbot-rag': llm,
    'tone-transformation': llm,
    'harmful-url-detection': [],
    'text-generation': llm,
    'ocr-idcard': [ocrFailed(), ocrTimedOut()],
    translation: [upstreamFailure(ENGINE_FAILURE, 'HTTP 500'), notConfigured(), timedOut(runtime.config.LLM_TIMEOUT_MS)],
    'delivery-tracking': [trackerFailure('택배 조회 서버에 연결하지 못했습니다.'), ...llm.slice(1)],
    'url-shortener': [judgedHarmful(verdict, 998), listedHarmful(verdict, 999), checkNeedsSubscription()],
  };
}

/** POST routes of the eight operations (from the catalogue), and the shortener's click statistics. */
export function operationRoutes(runtime: Runtime): Route[] {
  const operations: Record<ApiId, Operation> = runtime.operations;
  const errors = operationErrors(runtime);
  const routes: Route[] = CATALOG.map((api) => {
    const operation = operations[api.id];
    const example = OPERATION_EXAMPLES[api.id];
    return defineRoute({
      method: 'post',
      path: api.path,
      tag: api.category,
      summary: example.summary,
      operationId: api.id,
      auth: 'key',
      body: { schema: operation.schema, example: example.request, validatedBy: 'core', limitMb: operationBodyLimitMb(api.id) },
      answers: { 200: { description: '성공', schema: operationBody(api.id), example: example.response, headers: RATE_LIMIT_HEADERS } },
      errors: [subscriptionRequired(api.id), quotaExceeded(api.id, EXAMPLE_RENEWAL, 721673), ...errors[api.id]],
      operation,
    });
  });

  routes.push(
    defineRoute({
      method: 'get',
      path: '/api/v1/url/shorten/:code/stats',
      tag: '보안/안전',
      summary: '단축 URL 클릭 통계 (만든 계정만): 전체, 사람, 봇, 날짜별(한국 시간)',
      auth: 'key',
      params: z.object({ code: z.string().meta({ pattern: '^[0-9A-Za-z]{5}$', examples: ['aZ3k9'] }) }),
      answers: {
        200: {
          description: '통계',
          schema: linkStatsBody,
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
      errors: [linkNotFound()],
      handler: async ({ params }, req) => ({ success: true, ...(await runtime.linkStats(accountOf(req), params.code)) }),
    }),
  );
  return routes;
}
