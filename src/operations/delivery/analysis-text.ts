import { domesticNumber } from './carriers.js';
import type { DelayCause, DeliveryAnalysis } from './analysis.js';
import { koreanDate, seoulDate } from '../../seoul-time.js';
import type { TrackingResult } from './tracking-result.js';

/** `+8215881255` → `1588-1255`, `+82314620100` → `031-462-0100`. */
export const domesticTel = domesticNumber;

function hoursText(hours: number): string {
  return hours >= 48 ? `약 ${Math.floor(hours / 24)}일 ${Math.round(hours % 24)}시간` : `약 ${Math.round(hours)}시간`;
}

function causeText(cause: DelayCause): string {
  switch (cause.kind) {
    case 'days_off': {
      const names = cause.days.slice(0, 6).map((day) => `${koreanDate(day.date)} ${day.name}`);
      return `배송을 쉬는 날(${names.join(', ')}${cause.days.length > 6 ? ' 등' : ''})이 끼어 있어 그만큼 늦어질 수 있습니다.`;
    }
    case 'hub_congestion':
      return `${cause.location}에서 영업시간 기준 ${hoursText(cause.workingHours)} 머물러 허브 물량 적체가 의심됩니다.`;
    case 'failed_attempt':
      return '배달 시도가 한 번 실패했습니다(부재 또는 주소 문제).';
    case 'customs':
      return '통관 절차가 있어 세관 심사 기간만큼 늦어질 수 있습니다.';
    case 'exception':
      return '택배사가 배송 예외(주소 오류, 파손, 반송 등)를 기록했습니다.';
    case 'stalled':
      return `마지막 처리 이후 주말과 공휴일을 빼고도 ${hoursText(cause.workingHours)} 동안 새 소식이 없어 배송이 멈춘 것으로 보입니다.`;
  }
}

function adviceText(result: TrackingResult, analysis: DeliveryAnalysis): string {
  const tel = result.carrier.tel ? `(☎ ${domesticTel(result.carrier.tel)})` : '';
  const center = `${result.carrier.name_ko} 고객센터${tel}`;
  switch (analysis.stateId) {
    case 'delivered':
      return '받지 못하셨다면 문 앞, 경비실, 택배함을 먼저 확인하고, 없으면 배송 기사님이나 ' + `${center}에 문의하세요.`;
    case 'available_for_pickup':
      return '보관 장소에서 찾아가실 수 있습니다. 보관 기간이 지나면 반송될 수 있으니 서둘러 주세요.';
    case 'attempt_fail':
      return `기사님께 연락해 재배달 시간이나 맡길 곳을 알려 드리거나 ${center}에 재배송을 요청하세요.`;
    case 'exception':
      return `${center}에 운송장 번호로 문의해 예외 사유를 확인하세요.`;
    default:
      if (analysis.stalled) return `판매자나 ${center}에 운송장 번호로 배송 상황을 문의해 보세요.`;
      if (analysis.causes.some((cause) => cause.kind === 'customs'))
        return '통관 진행 상황은 관세청 유니패스에서 확인할 수 있습니다. 조금 더 기다려 보세요.';
      return '정상적으로 이동 중입니다. 조금 더 기다려 보세요.';
  }
}

/** The deterministic analysis as Korean sentences: the `ai_analysis` without an LLM, and the LLM's starting point. */
export function analysisText(result: TrackingResult, analysis: DeliveryAnalysis): string {
  const sentences: string[] = [`오늘은 ${koreanDate(analysis.today)}입니다.`];
  const last = result.progresses.at(-1);
  if (analysis.stateId === 'delivered') {
    const at = analysis.deliveredAt ? koreanDate(seoulDate(new Date(analysis.deliveredAt))) : undefined;
    sentences.push(`${result.carrier.name_ko} 택배가 ${at ? `${at}에 ` : ''}배송 완료되었습니다.`);
  } else if (!last) {
    sentences.push('아직 택배사에 배송 기록이 없습니다. 보통 판매자가 상품을 보낸 뒤 하루 이틀 안에 첫 기록이 생깁니다.');
  } else {
    const where = last.location.name ? `${last.location.name}에서 ` : '';
    sentences.push(
      `현재 상태는 '${result.state.text}'이며, 마지막 처리는 ${where}'${last.status.text}'(${hoursText(analysis.hoursSinceLastEvent ?? 0)} 전)입니다.`,
    );
    if (analysis.stateId === 'available_for_pickup') sentences.push('상품이 보관 장소에 도착해 찾아갈 수 있습니다.');
  }
  if (analysis.expectedDate) {
    const late = analysis.stalled || analysis.causes.some((cause) => cause.kind !== 'days_off');
    sentences.push(`예상 도착일은 ${koreanDate(analysis.expectedDate)}${late ? ' 이후' : ''}입니다.`);
  }
  if (analysis.bottleneck && analysis.bottleneck.workingHours >= 12) {
    const place = analysis.bottleneck.location || '한 단계';
    sentences.push(
      `가장 오래 걸린 구간은 ${place}('${analysis.bottleneck.status}')로 영업시간 기준 ${hoursText(analysis.bottleneck.workingHours)}입니다.`,
    );
  }
  sentences.push(...analysis.causes.map(causeText));
  if (analysis.causes.length === 0 && analysis.stateId !== 'delivered' && last) sentences.push('특별한 지연 요인은 보이지 않습니다.');
  sentences.push(adviceText(result, analysis));
  return sentences.join(' ');
}
