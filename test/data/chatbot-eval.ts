/**
 * Evaluation set of the knowledge chatbot: the knowledge of a fictional Korean online shop
 * and software team (mostly Korean, some English), questions whose answer is one of its
 * facts, questions it cannot answer, and a generator of distractor entries on other topics
 * (made at test time, deterministic).
 */

import { seededRandom } from '../helpers/seeded-random.js';

export const EVAL_ENTRIES: string[] = [
  '하늘마켓 환불 정책: 상품을 받은 날부터 7일 이내에 환불을 신청할 수 있습니다. 단순 변심에 의한 반품은 왕복 배송비 6,000원을 고객이 부담합니다.',
  '환불 금액은 반품 상품이 물류센터에 도착해 검수가 끝난 뒤 3영업일 이내에 결제 수단으로 돌려드립니다. 신용카드 결제는 카드사 사정에 따라 취소 반영이 더 늦을 수 있습니다.',
  '배송 안내: 평일 오후 2시까지 결제한 주문은 당일 출고됩니다. 제주도와 도서산간 지역은 추가 배송비 3,000원이 부과됩니다.',
  '무료 배송 기준: 한 번에 30,000원 이상 구매하면 배송비가 무료입니다. 30,000원 미만 주문의 기본 배송비는 2,500원입니다.',
  '고객센터 운영 시간은 평일 오전 9시부터 오후 6시까지이며, 점심시간(12시~1시)에는 전화 상담이 어렵습니다. 주말과 공휴일은 휴무입니다.',
  '고객센터 대표 전화번호는 1588-1234이고, 이메일 문의는 help@haneulmarket.kr 로 보내 주세요.',
  '적립금 안내: 구매 확정 시 결제 금액의 1%가 적립금으로 지급됩니다. 적립금의 유효기간은 지급일로부터 1년입니다.',
  '회원 등급은 실버, 골드, VIP 세 단계입니다. 최근 6개월 구매 금액이 50만 원 이상이면 VIP 등급이 되며 매달 5,000원 할인 쿠폰을 받습니다.',
  '교환 안내: 사이즈 교환은 1회에 한해 무료이며, 상품 수령 후 14일 이내에 마이페이지에서 신청할 수 있습니다.',
  '선물 포장은 상품 하나당 2,000원이며 주문서 작성 단계에서 선택할 수 있습니다.',
  '주문 취소는 상품이 출고되기 전까지 마이페이지 주문 내역에서 직접 할 수 있습니다. 출고 후에는 반품 절차로 진행됩니다.',
  '해외 배송은 현재 미국, 일본, 캐나다 세 나라로만 가능하며 평균 7~10일이 걸립니다.',
  '비밀번호 재설정: 로그인 화면의 "비밀번호 찾기"를 누르면 가입한 이메일로 재설정 링크가 발송됩니다. 링크는 30분 동안 유효합니다.',
  '회원 탈퇴를 하면 보유한 적립금과 쿠폰은 모두 소멸되며, 같은 이메일로는 30일 동안 다시 가입할 수 없습니다.',
  '재입고 알림을 신청하면 상품이 다시 입고될 때 카카오톡 알림톡으로 알려 드립니다.',
  '사내 연차 규정: 입사 첫해에는 한 달 만근 시 1일의 연차가 생기며, 1년 이상 근무하면 매년 15일의 연차가 주어집니다.',
  '재택근무는 주 2회까지 가능하며, 전날 오후 5시까지 팀장에게 메신저로 알려야 합니다.',
  '법인카드로 결제한 경비는 사용일로부터 5일 이내에 경비 시스템에 영수증 사진과 함께 등록해야 합니다.',
  '사내 와이파이 이름은 HANEUL-STAFF이고, 비밀번호는 보안팀이 분기마다 바꿉니다. 방문객은 HANEUL-GUEST에 접속합니다.',
  '노트북 분실 시 즉시 보안팀(내선 7700)에 신고해야 하며, 원격 잠금 조치가 진행됩니다.',
  '점심 식대는 하루 10,000원까지 지원되며, 사내 식당을 이용하면 자동으로 차감됩니다.',
  '건강검진은 2년마다 회사 지정 병원에서 받을 수 있고, 배우자 검진 비용의 50%를 회사가 지원합니다.',
  '신규 입사자는 첫 주에 보안 교육과 개인정보 보호 교육을 반드시 이수해야 합니다.',
  '사무실 주차는 등록된 차량 한 대만 가능하며, 월 주차 요금 50,000원 중 절반을 회사가 부담합니다.',
  'Deployment policy: production deploys are allowed Monday to Thursday between 10:00 and 16:00 KST. Friday deploys need approval from the engineering manager.',
  'On-call engineers must acknowledge a PagerDuty alert within 15 minutes. If nobody acknowledges, the alert escalates to the team lead.',
  'The staging database is refreshed from an anonymized production snapshot every Sunday at 03:00.',
  'API rate limits for partners: the standard plan allows 600 requests per minute; the enterprise plan allows 6,000 requests per minute.',
  'Code review: every pull request needs at least two approvals, and one reviewer must be from the owning team.',
  'Password policy: internal accounts require at least 12 characters and must be rotated every 90 days. Multi-factor authentication is mandatory.',
  'Backups of the order database are taken every 6 hours and kept for 35 days in a separate region.',
  'The customer support chatbot is available 24 hours a day in Korean and English.',
  '하늘마켓 앱은 안드로이드 9 이상, iOS 15 이상에서 사용할 수 있습니다.',
  '쿠폰은 한 주문에 한 장만 사용할 수 있으며, 적립금과는 함께 사용할 수 있습니다.',
  // A long entry: split into several chunks; the answers sit in different chunks.
  [
    '하늘마켓 판매자 입점 가이드입니다. 입점을 원하는 판매자는 사업자등록증과 통신판매업 신고증을 준비해야 합니다. 서류 심사는 보통 영업일 기준 5일이 걸립니다.',
    '심사에 통과하면 판매자 센터 계정이 발급됩니다. 판매자 센터에서는 상품 등록, 주문 확인, 정산 내역 조회를 할 수 있습니다. 상품 사진은 최소 1000픽셀 이상이어야 하며, 워터마크가 들어간 사진은 등록할 수 없습니다.',
    '판매 수수료는 카테고리마다 다릅니다. 의류와 잡화는 12%, 식품은 9%, 디지털 기기는 6%의 수수료가 부과됩니다. 수수료에는 결제 대행 수수료가 포함되어 있습니다.',
    '정산은 구매 확정일을 기준으로 매주 수요일에 판매자가 등록한 계좌로 입금됩니다. 정산 보류가 걸린 주문은 분쟁이 해결된 뒤 다음 정산일에 지급됩니다.',
    '판매자가 배송 지연을 3회 이상 일으키면 한 달 동안 신규 상품 등록이 제한됩니다. 배송 지연은 결제일로부터 3영업일 안에 발송하지 않은 경우를 말합니다.',
    '판매자 전용 상담 채널은 판매자 센터의 1:1 문의 게시판이며, 평일에는 24시간 안에 답변을 드립니다.',
  ].join('\n\n'),
];

