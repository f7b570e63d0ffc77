import { apiLabel } from '../../src/operations/catalog.js';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { MODULES } from '../../src/operations/modules.js';
import { linkNotFound } from '../../src/operations/shorten/stats.js';
import type { ApiId } from '../../src/platform/catalog.js';
import { executeOperation, type Operation } from '../../src/platform/execute.js';
import { quotaExceeded, subscriptionRequired } from '../../src/platform/subscriptions.js';
import type { Runtime } from '../../src/runtime.js';
import { RequestCaller, successEnvelope } from '../http-answer.js';
import { accountOf } from '../middleware/auth.js';
import { setQuotaHeaders } from '../middleware/quota-headers.js';
import { linkStatsBody, operationBody } from '../response-schemas.js';
import { defineRoute, type Route } from '../route.js';

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
  const { output, quota } = await executeOperation(runtime.platform.subscriptions, operation, caller, req.body, runtime.metrics.operation);
  setQuotaHeaders(res, quota, runtime.clock());
  return { output, remaining: quota.remaining };
}

/** What the docs show for the `RateLimit` headers of an answered call and of a 429. */
export const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { example: '"monthly";q=1000;w=2592000' },
  RateLimit: { example: '"monthly";r=999;t=721673' },
};
const EXAMPLE_RENEWAL = new Date('2026-11-30T15:00:00.000Z');

/** POST routes of the eight operations (from their modules), and the shortener's click statistics. */
export function operationRoutes(runtime: Runtime): Route[] {
  const operations: Record<ApiId, Operation> = runtime.operations;
  const routes: Route[] = MODULES.map((module) => {
    const { catalog, example } = module;
    return defineRoute({
      method: 'post',
      path: catalog.path,
      tag: catalog.category,
      summary: example.summary,
      operationId: example.operationId,
      auth: 'key',
      body: { schema: module.input, example: example.request, validatedBy: 'core', limitMb: module.bodyLimitMb },
      answers: {
        200: {
          description: '성공',
          schema: operationBody(module),
          example: successEnvelope(catalog.id, example.response, 999),
          headers: RATE_LIMIT_HEADERS,
        },
      },
      errors: [
        subscriptionRequired(catalog.id, apiLabel(catalog.id)),
        quotaExceeded(catalog.id, EXAMPLE_RENEWAL, 721673, apiLabel(catalog.id)),
        ...module.errors(runtime.config),
      ],
      operation: operations[catalog.id],
    });
  });

  routes.push(
    defineRoute({
      method: 'get',
      path: '/api/v1/url/shorten/:code/stats',
      operationId: 'getShortLinkStats',
      tag: '보안/안전',
      summary: '단축 URL 클릭 통계 (만든 계정만)',
      description:
        '전체, 사람, 봇, 날짜별(한국 시간), QR 스캔, 순 방문자, 유입 경로, 기기·OS·브라우저, 국가(GEOIP_DB), 만료·클릭 제한 상태, 재검사(URL_RESCAN) 결과.',
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
