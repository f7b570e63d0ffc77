import type { HarmCategory } from './list-index.js';

/**
 * Words of each harm category as Korean users meet them: Korean, and the romanizations
 * that rotating domains are built from. `host` terms match inside host labels (domains glue
 * words together: `totosite79`), `bounded` terms only between non-letters (`bet` but not
 * `alphabet`), `korean` terms in IDN hosts and in the decoded path and query.
 * Patterns are regular-expression fragments, lower-case.
 */
export interface Vocabulary {
  category: HarmCategory;
  /** Korean noun for reasons: "도박 용어". */
  label: string;
  host: string[];
  bounded: string[];
  korean: string[];
  /** Korean words with no innocent reading (먹튀, 조건만남, 카드깡): heavier in paths. */
  koreanStrong: string[];
  /** Weight of the first host hit, then of each further distinct hit. */
  hostWeight: number;
  extraWeight: number;
  /** Weight of each path/query hit (capped at three); strong Korean words weigh `strongPathWeight`. */
  pathWeight: number;
  strongPathWeight: number;
  /** Weight of a bounded (weak) host word when no strong one is there. */
  weakWeight: number;
}

export const VOCABULARIES: readonly Vocabulary[] = [
  {
    category: 'gambling',
    label: '도박 용어',
    host: [
      'casino', 'kasino', 'baccarat', 'bacarat', 'bakara', 'bacara', 'toto(?!ro)', 'slots?(?!h)', 'powerball', 'sadari',
      'holdem', 'poker', 'roulette', 'jackpot', 'betting', 'sportsbet', 'gambl', 'meoktwi', 'muktwi', 'mukti', 'muktu',
      'majorsite', 'major-site', 'safetoto', 'noriteo', 'nolitor', 'kkongmoney', 'ggongmoney', 'blackjack', 'pachinko',
      'wager', 'livecasino', 'minigame', '(?<![a-z])bets?(?![a-z])', '\\dbet', 'bet\\d',
    ],
    bounded: ['mt', 'vegas', 'macau', 'evo'],
    korean: [
      '토토', '카지노', '바카라', '먹튀', '슬롯', '파워볼', '사다리', '홀덤', '배팅', '베팅', '꽁머니', '첫충', '매충',
      '놀이터', '메이저사이트', '사설', '룰렛', '잭팟', '환전', '가입코드', '블랙잭', '도박', '승인전화', '스포츠분석',
    ],
    koreanStrong: ['먹튀', '꽁머니', '첫충', '매충', '안전놀이터', '메이저사이트', '가입코드', '사설토토', '토토사이트'],
    hostWeight: 55,
    extraWeight: 15,
    pathWeight: 20,
    strongPathWeight: 35,
    weakWeight: 30,
  },
  {
    category: 'adult',
    label: '성인·음란 용어',
    host: [
      'porn', 'xxx', '(?<!s|es|dle|wes)sex(?!t)', 'adult', 'nude', 'hentai', 'milf', 'escort', 'yadong', 'erotic',
      'fetish', 'bdsm', 'camgirl', 'onlyfans', 'opguide', 'opstar', 'bamwar', 'gunma', 'chuljang', 'hooker', 'nsfw',
      'xvideo', 'xhamster', 'redtube', 'hotgirl', 'avsee', 'missav', 'javhd', 'yasa', 'bamje', 'opview', 'kissbang',
    ],
    bounded: ['av', 'jav', 'anma', 'sexy', 'tits', 'boobs', 'nsfw'],
    korean: [
      '야동', '성인', '섹스', '포르노', '야사', '조건만남', '출장안마', '출장마사지', '오피(?!스)', '건마', '휴게텔',
      '립카페', '키스방', '안마방', '유흥', '벗방', '19금', '몰카', '야한', '애인대행', '텐프로', '성인방송',
    ],
    koreanStrong: ['야동', '조건만남', '출장안마', '출장마사지', '벗방', '휴게텔', '립카페', '키스방', '애인대행', '몰카', '포르노'],
    hostWeight: 55,
    extraWeight: 15,
    pathWeight: 20,
    strongPathWeight: 35,
    weakWeight: 35,
  },
  {
    category: 'spam',
    label: '대출·광고성 스팸 용어',
    host: [
      'loan', 'daechul', 'geupjeon', 'viagra', 'cialis', 'replica', 'giveaway', 'freegift', 'free-gift', 'prize',
      'airdrop', 'backlink', 'followers', 'forex', 'pharmacy', 'weightloss', 'jusik', 'leadingroom', 'stockleading',
      'cashback-event', 'quickcash', 'easymoney', 'moneyback', 'bitcoin-double', 'luckydraw', 'winner', 'gaeindon',
    ],
    bounded: ['ilsu', 'cash', 'rich', 'profit', 'payday', 'credit', 'sms', 'coupon', 'reward', 'event', 'diet', 'stock', 'money'],
    korean: [
      '대출', '급전', '일수', '무직자', '현금화', '소액결제', '상품권매입', '리딩방', '주식리딩', '수익보장', '고수익',
      '부업', '재택알바', '재택부업', '무료체험', '비아그라', '시알리스', '발기부전', '다이어트약', '경품', '당첨',
      '무료쿠폰', '선착순', '원금보장', '카드깡', '휴대폰깡', '내구제', '작업대출', '개인돈', '저금리', '투자문의', '코인리딩',
    ],
    koreanStrong: [
      '카드깡', '휴대폰깡', '내구제', '작업대출', '개인돈', '리딩방', '주식리딩', '코인리딩', '상품권매입', '소액결제',
      '현금화', '재택알바', '재택부업', '비아그라', '시알리스', '발기부전', '무직자대출', '원금보장', '수익보장',
    ],
    hostWeight: 50,
    extraWeight: 15,
    pathWeight: 20,
    strongPathWeight: 35,
    weakWeight: 25,
  },
  {
    category: 'phishing',
    label: '계정·인증 유도 용어',
    host: [
      'login', 'signin', 'sign-in', 'verif', 'secure', 'security', 'account', 'webscr', 'wallet', 'unlock', 'suspend',
      'recover', 'confirm', 'authenticat', 'delivery', 'parcel', 'tracking', 'invoice', 'unpaid', 'refund', 'customs',
      'taekbae', 'baesong', 'gwataeryo', 'hwangeup', 'jiwongeum', 'update', 'cert', 'otp',
    ],
    bounded: ['auth', 'post', 'kr', 'support', 'service', 'help', 'id', 'pay', 'bank', 'card', 'mobile', 'm'],
    korean: [
      '로그인', '본인인증', '본인확인', '인증', '보안', '계정', '택배', '배송', '주소지', '주소확인', '부재', '반송',
      '미납', '과태료', '범칙금', '환급', '지원금', '건강검진', '결과조회', '청첩장', '부고', '돌잔치', '미수령',
      '통관', '관세', '정지', '해지', '비밀번호', '공인인증', '보험료',
    ],
    koreanStrong: [],
    hostWeight: 15,
    extraWeight: 15,
    pathWeight: 10,
    strongPathWeight: 10,
    weakWeight: 0,
  },
  {
    category: 'malware',
    label: '악성 프로그램 배포 용어',
    host: ['crack', 'keygen', 'warez', 'modapk', 'mod-apk', 'payload', 'stealer', 'botnet', 'apkdown', 'apkfree', 'nulled'],
    bounded: ['bins', 'mozi', 'loader', 'rat', 'apk', 'mirai', 'i\\.sh', 'x86', 'arm7', 'mips', 'mpsl', 'setup', 'installer'],
    korean: ['설치파일', '보안프로그램', '백신설치', '앱설치', '보안업데이트', '공인인증서설치', '크랙', '무설치'],
    koreanStrong: ['보안프로그램', '공인인증서설치', '크랙'],
    hostWeight: 50,
    extraWeight: 15,
    pathWeight: 20,
    strongPathWeight: 35,
    weakWeight: 25,
  },
];

/**
 * Bounded phishing terms are weak alone (`kr`, `m`, `id` are everywhere); they only add weight
 * next to a brand. This set names them so the rule can tell.
 */
export const WEAK_PHISHING_TERMS = new Set(['kr', 'support', 'service', 'help', 'id', 'pay', 'bank', 'card', 'mobile', 'm', 'post', 'auth']);
