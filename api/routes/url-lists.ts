import { z } from 'zod';
import { LEARNED_MODELS_EXAMPLE, learnedModelSchema } from '../../src/platform/learned-models.js';
import type { Runtime } from '../../src/runtime.js';
import { urlListsBody } from '../response-schemas.js';
import { defineRoute, type Route } from '../route.js';

/** The feeds and, beside them, the learned models in use (CONTRACT §5). */
const urlListsWithModels = urlListsBody.extend({
  models: z.array(learnedModelSchema).describe('사용 중인 학습 모델: 이름, 학습 여부, 학습 예시 수, 학습 시각'),
});

/**
 * CONTRACT §5: `GET /api/v1/url/lists` (API key, free) shows each harmful-URL feed's state and
 * the learned models in use; the portal's feed panel calls it with the login token.
 */
export function urlListRoutes(runtime: Runtime): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/url/lists',
      operationId: 'listUrlLists',
      tag: '보안/안전',
      summary: '유해 URL 목록(피드) 상태: 이름, 분류, 항목 수, 받은 시각, 마지막 오류, 사용 중인 학습 모델',
      auth: 'either',
      right: 'read',
      answers: {
        200: {
          description: '피드 상태',
          schema: urlListsWithModels,
          example: {
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
            models: LEARNED_MODELS_EXAMPLE,
          },
        },
      },
      handler: async () => {
        const states = await runtime.urlDetection.feedStates();
        const model = runtime.urlDetection.engine.model?.info;
        return {
          success: true,
          lists: states.map((s) => ({
            name: s.name,
            category: s.category,
            format: s.format,
            entries: s.entries,
            skipped_lines: s.skipped,
            fetched_at: s.fetchedAt?.toISOString() ?? null,
            last_attempt_at: s.lastAttemptAt?.toISOString() ?? null,
            last_error: s.lastError,
          })),
          loaded_entries: runtime.urlDetection.engine.listSize,
          model: model ? { examples: model.examples, threshold: Number(model.threshold.toFixed(4)) } : null,
          models: runtime.learnedModels.list(),
        };
      },
    }),
  ];
}