export interface AnswerableQuestion {
  question: string;
  /** Each must appear in the answer (a fact of the stored knowledge). */
  expected: string[];
}

export const ANSWERABLE: AnswerableQuestion[] = [
  { question: '환불은 언제까지 신청할 수 있나요?', expected: ['7일'] },
  { question: '단순 변심으로 반품하면 배송비는 얼마예요?', expected: ['6,000원'] },
  { question: '환불 금액은 언제 돌려받나요?', expected: ['3영업일'] },
  { question: '당일 출고가 되려면 몇 시까지 결제해야 하나요?', expected: ['오후 2시'] },
  { question: '제주도 추가 배송비는?', expected: ['3,000원'] },
  { question: '무료 배송은 얼마 이상 사야 되나요?', expected: ['30,000원'] },
  { question: '고객센터 운영 시간 알려주세요', expected: ['오전 9시', '오후 6시'] },
  { question: '고객센터 전화번호가 뭐예요?', expected: ['1588-1234'] },
  { question: '적립금은 얼마나 쌓이나요?', expected: ['1%'] },
  { question: '적립금 유효기간은 얼마나 되나요?', expected: ['1년'] },
  { question: 'VIP 등급이 되려면 얼마나 구매해야 해요?', expected: ['50만 원'] },
  { question: '사이즈 교환은 며칠 안에 신청해야 하나요?', expected: ['14일'] },
  { question: '선물 포장 비용은 얼마인가요?', expected: ['2,000원'] },
  { question: '주문 취소는 어디서 하나요?', expected: ['마이페이지'] },
  { question: '해외 배송 가능한 나라는 어디인가요?', expected: ['미국', '일본'] },
  { question: '비밀번호 재설정 링크는 얼마 동안 유효한가요?', expected: ['30분'] },
  { question: '회원 탈퇴하면 적립금은 어떻게 되나요?', expected: ['소멸'] },
  { question: '재입고 알림은 어떻게 받나요?', expected: ['알림톡'] },
  { question: '1년 이상 근무하면 연차가 며칠인가요?', expected: ['15일'] },
  { question: '재택근무는 일주일에 몇 번 가능한가요?', expected: ['주 2회'] },
  { question: '법인카드 영수증은 언제까지 등록해야 하나요?', expected: ['5일'] },
  { question: '방문객 와이파이 이름이 뭐예요?', expected: ['HANEUL-GUEST'] },
  { question: '노트북을 잃어버리면 어디에 신고하나요?', expected: ['보안팀'] },
  { question: '점심 식대 지원 금액은?', expected: ['10,000원'] },
  { question: '배우자 건강검진 비용도 지원되나요?', expected: ['50%'] },
  { question: '신규 입사자가 첫 주에 받아야 하는 교육은?', expected: ['보안 교육'] },
  { question: '월 주차 요금은 얼마이고 회사가 얼마나 내주나요?', expected: ['50,000원'] },
  { question: '앱은 iOS 몇 버전 이상에서 되나요?', expected: ['iOS 15'] },
  { question: '쿠폰 여러 장을 한 주문에 쓸 수 있나요?', expected: ['한 장'] },
  { question: '입점 서류 심사는 얼마나 걸리나요?', expected: ['5일'] },
  { question: '식품 카테고리 판매 수수료는 몇 퍼센트인가요?', expected: ['9%'] },
  { question: '정산금은 무슨 요일에 입금되나요?', expected: ['수요일'] },
  { question: '상품 사진 최소 해상도는?', expected: ['1000픽셀'] },
  { question: '배송 지연을 여러 번 하면 어떤 제재가 있나요?', expected: ['신규 상품 등록이 제한'] },
  { question: 'When are production deploys allowed?', expected: ['Monday to Thursday'] },
  { question: 'Can we deploy on Friday?', expected: ['approval'] },
  { question: 'How quickly must on-call acknowledge an alert?', expected: ['15 minutes'] },
  { question: 'When is the staging database refreshed?', expected: ['Sunday'] },
  { question: 'What is the rate limit of the enterprise plan?', expected: ['6,000 requests per minute'] },
  { question: 'How many approvals does a pull request need?', expected: ['two approvals'] },
  { question: 'How long must internal passwords be?', expected: ['12 characters'] },
  { question: 'How long are order database backups kept?', expected: ['35 days'] },
  { question: 'Is the support chatbot available in English?', expected: ['English'] },
  { question: 'How often are backups of the order database taken?', expected: ['6 hours'] },
];

