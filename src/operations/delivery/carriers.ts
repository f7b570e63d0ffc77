import { AppError } from '../../errors.js';

/**
 * The 29 carriers of the Delivery Tracker v2 API (CONTRACT §5, copied from
 * shared/data/carriers.json). An unknown telephone number is "".
 */
export interface Carrier {
  id: string;
  name: string;
  name_ko: string;
  tel: string;
}

export const CARRIERS: readonly Carrier[] = [
  { id: 'kr.actcore.ocean-inbound', name: 'ACT&CORE (Ocean Inbound)', name_ko: 'ACT&CORE (해상수입)', tel: '' },
  { id: 'kr.cjlogistics', name: 'CJ Logistics', name_ko: 'CJ대한통운', tel: '+8215881255' },
  { id: 'kr.coupangls', name: 'Coupang Logistics Services', name_ko: '쿠팡 로지스틱스 서비스', tel: '' },
  { id: 'kr.cupost', name: 'CUpost', name_ko: 'CU 편의점택배', tel: '+8215771287' },
  { id: 'kr.chunilps', name: 'Chunilps', name_ko: '천일택배', tel: '+8218776606' },
  { id: 'kr.cvsnet', name: 'GS Postbox', name_ko: 'GS Postbox', tel: '+8215771287' },
  { id: 'kr.cway', name: 'CWAY (Woori Express)', name_ko: 'CWAY (Woori Express)', tel: '+8215884899' },
  { id: 'kr.daesin', name: 'Daesin', name_ko: '대신택배', tel: '+82314620100' },
  { id: 'kr.epantos', name: 'LX Pantos', name_ko: 'LX 판토스', tel: '' },
  { id: 'kr.epost', name: 'Korea Post', name_ko: '우체국택배', tel: '+8215881300' },
  { id: 'kr.epost.ems', name: 'Korea Post EMS', name_ko: '우체국택배 국제우편(EMS)', tel: '+8215881300' },
  { id: 'kr.goodstoluck', name: 'GoodsToLuck', name_ko: '굿투럭', tel: '' },
  { id: 'kr.homepick', name: 'HomePick', name_ko: '홈픽', tel: '+8218000987' },
  { id: 'kr.hanjin', name: 'Hanjin', name_ko: '한진택배', tel: '+8215880011' },
  { id: 'kr.honamlogis', name: 'Honam Logis', name_ko: '한서호남택배', tel: '+8218770572' },
  { id: 'kr.ilyanglogis', name: 'Ilyang Logis', name_ko: '일양로지스', tel: '+8215880002' },
  { id: 'kr.kdexp', name: 'Kyoungdong', name_ko: '경동택배', tel: '+8218995368' },
  { id: 'kr.kunyoung', name: 'Kunyoung', name_ko: '건영택배', tel: '+82533543001' },
  { id: 'kr.logen', name: 'Logen', name_ko: '로젠택배', tel: '+8215889988' },
  { id: 'kr.lotte', name: 'Lotte', name_ko: '롯데택배', tel: '+8215882121' },
  { id: 'kr.lotte.global', name: 'Lotte Global', name_ko: '롯데택배 (국제택배)', tel: '+8215882121' },
  { id: 'kr.ltl', name: 'LTL', name_ko: 'LTL', tel: '' },
  { id: 'kr.slx', name: 'SLX', name_ko: 'SLX', tel: '+82316375400' },
  { id: 'kr.swgexp.epost', name: 'Sungwon Global Cargo (Korea Post)', name_ko: '성원글로벌카고 (우체국)', tel: '+82327469984' },
  { id: 'kr.swgexp.cjlogistics', name: 'Sungwon Global Cargo (CJ Logistics)', name_ko: '성원글로벌카고 (대한통운)', tel: '+82327469984' },
  { id: 'kr.todaypickup', name: 'Today Pickup', name_ko: '오늘의픽업', tel: '+8216665615' },
  { id: 'kr.yongmalogis', name: 'Yongma Logis', name_ko: '용마로지스', tel: '' },
  { id: 'kr.hanips', name: 'HPL', name_ko: 'HPL (한의사랑택배)', tel: '+8216001055' },
  { id: 'kr.hdexp', name: 'Hapdong', name_ko: '합동택배', tel: '+8218993392' },
];

const BY_ID = new Map(CARRIERS.map((carrier) => [carrier.id, carrier]));

export function findCarrier(id: string): Carrier | undefined {
  return BY_ID.get(id);
}

/**
 * SPEC's carriers that the Delivery Tracker no longer serves (removed from its carrier
 * registry): asking it gives "Carrier not found", which would read as "no such parcel".
 */
const RETIRED_UPSTREAM = new Set(['kr.hanips', 'kr.hdexp']);

export function isRetired(carrierId: string): boolean {
  return RETIRED_UPSTREAM.has(carrierId);
}

/** A clear 400 for a carrier the upstream no longer tracks (free: no request is made). */
export function refuseRetired(carrierId: string): void {
  if (!RETIRED_UPSTREAM.has(carrierId)) return;
  const carrier = BY_ID.get(carrierId)!;
  const tel = carrier.tel.startsWith('+82') ? ` (고객센터 ${domesticNumber(carrier.tel)})` : '';
  throw new AppError(
    'INVALID_REQUEST',
    `${carrier.name_ko}(${carrier.id})는 조회 서버(Delivery Tracker)가 더 이상 지원하지 않아 배송 조회와 알림을 할 수 없습니다. 택배사 홈페이지나 고객센터${tel}에서 확인하세요.`,
    { field: 'carrier_id' },
  );
}

/** `+8216001055` → `1600-1055`, `+82314620100` → `031-462-0100`. */
export function domesticNumber(tel: string): string {
  if (!tel.startsWith('+82')) return tel;
  const rest = tel.slice(3);
  if (/^1\d{7}$/.test(rest)) return `${rest.slice(0, 4)}-${rest.slice(4)}`;
  const national = `0${rest}`;
  const area = national.startsWith('02') ? 2 : 3;
  const tail = national.length - area;
  return `${national.slice(0, area)}-${national.slice(area, area + tail - 4)}-${national.slice(-4)}`;
}

/** Carriers whose waybill numbers contain letters (international and ocean shipments). */
const ALPHANUMERIC = new Set(['kr.actcore.ocean-inbound', 'kr.epost.ems', 'kr.epantos', 'kr.lotte.global']);

/** Spaces and hyphens dropped; undefined when what is left is not a valid number for the carrier. */
export function normalizeTrackId(carrierId: string, raw: string): string | undefined {
  const compact = raw.replace(/[\s-]+/g, '');
  if (compact.length === 0 || compact.length > 40) return undefined;
  // `auto` (detection) takes letters too: an EMS number is recognised by them.
  const letters = ALPHANUMERIC.has(carrierId) || carrierId === 'auto';
  const pattern = letters ? /^[0-9A-Za-z]+$/ : /^[0-9]+$/;
  return pattern.test(compact) ? (letters ? compact.toUpperCase() : compact) : undefined;
}

/** International carriers: longer legs and customs, used by the arrival estimate. */
export function isInternational(carrierId: string): boolean {
  return ALPHANUMERIC.has(carrierId) || carrierId.startsWith('kr.swgexp.');
}
