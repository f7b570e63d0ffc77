import type { DeliveryAnalysis } from '../operations/delivery/analysis.js';
import type { Progress, TrackingResult } from '../operations/delivery/tracking-result.js';
import type { Change } from './changes.js';
import type { z } from 'zod';
import type { webhookPayloadSchema } from './webhook-events.js';
import { domesticNumber } from '../operations/delivery/carriers.js';
import type { ChannelMessage } from '../operations/delivery-watch/channels.js';

/** The webhook body (CONTRACT §5; `delivery.stalled` from issue 38): the type of its schema. */
export type WebhookPayload = z.output<typeof webhookPayloadSchema>;

/** How many new events a channel message lists (the newest ones). */
const MAX_LISTED = 5;

/** `2026-11-20T09:00:00+09:00` → `11/20 09:00` (the times are already Seoul's). */
function shortTime(time: string | null): string {
  return time ? `${time.slice(5, 7)}/${time.slice(8, 10)} ${time.slice(11, 16)}` : '시간 미상';
}

function eventLine(progress: Progress): string {
  const place = [progress.location.name, progress.description].filter(Boolean).join(' · ');
  return `• ${shortTime(progress.time)} ${progress.status.text}${place ? ` — ${place}` : ''}`;
}

export interface NoticeInput {
  watchId: number;
  carrierId: string;
  trackId: string;
  result: TrackingResult;
  analysis: DeliveryAnalysis;
  change: Change;
  aiAnalysis: string | null;
  /** Stalled notices: the courier message recommendation and the normal wait (working hours) it was judged by. */
  recommendMessage?: string | null;
  stallThresholdHours?: number;
}

/** The short Korean channel message for a change. */
export function channelMessage(input: NoticeInput): ChannelMessage {
  const { result, change, analysis } = input;
  const parcel = `${result.carrier.name_ko} ${input.trackId}`;
  const lines: string[] = [];
  if (change.kind === 'delivered') {
    const last = result.progresses.at(-1);
    lines.push(`✅ ${parcel} 배송이 완료되었습니다.`);
    if (last) lines.push(eventLine(last));
    lines.push('이 운송장의 변경 알림을 마칩니다.');
  } else if (change.kind === 'stalled') {
    const hours = Math.round(analysis.workingHoursSinceLastEvent ?? 0);
    const last = result.progresses.at(-1);
    lines.push(`⏳ 배송이 멈춘 것 같아요: ${parcel} · ${result.state.text}`);
    lines.push(
      `근무 시간 기준 ${hours}시간 동안 새 배송 단계가 없습니다` +
        (input.stallThresholdHours ? ` (이 택배사·단계에서 보통은 ${Math.round(input.stallThresholdHours)}시간 안에 움직입니다).` : '.'),
    );
    if (last) lines.push(eventLine(last));
    const tel = result.carrier.tel ? domesticNumber(result.carrier.tel) : '';
    if (tel) lines.push(`☎️ ${result.carrier.name_ko} 고객센터 ${tel}`);
    if (input.recommendMessage) lines.push(`💬 보낼 메시지 추천: ${input.recommendMessage}`);
  } else {
    lines.push(`📦 ${parcel} · ${result.state.text}`);
    const listed = change.newEvents.slice(-MAX_LISTED);
    if (change.newEvents.length > listed.length) lines.push(`(새 단계 ${change.newEvents.length}건 중 최근 ${listed.length}건)`);
    lines.push(...listed.map(eventLine));
  }
  if (input.aiAnalysis) lines.push(`🤖 AI 분석: ${input.aiAnalysis}`);
  return { text: lines.join('\n') };
}

export function webhookPayload(input: NoticeInput): WebhookPayload {
  return {
    event:
      input.change.kind === 'delivered' ? 'delivery.delivered' : input.change.kind === 'stalled' ? 'delivery.stalled' : 'delivery.updated',
    watch_id: input.watchId,
    carrier_id: input.carrierId,
    track_id: input.trackId,
    state: input.result.state,
    progresses: input.result.progresses,
    ai_analysis: input.aiAnalysis,
    ...(input.change.kind === 'stalled'
      ? {
          ...(input.recommendMessage ? { recommend_message: input.recommendMessage } : {}),
          stalled: {
            hours_without_event: Math.round(input.analysis.workingHoursSinceLastEvent ?? 0),
            normal_hours: Math.round(input.stallThresholdHours ?? 0),
            carrier_tel: input.result.carrier.tel,
          },
        }
      : {}),
  };
}