/** Questions on topics the knowledge does not cover: the bot must say it has no answer. */
export const UNANSWERABLE: string[] = [
  '반려동물을 사무실에 데려와도 되나요?',
  '하늘마켓 대표이사 이름이 뭐예요?',
  '비트코인으로 결제할 수 있나요?',
  '오프라인 매장 위치가 어디예요?',
  '육아휴직은 최대 몇 년까지 쓸 수 있나요?',
  '사내 동호회 지원금은 얼마인가요?',
  '중고 거래 기능이 있나요?',
  'Do we have a budget for conference travel?',
  'Which cloud provider hosts the search cluster?',
  'What is the dress code at the office?',
  '퇴직금 중간정산 조건이 궁금해요',
  'Is there a referral bonus for hiring?',
];


const KO_SUBJECTS = ['등산 동호회', '요리 교실', '도서관', '수영장', '캠핑장', '미술관', '헬스장', '어학원', '주민센터', '공원 관리소', '영화관', '시립 박물관', '자전거 대여소', '꽃집', '제과점', '동물병원', '세탁소', '카페', '사진관', '여행사'];
const KO_TOPICS = ['회원 가입', '이용 요금', '운영 시간', '예약 방법', '주차 안내', '준비물', '강좌 일정', '단체 할인', '분실물 처리', '안전 수칙', '대관 신청', '휴관일', '시설 이용', '연회비', '수강 신청'];
const KO_PREDICATES = [
  (n: number) => `매달 ${n}일에 새로운 일정이 공지됩니다.`,
  (n: number) => `이용 요금은 1회 ${n * 500}원이며 현장에서 결제합니다.`,
  (n: number) => `${n}명 이상 단체는 하루 전까지 전화로 예약해야 합니다.`,
  (n: number) => `평일에는 오전 ${(n % 4) + 7}시에 문을 엽니다.`,
  (n: number) => `준비물은 편한 복장과 개인 물병입니다. 자세한 내용은 게시판 ${n}번 글을 참고하세요.`,
  (n: number) => `주차는 최대 ${n % 5 + 1}시간까지 무료로 할 수 있습니다.`,
  (n: number) => `우천 시에는 일정이 ${n % 7 + 1}일 연기될 수 있습니다.`,
  (n: number) => `신청서는 안내 데스크에서 받을 수 있으며 처리에는 ${n % 10 + 1}일이 걸립니다.`,
  (n: number) => `어린이는 보호자와 함께 입장해야 하며 ${n % 12 + 1}세 이하는 무료입니다.`,
  (n: number) => `분실물은 ${n % 30 + 1}일 동안 보관한 뒤 폐기합니다.`,
];
const EN_SUBJECTS = ['hiking club', 'cooking class', 'city library', 'swimming pool', 'campground', 'art museum', 'fitness center', 'language school', 'bike rental', 'bakery', 'photo studio', 'travel agency'];
const EN_PREDICATES = [
  (n: number) => `new schedules are posted on day ${n} of each month.`,
  (n: number) => `a single visit costs ${n * 2} dollars, paid on site.`,
  (n: number) => `groups of ${n} or more should book by phone a day ahead.`,
  (n: number) => `it opens at ${(n % 4) + 7} am on weekdays.`,
  (n: number) => `lost items are kept for ${n % 30 + 1} days and then discarded.`,
  (n: number) => `children under ${n % 12 + 1} enter free with a guardian.`,
];

/** `count` distractor entries on unrelated topics (about one in five in English). */
export function generateDistractors(count: number, seed = 20_261_122): string[] {
  const next = seededRandom(seed);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)]!;
  const entries: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = Math.floor(next() * 90) + 2;
    if (next() < 0.2) {
      const subject = pick(EN_SUBJECTS);
      entries.push(`The ${subject} #${i}: ${pick(EN_PREDICATES)(n)} ${pick(EN_PREDICATES)(n + 3)}`);
    } else {
      const subject = `${pick(KO_SUBJECTS)} ${i}호점`;
      entries.push(`${subject} ${pick(KO_TOPICS)} 안내: ${pick(KO_PREDICATES)(n)} ${pick(KO_PREDICATES)(n + 5)} 문의는 안내 데스크로 해 주세요.`);
    }
  }
  return entries;
}
