import type { Response } from 'express';
import { z } from 'zod';
import { STORAGE_FULL_RETRY_AFTER_SECONDS } from '../../src/errors.js';
import { LEARNED_MODELS_EXAMPLE, learnedModelSchema } from '../../src/platform/learned-models.js';
import type { Runtime } from '../../src/runtime.js';
import type { AppState } from '../app.js';
import { defineRoute, reply, type Answer, type Route } from '../route.js';

const PING_TIMEOUT_MS = 2000;

/**
 * Health for load balancers: `/healthz/live` (the process answers: restart it only when this
 * fails) and `/healthz/ready` = `/healthz` (send traffic: 200 when the database answers and the
 * server is not draining, else 503 with the reason). `/healthz` answers `{"status":"ok"}` exactly
 * (CONTRACT §1); `/healthz/ready` adds the learned models in use (`models`, CONTRACT §5). While
 * the runtime is still being built the starting server answers `starting` (api/http-server.ts).
 */
export function healthRoutes(runtime: Runtime, state: AppState): Route[] {
  async function ready(res: Response, withModels = false) {
    res.setHeader('Cache-Control', 'no-store');
    if (state.draining) return reply(503, { status: 'draining' });
    const reachable = runtime.database.available() && (await pingWithin(runtime, PING_TIMEOUT_MS));
    if (!reachable) {
      res.setHeader('Retry-After', '5');
      return reply(503, { status: 'unavailable', database: 'down' });
    }
    // After a disk-full error: not ready until a write succeeds again (reads may still work).
    if (!(await runtime.database.writable())) {
      res.setHeader('Retry-After', String(STORAGE_FULL_RETRY_AFTER_SECONDS));
      return reply(503, { status: 'unavailable', database: 'full' });
    }
    return withModels ? { status: 'ok', models: runtime.learnedModels.list() } : { status: 'ok' };
  }
  const notReady: Answer = {
    description: '시작 중, 종료 중, 데이터베이스 연결 불가, 또는 저장 공간 가득 참 (Retry-After)',
    schema: z.object({ status: z.enum(['starting', 'draining', 'unavailable']), database: z.enum(['down', 'full']).optional() }),
    example: { status: 'unavailable', database: 'down' },
  };
  const answers: Record<number, Answer> = {
    200: { description: '준비됨', schema: z.object({ status: z.literal('ok') }), example: { status: 'ok' } },
    503: notReady,
  };
  const readyAnswers: Record<number, Answer> = {
    200: {
      description: '준비됨, 사용 중인 학습 모델과 함께',
      schema: z.object({ status: z.literal('ok'), models: z.array(learnedModelSchema) }),
      example: { status: 'ok', models: LEARNED_MODELS_EXAMPLE },
    },
    503: notReady,
  };
  const common = { method: 'get', tag: '상태 확인', auth: 'none' } as const;
  return [
    defineRoute({
      ...common,
      path: '/healthz/live',
      operationId: 'checkLiveness',
      summary: '프로세스 생존 여부',
      answers: { 200: { description: '살아 있음', schema: z.object({ status: z.literal('ok') }), example: { status: 'ok' } } },
      handler: () => ({ status: 'ok' }),
    }),
    defineRoute({
      ...common,
      path: '/healthz',
      operationId: 'checkHealth',
      summary: '준비 상태 (/healthz/ready와 같음)',
      answers,
      handler: (_i, _req, res) => ready(res),
    }),
    defineRoute({
      ...common,
      path: '/healthz/ready',
      operationId: 'checkReadiness',
      summary: '준비 상태: 데이터베이스가 응답하고 종료 중이 아님, 사용 중인 학습 모델(models)',
      answers: readyAnswers,
      handler: (_i, _req, res) => ready(res, true),
    }),
  ];
}

async function pingWithin(runtime: Runtime, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('database ping timed out'), { code: 'CONNECT_TIMEOUT' })), timeoutMs);
  });
  try {
    await Promise.race([runtime.database.ping(), timeout]);
    return true;
  } catch (error) {
    runtime.database.observe(error);
    return false;
  } finally {
    clearTimeout(timer);
  }
}
