import { notConfigured, timedOut } from '../../providers/llm-errors.js';
import { trackerFailure } from '../../providers/tracker.js';
import { defineOperation, withLlm } from '../operation-module.js';
import type { Delivery } from './delivery-module.js';
import { deliveryOutputSchema, deliveryTrackSchema } from './delivery.schema.js';
import { notFoundAtCandidates } from './tracking-service.js';

/** Parcel tracking: the lookup (shared with the watch poller), and on request a delay analysis and a message for the courier. */
export const deliveryModule = defineOperation({
  catalog: {
    id: 'delivery-tracking',
    name: '택배 배송 조회',
    nameEn: 'Parcel tracking',
    path: '/api/v1/delivery/track',
    category: '택배 조회',
    categoryEn: 'parcel tracking',
    requiresSubscription: true,
    description: '국내외 택배사 29곳의 배송 상태를 조회하고, 바뀌면 웹훅이나 채널로 알려 줍니다.',
    descriptionEn: 'Tracks parcels of 29 carriers and tells you of changes by webhook or chat channel.',
    availability: (features) =>
      features.tracker === false
        ? {
            available: false,
            engine: 'tracker',
            unavailable_reason: '택배 조회 서비스에 접속할 권한이 없습니다',
            unavailable_reason_en: 'the parcel-tracking service refuses this server',
          }
        : withLlm('tracker', features),
  },
  input: deliveryTrackSchema,
  output: deliveryOutputSchema,
  example: {
    operationId: 'trackDelivery',
    summary: '택배 배송 조회와 AI 지연 분석, 기사님께 보낼 메시지 추천',
    request: { carrier_id: 'kr.cjlogistics', track_id: '123456789012', ai: 1, situation: 'door', tone: 'polite' },
    response: {
      carrier: { id: 'kr.cjlogistics', name: 'CJ Logistics', name_ko: 'CJ대한통운', tel: '+8215881255' },
      state: { id: 'in_transit', text: '상품이동중' },
      progresses: [
        {
          time: '2026-11-20T18:02:00+09:00',
          status: { id: 'in_transit', text: '간선상차' },
          location: { name: '곤지암Hub' },
          description: '간선상차',
        },
      ],
      ai_analysis: '곤지암 허브에서 이동 중이며 11월 23일(월) 도착이 예상됩니다.',
      recommend_message: '안녕하세요, 기사님. 부재 시 문 앞에 놓아 주시면 감사하겠습니다.',
    },
  },
  errors: (config) => [
    trackerFailure('택배 조회 서버에 연결하지 못했습니다.'),
    notConfigured(),
    timedOut(config.LLM_TIMEOUT_MS),
    // `track_id` alone and no candidate carrier knew the number (issue 38).
    notFoundAtCandidates([
      { id: 'kr.cjlogistics', name: 'CJ Logistics', name_ko: 'CJ대한통운', confidence: 0.52, rule: 'inferred', found: false },
      { id: 'kr.lotte', name: 'Lotte', name_ko: '롯데택배', confidence: 0.31, rule: 'inferred', found: false },
      { id: 'kr.hanjin', name: 'Hanjin', name_ko: '한진택배', confidence: 0.16, rule: 'inferred', found: false },
    ]),
  ],
  // Built with the tracking service the watch poller shares (delivery-module.ts).
  create: (deps: { delivery: Delivery }) => deps.delivery.operation,
});
