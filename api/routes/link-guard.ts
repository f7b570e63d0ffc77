import { z } from 'zod';
import type { Runtime } from '../../src/runtime.js';
import { accountOf } from '../middleware/auth.js';
import { defineRoute, type Route } from '../route.js';

const incidentSchema = z.object({
  id: z.number().int(),
  platform: z.enum(['slack', 'discord']).describe('slack | discord'),
  workspace_id: z.string().describe('Slack 워크스페이스(team) ID 또는 Discord 서버 ID'),
  channel_id: z.string(),
  poster_id: z.string().describe('링크를 올린 사용자(또는 봇)의 플랫폼 ID'),
  url_hash: z.string().describe('URL의 SHA-256 (URL 자체와 메시지는 저장하지 않습니다)'),
  host: z.string(),
  category: z.enum(['spam', 'gambling', 'adult', 'phishing', 'malware']),
  reason: z.string(),
  action: z.enum(['warned', 'hidden', 'warned_not_hidden', 'not_warned']).describe('경고함, 숨김, 숨기지 못하고 경고함, 경고 실패'),
  created_at: z.string(),
});

const incidentsBody = z.object({ success: z.literal(true), incidents: z.array(incidentSchema) });

/**
 * Issue 40: `GET /api/v1/guard/incidents` (login token or API key, free): the harmful links the
 * link guard found in the Slack workspaces and Discord servers linked to the account, newest
 * first, kept 90 days. The portal's link-guard panel calls it with the login token.
 */
export function linkGuardRoutes(runtime: Runtime): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/guard/incidents',
      operationId: 'listGuardIncidents',
      tag: '링크 가드',
      summary: '링크 가드가 연결된 Slack·Discord 채널에서 찾은 유해 링크 (최근 100건, 90일 보관)',
      auth: 'either',
      right: 'read',
      answers: {
        200: {
          description: '최근 사건 목록',
          schema: incidentsBody,
          example: {
            success: true,
            incidents: [
              {
                id: 12,
                platform: 'slack',
                workspace_id: 'T0123ABCD',
                channel_id: 'C0456EFGH',
                poster_id: 'U0789IJKL',
                url_hash: '9f2c…',
                host: 'kbstar-login.xyz',
                category: 'phishing',
                reason: '피싱·사칭 위험이 있는 URL입니다: KB국민은행의 공식 도메인이 아닌데 호스트에 ‘kbstar’가 들어 있음.',
                action: 'warned',
                created_at: '2026-11-27T05:00:00.000Z',
              },
            ],
          },
        },
      },
      handler: async (_input, req) => ({
        success: true as const,
        incidents: (await runtime.linkGuard.recentFor(accountOf(req).id, 100)) as z.output<typeof incidentSchema>[],
      }),
    }),
  ];
}
