import { AppError } from '../../errors.js';
import { CARRIERS, type Carrier } from './carriers.js';

/**
 * The names people type for carriers, beyond the ids and the official English and Korean
 * names: brand short names (우체국, 롯데, CJ, 대한통운 …), the service word dropped or added
 * (한진 / 한진택배), and common spellings. A name listed here points to the carrier people mean
 * by it, even when other carriers' names contain it (우체국 is Korea Post, not 성원글로벌카고 (우체국)).
 */
const ALIASES: Record<string, readonly string[]> = {
  'kr.cjlogistics': ['CJ', 'CJ대한통운', '대한통운', 'CJ택배', 'CJ대한통운택배', '씨제이', '씨제이대한통운', '대한통운택배'],
  'kr.epost': ['우체국', '우체국택배', '우체국소포', '우편', '등기', '등기소포', 'EPOST', 'KoreaPost', 'Korea Post Parcel'],
  'kr.epost.ems': ['EMS', '우체국EMS', '국제우편', '우체국국제우편', '국제특송'],
  'kr.lotte': ['롯데', '롯데택배', '롯데글로벌로지스', '롯데로지스틱스', '현대택배'],
  'kr.lotte.global': ['롯데국제택배', '롯데글로벌', '롯데택배국제'],
  'kr.hanjin': ['한진', '한진택배'],
  'kr.logen': ['로젠', '로젠택배'],
  'kr.kdexp': ['경동', '경동택배', '경동화물', '경동합동택배'],
  'kr.daesin': ['대신', '대신택배', '대신화물'],
  'kr.coupangls': ['쿠팡', '쿠팡택배', '쿠팡로지스틱스', '로켓배송', 'CLS', 'Coupang'],
  'kr.cupost': ['CU', 'CU택배', 'CU편의점택배', '씨유', '씨유택배', 'CU post'],
  'kr.cvsnet': ['GS', 'GS25', 'GS택배', 'GS편의점택배', '반값택배', 'CVSnet', '편의점택배 GS'],
  'kr.ilyanglogis': ['일양', '일양로지스', '일양택배'],
  'kr.chunilps': ['천일', '천일택배', '천일특송'],
  'kr.kunyoung': ['건영', '건영택배'],
  'kr.honamlogis': ['한서호남', '호남택배', '한서호남택배', '호남로지스'],
  'kr.homepick': ['홈픽', '홈픽택배'],
  'kr.hanips': ['한의사랑', '한의사랑택배', 'HPL'],
  'kr.hdexp': ['합동', '합동택배'],
  'kr.epantos': ['판토스', 'LX판토스', 'Pantos'],
  'kr.slx': ['SLX택배'],
  'kr.todaypickup': ['오늘의픽업', '오늘픽업', '오늘의 픽업'],
  'kr.yongmalogis': ['용마', '용마로지스', '용마택배'],
  'kr.goodstoluck': ['굿투럭'],
  'kr.cway': ['우리택배', '씨웨이', 'CWAY', 'Woori Express'],
  'kr.actcore.ocean-inbound': ['ACT&CORE', '액트앤코어', 'ACTCORE'],
};

/** Case, width, spaces and punctuation do not matter: `CJ 대한통운`, `cj-대한통운`, `ＣＪ대한통운` are one name. */
export function normalizeName(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s()\-_&·.,'"/]+/g, '');
}

/** Every name of every carrier, normalized: id, id without `kr.`, official names, aliases. */
const NAMES: Array<{ key: string; carrier: Carrier; alias: boolean }> = CARRIERS.flatMap((carrier) => [
  ...[carrier.id, carrier.id.replace(/^kr\./, ''), carrier.name, carrier.name_ko].map((name) => ({
    key: normalizeName(name),
    carrier,
    alias: false,
  })),
  ...(ALIASES[carrier.id] ?? []).map((name) => ({ key: normalizeName(name), carrier, alias: true })),
]);

export type CarrierMatch = { carrier: Carrier } | { candidates: Carrier[] } | { unknown: true };

function distinct(carriers: Carrier[]): Carrier[] {
  return [...new Map(carriers.map((carrier) => [carrier.id, carrier])).values()];
}

/**
 * One carrier for what a person typed: an exact id or name first (an alias wins over other
 * carriers' official names containing it), then the carriers whose names contain the text,
 * or whose name the text contains (`CJ대한통운택배요`): one is a match, several are candidates.
 */
export function matchCarrier(text: string): CarrierMatch {
  const byId = CARRIERS.find((carrier) => carrier.id === text.trim().toLowerCase());
  if (byId) return { carrier: byId };
  const wanted = normalizeName(text);
  if (wanted.length === 0) return { unknown: true };
  const exact = distinct(NAMES.filter((name) => name.key === wanted).map((name) => name.carrier));
  if (exact.length === 1) return { carrier: exact[0]! };
  if (exact.length > 1) return { candidates: exact };
  const containing = distinct(NAMES.filter((name) => wanted.length >= 2 && name.key.includes(wanted)).map((name) => name.carrier));
  if (containing.length === 1) return { carrier: containing[0]! };
  if (containing.length > 1) return { candidates: containing };
  // The text holds a name plus other words: the longest name inside it decides.
  const inside = NAMES.filter((name) => name.key.length >= 2 && wanted.includes(name.key));
  const longest = Math.max(0, ...inside.map((name) => name.key.length));
  const best = distinct(inside.filter((name) => name.key.length === longest).map((name) => name.carrier));
  if (best.length === 1) return { carrier: best[0]! };
  if (best.length > 1) return { candidates: best };
  return { unknown: true };
}

/** `성원글로벌카고 (우체국)(kr.swgexp.epost)` lists for a message. */
export function candidateList(candidates: Carrier[]): string {
  return candidates.map((carrier) => `${carrier.name_ko}(${carrier.id})`).join(', ');
}

/** The Korean explanation of a failed match, for the 400 the doors render. */
export function carrierMatchError(text: string, match: Exclude<CarrierMatch, { carrier: Carrier }>): string {
  if ('candidates' in match) {
    return `'${text.trim()}'에 해당하는 택배사가 여러 곳입니다: ${candidateList(match.candidates.slice(0, 8))}${match.candidates.length > 8 ? ' 등' : ''}. 이 중 하나의 ID나 이름을 보내세요.`;
  }
  return `지원하지 않는 택배사입니다: ${text.trim()} (택배사 ID나 이름을 확인하세요. 예: kr.cjlogistics, CJ대한통운, 우체국, 롯데, 한진, 로젠)`;
}

/** The carrier for a name, or a 400 on `field` listing the candidates. */
export function resolveCarrier(text: string, field = 'carrier_id'): Carrier {
  const match = matchCarrier(text);
  if ('carrier' in match) return match.carrier;
  throw new AppError('INVALID_REQUEST', `'${field}' 필드: ${carrierMatchError(text, match)}`, {
    field,
    ...('candidates' in match ? { candidates: match.candidates.map((c) => c.id) } : {}),
  });
}
