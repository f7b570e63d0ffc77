import { z } from 'zod';
import { AppError } from '../../src/errors.js';
import type { Runtime } from '../../src/runtime.js';
import { accountOf } from '../middleware/auth.js';
import { ok } from '../response-schemas.js';
import { defineRoute, type Route } from '../route.js';

const feedbackItem = z.object({ id: z.number().int(), question: z.string(), scope: z.string().nullable(), created_at: z.string() });
const example = { id: 7, question: '야간 출입 신청은 어디서 하나요?', scope: 'slack:C0123ABCD', created_at: '2026-11-27T05:00:00.000Z' };
const idSchema = z.object({ id: z.coerce.number({ error: 'ID는 숫자여야 합니다.' }).int().positive().max(2_147_483_647) });
export const feedbackNotFound = () => new AppError('NOT_FOUND', '해당 피드백을 찾을 수 없습니다.').en('There is no such feedback.');

/**
 * Issue 39 item 5: the questions whose bot answers were marked 👎 (the question and where it
 * was asked, nothing else), for the account to add the missing knowledge; `DELETE` marks one
 * handled. Free; `X-API-Key` or a login token (the portal).
 */
export function knowledgeFeedbackRoutes(runtime: Runtime): Route[] {
  const tag = '챗봇/커스터마이징';
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/chatbot/feedback',
      operationId: 'listChatbotFeedback',
      tag,
      summary: '👎 받은 질문 목록 (최근 50개): 빠진 지식을 채울 때 참고합니다',
      auth: 'either',
      right: 'read',
      answers: {
        200: {
          description: '목록, 최신순',
          schema: ok({ feedback: z.array(feedbackItem) }),
          example: { success: true, feedback: [example] },
        },
      },
      handler: async (_input, req) => ({ success: true, feedback: await runtime.knowledgeFeedback.list(accountOf(req).id) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/chatbot/feedback/:id',
      operationId: 'resolveChatbotFeedback',
      tag,
      summary: '👎 피드백을 처리됨으로 지웁니다',
      auth: 'either',
      right: 'keys',
      params: idSchema,
      answers: { 200: { description: '지움', schema: ok({ id: z.number().int() }), example: { success: true, id: 7 } } },
      errors: [feedbackNotFound()],
      handler: async ({ params }, req) => {
        if (!(await runtime.knowledgeFeedback.remove(accountOf(req).id, params.id))) throw feedbackNotFound();
        return { success: true, id: params.id };
      },
    }),
  ];
}
