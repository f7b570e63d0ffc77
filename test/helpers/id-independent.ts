import sharp from 'sharp';
import './korean-fonts.js';

/**
 * A second, independent generator of Korean ID documents, written apart from id-documents.ts,
 * id-images.ts and id-photos.ts (no code, word list or layout shared) so that the reader is
 * measured on documents laid out in ways nobody tuned it to: other fonts (Gowun Dodum / Batang,
 * Song Myung, Noto Sans KR, Nanum Myeongjo; from npm, korean-fonts.ts), letter-spaced labels with and without colons, values in
 * other columns or right after their label, values wrapped onto a second line, the 법인 /
 * 개인 / 면세 / 간이 사업자등록증 (공동사업자, 본점소재지, 업태·종목 on several lines),
 * resident cards, old (region-prefixed number) and new driver's licences, addresses on two
 * printed lines with their `(동, 아파트)` part, stamps over text, paper tints, and its own scan
 * and phone-photo degradations (perspective, blur, glare, moiré, JPEG).
 *
 * It has three parts: `tune` (seed 0x7a11) may be looked at while changing the reader; `measure`
 * (seed 0x3e57) and `fresh` (seed 0x5b2d) are only ever run, never read image by image, and are
 * reported apart.
 */

export type IndependentLevel = 'clean' | 'mild' | 'hard' | 'photo';
export type IndependentPart = 'tune' | 'measure' | 'fresh';
export type IndependentKind = 'resident' | 'licence' | 'business';

export interface IndependentItem {
  kind: IndependentKind;
  level: IndependentLevel;
  /** A short description of the layout variant, for reports. */
  variant: string;
  image: Buffer;
  /** The fields the reader should return (`type` as the service names it). */
  truth: Record<string, string>;
}

/** `fresh` (seed 0x5b2d): a third part, for a choice made after `measure` was read once (run, never read image by image). */
const PART_SEEDS: Record<IndependentPart, number> = { tune: 0x7a11, measure: 0x3e57, fresh: 0x5b2d };

/** xoshiro128**: a different generator from the first set's, seeded per document. */
class Dice {
  private s: Uint32Array;
  constructor(seed: number) {
    this.s = new Uint32Array(4);
    let x = seed >>> 0 || 1;
    for (let i = 0; i < 4; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      this.s[i] = x >>> 0;
    }
  }
  next(): number {
    const s = this.s;
    const result = Math.imul(rotl(Math.imul(s[1] as number, 5), 7), 9) >>> 0;
    const t = (s[1] as number) << 9;
    s[2] = (s[2] as number) ^ (s[0] as number);
    s[3] = (s[3] as number) ^ (s[1] as number);
    s[1] = (s[1] as number) ^ (s[2] as number);
    s[0] = (s[0] as number) ^ (s[3] as number);
    s[2] = (s[2] as number) ^ t;
    s[3] = rotl(s[3] as number, 11);
    return result / 4294967296;
  }
  range(low: number, high: number): number {
    return low + this.next() * (high - low);
  }
  whole(low: number, high: number): number {
    return Math.floor(this.range(low, high + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  one<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }
}
const rotl = (x: number, k: number) => ((x << k) | (x >>> (32 - k))) >>> 0;
const two = (n: number) => String(n).padStart(2, '0');

// ---------------------------------------------------------------------------------------------
// What is printed

const FAMILY = [
  '김',
  '이',
  '박',
  '정',
  '최',
  '조',
  '강',
  '윤',
  '장',
  '임',
  '신',
  '유',
  '한',
  '오',
  '전',
  '서',
  '권',
  '황',
  '문',
  '배',
  '백',
  '남',
];
const GIVEN = [
  '가은',
  '나연',
  '다현',
  '태민',
  '상훈',
  '정우',
  '민재',
  '소율',
  '하린',
  '준혁',
  '세영',
  '동건',
  '미숙',
  '영철',
  '순자',
  '광수',
  '보람',
  '경민',
  '채원',
  '시우',
  '은비',
  '기현',
  '혜진',
  '용준',
  '지환',
  '수아',
  '명희',
  '재석',
  '한결',
  '다빈',
];
const HANJA = '金李朴鄭崔趙姜尹張林申柳韓吳全徐權黃文裵白南佳娜多泰敏相勳正宇在昭律俊赫世英東建美淑永哲順光秀';

/** 시·도 with real 시·군·구 of theirs, road names and 법정동 of each. */
const PLACES: Array<{ sido: string; sigungu: string; roads: string[]; dongs: string[] }> = [
  {
    sido: '서울특별시',
    sigungu: '강남구',
    roads: ['테헤란로', '봉은사로', '선릉로', '논현로'],
    dongs: ['역삼동', '삼성동', '대치동', '논현동'],
  },
  { sido: '서울특별시', sigungu: '마포구', roads: ['월드컵북로', '양화로', '마포대로'], dongs: ['상암동', '서교동', '공덕동'] },
  { sido: '서울특별시', sigungu: '영등포구', roads: ['여의대로', '국제금융로', '당산로'], dongs: ['여의도동', '당산동'] },
  { sido: '서울특별시', sigungu: '관악구', roads: ['관악로', '남부순환로', '봉천로'], dongs: ['봉천동', '신림동'] },
  { sido: '부산광역시', sigungu: '해운대구', roads: ['센텀중앙로', '해운대로', '마린시티2로'], dongs: ['우동', '중동', '재송동'] },
  { sido: '부산광역시', sigungu: '부산진구', roads: ['중앙대로', '서면로', '전포대로'], dongs: ['부전동', '전포동'] },
  { sido: '대구광역시', sigungu: '달서구', roads: ['달구벌대로', '월배로', '상화로'], dongs: ['감삼동', '월성동'] },
  { sido: '인천광역시', sigungu: '연수구', roads: ['컨벤시아대로', '송도과학로', '해돋이로'], dongs: ['송도동', '연수동'] },
  { sido: '광주광역시', sigungu: '서구', roads: ['상무중앙로', '치평로', '무진대로'], dongs: ['치평동', '농성동'] },
  { sido: '대전광역시', sigungu: '유성구', roads: ['대학로', '엑스포로', '유성대로'], dongs: ['봉명동', '도룡동', '궁동'] },
  { sido: '경기도', sigungu: '성남시 분당구', roads: ['판교역로', '분당로', '황새울로'], dongs: ['백현동', '정자동', '서현동'] },
  { sido: '경기도', sigungu: '안양시 동안구', roads: ['시민대로', '관악대로', '평촌대로'], dongs: ['관양동', '비산동', '호계동'] },
  { sido: '경기도', sigungu: '고양시 일산동구', roads: ['중앙로', '호수로', '정발산로'], dongs: ['장항동', '마두동', '백석동'] },
  { sido: '경기도', sigungu: '화성시', roads: ['동탄대로', '병점중앙로', '향남로'], dongs: ['반송동', '병점동'] },
  { sido: '충청남도', sigungu: '천안시 서북구', roads: ['불당대로', '번영로', '쌍용대로'], dongs: ['불당동', '쌍용동'] },
  { sido: '전라북도', sigungu: '전주시 완산구', roads: ['효자로', '홍산로', '팔달로'], dongs: ['효자동', '중화산동'] },
  { sido: '경상남도', sigungu: '창원시 성산구', roads: ['중앙대로', '원이대로', '상남로'], dongs: ['상남동', '용호동'] },
  { sido: '제주특별자치도', sigungu: '제주시', roads: ['연삼로', '노형로', '신대로'], dongs: ['연동', '노형동', '이도이동'] },
];
const APARTMENTS = ['새빛아파트', '한숲마을', '푸르지오', '래미안', '센트럴파크', '더샵퍼스트파크', '자이', '힐스테이트', '주공아파트'];
const BUILDINGS = ['해솔빌딩', '미래타워', '센텀비즈니스센터', '한마음프라자', '테크노밸리'];

interface Address {
  /** As printed, one or two (sometimes three) lines. */
  lines: string[];
  truth: string;
}

/** A road-name address: road and number, a unit or a floor, the reference `(동, 건물)` part. */
function homeAddress(d: Dice, business: boolean): Address {
  const place = d.one(PLACES);
  const head = `${place.sido} ${place.sigungu} ${d.one(place.roads)} ${d.whole(2, 420)}`;
  const dong = d.one(place.dongs);
  const style = d.whole(0, 3);
  let unit = '';
  let reference = `(${dong})`;
  if (style === 0) {
    unit = `${d.whole(101, 120)}동 ${d.whole(1, 28)}${two(d.whole(1, 6))}호`;
    reference = `(${dong}, ${d.one(APARTMENTS)})`;
  } else if (style === 1 && business) {
    unit = `${d.whole(2, 15)}층 ${d.whole(201, 1505)}호`;
    reference = `(${dong}, ${d.one(BUILDINGS)})`;
  } else if (style === 1) {
    unit = `${d.whole(1, 30)}${two(d.whole(1, 4))}호`;
  } else if (style === 2 && business) {
    unit = `${d.whole(1, 12)}층`;
  }
  const afterRoad = unit ? `, ${unit} ${reference}` : ` ${reference}`;
  const truth = `${head}${afterRoad}`;
  // Printed on one line, or broken where a long address breaks on the real documents.
  const breakAt = d.whole(0, 2);
  // A card's address column is narrow: a long one always breaks.
  const lines =
    (breakAt === 0 || (!business && truth.length > 30)) && !business
      ? [`${head}${unit ? ',' : ''}`, `${unit ? `${unit} ` : ''}${reference}`]
      : breakAt === 1
        ? [`${head}${unit ? `, ${unit}` : ''}`, reference]
        : [truth];
  return { lines, truth };
}

const dateDots = (y: number, m: number, d: number) => `${y}.${two(m)}.${two(d)}.`;

function residentNumber(d: Dice): string {
  const year = d.whole(1948, 2005);
  const front = `${two(year % 100)}${two(d.whole(1, 12))}${two(d.whole(1, 28))}`;
  const sex = year >= 2000 ? d.whole(3, 4) : d.whole(1, 2);
  const middle = `${sex}${d.whole(0, 9)}${d.whole(0, 9)}${d.whole(0, 9)}${d.whole(0, 9)}${d.whole(0, 9)}`;
  const digits = front + middle;
  const weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  const sum = weights.reduce((acc, w, i) => acc + w * Number(digits[i]), 0);
  return `${front}-${middle}${(11 - (sum % 11)) % 10}`;
}

function businessNumber(d: Dice, corporate: boolean): string {
  const middle = corporate ? d.one([81, 82, 86, 87, 88]) : d.one([1, 5, 10, 12, 20, 23, 25, 30, 40]);
  const head = `${d.whole(105, 899)}${two(middle)}${d.whole(1000, 9999)}`;
  const weights = [1, 3, 7, 1, 3, 7, 1, 3, 5];
  let sum = weights.reduce((acc, w, i) => acc + w * Number(head[i]), 0);
  sum += Math.floor((Number(head[8]) * 5) / 10);
  return `${head.slice(0, 3)}-${head.slice(3, 5)}-${head.slice(5)}${(10 - (sum % 10)) % 10}`;
}

const TRADES: Array<[string, string]> = [
  ['음식점업', '한식 일반 음식점업'],
  ['도매 및 소매업', '전자상거래 소매업'],
  ['정보통신업', '응용 소프트웨어 개발 및 공급업'],
  ['제조업', '플라스틱 제품 제조'],
  ['건설업', '실내 인테리어 공사업'],
  ['서비스업', '경영 컨설팅업'],
  ['음식점업', '커피 전문점'],
  ['도매 및 소매업', '화장품 도매업'],
  ['전문, 과학 및 기술 서비스업', '광고 대행업'],
  ['교육 서비스업', '외국어 학원'],
  ['부동산업', '비주거용 건물 임대업'],
  ['운수 및 창고업', '화물 자동차 운송업'],
];
const COMPANY_HEADS = ['청솔', '바른길', '하나로', '새롬', '별빛', '동해', '금강', '은하수', '늘푸른', '대한', '우리들', '씨앗'];
const COMPANY_TAILS = ['커뮤니케이션즈', '식당', '무역', '정밀', '에듀', '물류', '이앤씨', '네트웍스', '베이커리', '로지스틱스', '바이오'];
const TAX_OFFICES = [
  '역삼',
  '삼성',
  '마포',
  '영등포',
  '관악',
  '해운대',
  '부산진',
  '서대구',
  '남인천',
  '서광주',
  '북대전',
  '분당',
  '동안양',
  '고양',
  '화성',
  '천안',
  '전주',
  '창원',
  '제주',
];
const POLICE_OLD = ['서울지방경찰청장', '경기지방경찰청장', '부산지방경찰청장', '인천지방경찰청장'];
const POLICE_NEW = ['서울특별시경찰청장', '경기도남부경찰청장', '부산광역시경찰청장', '대전광역시경찰청장', '경찰청장'];
const LICENCE_REGIONS: Record<string, number> = {
  서울: 11,
  부산: 12,
  경기: 13,
  강원: 14,
  충북: 15,
  충남: 16,
  전북: 17,
  전남: 18,
  경북: 19,
  경남: 20,
  제주: 21,
  대구: 22,
  인천: 23,
  광주: 24,
  대전: 25,
  울산: 26,
};

// ---------------------------------------------------------------------------------------------
// Drawing

/** Every face but the first generator's NanumGothic (test/helpers/korean-fonts.ts). Hanja come from Noto Sans KR. */
const FONTS = ['Gowun Dodum', 'Gowun Batang', 'Song Myung', 'Noto Sans KR', 'NanumMyeongjo'];
const PAPER = ['#ffffff', '#fbf8ef', '#f4f1e4', '#eef2f7', '#f7f3f3', '#eaf0e6'];

interface Run {
  x: number;
  y: number;
  size: number;
  text: string;
  weight?: number;
  /** Extra space between letters, in px (labels printed letter-spaced). */
  tracking?: number;
  anchor?: 'start' | 'middle' | 'end';
  fill?: string;
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function page(width: number, height: number, paper: string, font: string, runs: Run[], under = '', over = ''): string {
  const body = runs
    .map(
      (r) =>
        `<text x="${r.x.toFixed(1)}" y="${r.y.toFixed(1)}" font-size="${r.size.toFixed(1)}" font-weight="${r.weight ?? 400}"` +
        `${r.tracking ? ` letter-spacing="${r.tracking}"` : ''} text-anchor="${r.anchor ?? 'start'}"${r.fill ? ` fill="${r.fill}"` : ''}>${xml(r.text)}</text>`,
    )
    .join('\n');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<rect x="0" y="0" width="${width}" height="${height}" fill="${paper}"/>${under}` +
    `<g font-family="'${font}'" fill="#202020">${body}</g>${over}</svg>`
  );
}

/** A red seal: a circle (tax office) or a square (city / police) with two rows of hanja (Noto Sans KR: the one face with hanja), half see-through. */
function stamp(cx: number, cy: number, r: number, round: boolean, d: Dice): string {
  const tilt = d.range(-12, 12).toFixed(1);
  const frame = round
    ? `<circle cx="${cx}" cy="${cy}" r="${r}" fill="none" stroke="#d22a2a" stroke-width="${(r * 0.09).toFixed(1)}"/>`
    : `<rect x="${cx - r}" y="${cy - r}" width="${2 * r}" height="${2 * r}" fill="none" stroke="#d22a2a" stroke-width="${(r * 0.09).toFixed(1)}"/>`;
  const glyphs = round ? '稅務署長' : d.one(['廳長之印', '署長之印', '市長之印']);
  return (
    `<g transform="rotate(${tilt} ${cx} ${cy})" opacity="${d.range(0.55, 0.85).toFixed(2)}" font-family="'Noto Sans KR'" fill="#d22a2a">${frame}` +
    `<text x="${cx}" y="${cy - r * 0.08}" font-size="${(r * 0.55).toFixed(1)}" text-anchor="middle">${glyphs.slice(0, 2)}</text>` +
    `<text x="${cx}" y="${cy + r * 0.55}" font-size="${(r * 0.55).toFixed(1)}" text-anchor="middle">${glyphs.slice(2, 4)}</text></g>`
  );
}

/** Fine coloured line work behind a card's text, as security print. */
function securityPrint(d: Dice, width: number, height: number): string {
  const hue = d.whole(0, 359);
  const paths: string[] = [];
  for (let k = 0; k < 14; k++) {
    const cy = d.range(0, height);
    const amplitude = d.range(6, 30);
    const wave = d.range(40, 160);
    let path = `M0 ${cy.toFixed(0)}`;
    for (let x = 10; x <= width; x += 10) path += ` L${x} ${(cy + amplitude * Math.cos(x / wave + k)).toFixed(1)}`;
    paths.push(path);
  }
  return `<g stroke="hsl(${hue},35%,75%)" stroke-width="1" fill="none" opacity="0.8">${paths.map((p) => `<path d="${p}"/>`).join('')}</g>`;
}

function portrait(x: number, y: number, w: number, h: number, d: Dice): string {
  const tone = d.whole(150, 200);
  return (
    `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="rgb(${tone},${tone + 8},${tone + 12})"/>` +
    `<ellipse cx="${x + w / 2}" cy="${y + h * 0.4}" rx="${w * 0.22}" ry="${h * 0.2}" fill="rgb(${tone - 60},${tone - 55},${tone - 50})"/>` +
    `<path d="M${x + w * 0.1} ${y + h} Q${x + w / 2} ${y + h * 0.55} ${x + w * 0.9} ${y + h} Z" fill="rgb(${tone - 70},${tone - 70},${tone - 60})"/>`
  );
}

/** A label as the forms print it: letter-spaced by spaces, by tracking, or tight. */
function spacedLabel(label: string, d: Dice): { text: string; tracking: number } {
  const style = d.whole(0, 2);
  if (style === 0 && label.length <= 4) return { text: [...label].join(' '), tracking: 0 };
  if (style === 1 && label.length <= 5) return { text: label, tracking: d.whole(6, 14) };
  return { text: label, tracking: 0 };
}

interface Drawn {
  width: number;
  height: number;
  svg: string;
  truth: Record<string, string>;
  variant: string;
}

function residentCard(d: Dice): Drawn {
  const [width, height] = d.one([
    [856, 540],
    [1000, 630],
    [1150, 725],
  ] as const);
  const s = width / 1000;
  const name = d.one(FAMILY) + d.one(GIVEN);
  const hanja = Array.from({ length: 3 }, () => d.one([...HANJA])).join('');
  const number = residentNumber(d);
  const address = homeAddress(d, false);
  const issued = { y: d.whole(2001, 2025), m: d.whole(1, 12), d: d.whole(1, 28) };
  const place = d.one(PLACES);
  const city = place.sigungu.split(' ')[0] as string;
  const issuer = `${place.sido} ${city}${city.endsWith('군') ? '수' : city.endsWith('시') ? '장' : '청장'}`;
  const left = d.range(45, 80) * s;
  const runs: Run[] = [
    { x: left, y: 95 * s, size: 50 * s, text: '주민등록증', weight: 700, tracking: d.whole(4, 18) },
    { x: left, y: 180 * s, size: 40 * s, text: d.chance(0.6) ? `${name} (${hanja})` : name, weight: 700 },
    { x: left, y: 245 * s, size: 36 * s, text: number },
    ...address.lines.map((line, i) => ({ x: left, y: (320 + i * 42) * s, size: 26 * s, text: line })),
    { x: 640 * s, y: 505 * s, size: 28 * s, text: `${issued.y}. ${issued.m}. ${issued.d}.`, anchor: 'middle' as const },
    { x: 640 * s, y: 565 * s, size: 32 * s, text: issuer, weight: 700, anchor: 'middle' as const, tracking: 2 },
  ];
  const over = stamp(640 * s + issuer.length * 16 * s, 548 * s, 34 * s, false, d);
  return {
    width,
    height,
    svg: page(
      width,
      height,
      d.one(['#eef4f8', '#f2f2f6', '#e9f1ee']),
      d.one(FONTS),
      runs,
      securityPrint(d, width, height) + portrait(740 * s, 120 * s, 215 * s, 270 * s, d),
      over,
    ),
    truth: { type: '주민등록증', name, id_number: number, address: address.truth, issue_date: dateDots(issued.y, issued.m, issued.d) },
    variant: `resident ${address.lines.length}-line address`,
  };
}

function licenceCard(d: Dice): Drawn {
  const old = d.chance(0.4);
  const [width, height] = d.one([
    [856, 540],
    [1000, 630],
    [1150, 725],
  ] as const);
  const s = width / 1000;
  const name = d.one(FAMILY) + d.one(GIVEN);
  const number = residentNumber(d);
  const address = homeAddress(d, false);
  const issued = { y: d.whole(old ? 2008 : 2019, old ? 2018 : 2025), m: d.whole(1, 12), d: d.whole(1, 28) };
  const region = d.one(Object.keys(LICENCE_REGIONS));
  const tail = `${two(issued.y % 100)}-${d.whole(100000, 999999)}-${two(d.whole(10, 99))}`;
  const licence = old ? `${region} ${tail}` : `${LICENCE_REGIONS[region]}-${tail}`;
  const renewal = issued.y + 10;
  const classes = d.one(['1종 보통', '2종 보통', '1종 대형', '2종 소형', '1종보통', '2종보통']);
  const left = 300 * s;
  const runs: Run[] = [
    {
      x: old ? left : 500 * s,
      y: 78 * s,
      size: 44 * s,
      text: '자동차운전면허증',
      weight: 700,
      anchor: old ? 'start' : 'middle',
      tracking: d.whole(0, 8),
    },
    ...(old ? [] : [{ x: 500 * s, y: 112 * s, size: 18 * s, text: "Driver's License", anchor: 'middle' as const }]),
    { x: left, y: 165 * s, size: 34 * s, text: licence, weight: 700 },
    { x: left, y: 220 * s, size: 28 * s, text: classes },
    { x: left, y: 275 * s, size: 38 * s, text: name, weight: 700 },
    { x: left, y: 330 * s, size: 32 * s, text: number },
    ...address.lines.map((line, i) => ({ x: left, y: (382 + i * 36) * s, size: 24 * s, text: line })),
    {
      x: left,
      y: 470 * s,
      size: 22 * s,
      text: `${old ? '적성검사기간' : '갱신기간'}  ${renewal}.01.01 ~ ${renewal}.12.31`,
    },
    {
      x: left,
      y: 505 * s,
      size: 20 * s,
      text: `조건  ${d.one(['A', 'B', ''])}   암호일련번호 ${d.whole(10, 99)}${d.one(['A', 'K', 'Z'])}${d.whole(100, 999)}`,
    },
    { x: 930 * s, y: 560 * s, size: 26 * s, text: dateDots(issued.y, issued.m, issued.d), anchor: 'end' },
    { x: 930 * s, y: 605 * s, size: 30 * s, text: d.one(old ? POLICE_OLD : POLICE_NEW), weight: 700, anchor: 'end' },
  ];
  return {
    width,
    height,
    svg: page(
      width,
      height,
      d.one(['#f6f0e2', '#eef3ea', '#f3eee8']),
      d.one(FONTS),
      runs,
      securityPrint(d, width, height) + portrait(40 * s, 150 * s, 220 * s, 280 * s, d),
      stamp(880 * s, 585 * s, 30 * s, false, d),
    ),
    truth: {
      type: '자동차운전면허증',
      name,
      id_number: number,
      address: address.truth,
      issue_date: dateDots(issued.y, issued.m, issued.d),
      license_number: licence,
    },
    variant: `${old ? 'old' : 'new'} licence`,
  };
}

type BusinessKind = '법인사업자' | '일반과세자' | '면세사업자' | '간이과세자';

function businessCertificate(d: Dice): Drawn {
  const kind = d.one<BusinessKind>(['법인사업자', '법인사업자', '일반과세자', '면세사업자', '간이과세자']);
  const corporate = kind === '법인사업자';
  const width = 1240;
  const height = 1754;
  const company = corporate
    ? d.one(['주식회사 ', '(주)', '']) + d.one(COMPANY_HEADS) + d.one(COMPANY_TAILS) + (d.chance(0.2) ? ' 주식회사' : '')
    : d.one(COMPANY_HEADS) + d.one(COMPANY_TAILS);
  const owner = d.one(FAMILY) + d.one(GIVEN);
  const partner = d.chance(corporate ? 0 : 0.35) ? d.one(FAMILY) + d.one(GIVEN) : '';
  const number = businessNumber(d, corporate);
  const opened = { y: d.whole(1998, 2025), m: d.whole(1, 12), d: d.whole(1, 28) };
  const issuedOn = { y: Math.min(2025, opened.y + d.whole(0, 3)), m: d.whole(1, 12), d: d.whole(1, 28) };
  const site = homeAddress(d, true);
  const head = corporate && d.chance(0.5) ? homeAddress(d, true) : site;
  const trades = Array.from({ length: d.one([1, 1, 2, 3]) }, () => d.one(TRADES));
  const colon = d.chance(0.6);
  const labelX = d.range(90, 130);
  const valueX = d.chance(0.5) ? undefined : d.range(330, 450);
  const size = d.range(27, 33);
  const lineGap = size * d.range(1.9, 2.4);
  const runs: Run[] = [];
  let y = 330;
  const row = (label: string, values: string[]) => {
    const { text, tracking } = spacedLabel(label, d);
    const shown = `${text}${colon ? ' :' : ''}`;
    runs.push({ x: labelX, y, size, text: shown, tracking });
    const x = valueX ?? labelX + (shown.length + 1.2) * size * 0.95 + tracking * label.length;
    values.forEach((value, i) => runs.push({ x, y: y + i * size * 1.35, size, text: value }));
    y += lineGap + (values.length - 1) * size * 1.35;
  };
  runs.push({ x: 620, y: 190, size: 54, text: '사업자등록증', weight: 700, anchor: 'middle', tracking: d.whole(10, 30) });
  runs.push({ x: 620, y: 250, size: 30, text: `( ${kind} )`, anchor: 'middle' });
  row('등록번호', [number]);
  // A long name wraps onto a second line at the value column.
  const nameLines = company.length > 12 && d.chance(0.5) ? [company.slice(0, 8), company.slice(8)] : [company];
  row(corporate ? '법인명(단체명)' : '상호', nameLines);
  row(corporate ? '대표자' : '성명', [partner && d.chance(0.5) ? `${owner} 외 1명` : owner]);
  if (corporate) {
    row('개업연월일', [`${opened.y} 년 ${two(opened.m)} 월 ${two(opened.d)} 일`]);
    row('법인등록번호', [`${d.whole(110111, 285011)}-${d.whole(1000000, 9999999)}`]);
  } else {
    const born = { y: d.whole(1955, 1999), m: d.whole(1, 12), d: d.whole(1, 28) };
    row('개업연월일', [`${opened.y} 년 ${two(opened.m)} 월 ${two(opened.d)} 일`]);
    row('생년월일', [`${born.y} 년 ${two(born.m)} 월 ${two(born.d)} 일`]);
  }
  row('사업장소재지', site.lines);
  if (corporate) row('본점소재지', head.lines);
  // 사업의 종류: 업태 and 종목 in two columns, one trade per printed row.
  const typeX = (valueX ?? 360) + 20;
  const widest = Math.max(...trades.map(([type]) => type.length));
  const itemX = typeX + Math.max(d.range(300, 360), widest * size * 0.95 + 60);
  runs.push({ x: labelX, y, size, text: `${spacedLabel('사업의종류', d).text}${colon ? ' :' : ''}` });
  // The column heads stand above the trades, or beside the first one on its row.
  const heads = d.chance(0.5);
  const valueShift = heads ? 0 : size * 2.6;
  runs.push({ x: typeX, y, size, text: '업태' }, { x: itemX + valueShift, y, size, text: '종목' });
  trades.forEach(([type, item], i) => {
    const rowY = y + (i + (heads ? 1 : 0)) * size * 1.4;
    runs.push(
      { x: typeX + valueShift, y: rowY, size: size * 0.92, text: type },
      { x: itemX + valueShift * 2, y: rowY, size: size * 0.92, text: item },
    );
  });
  y += (trades.length + (heads ? 1 : 0)) * size * 1.4 + lineGap * 0.6;
  row('발급사유', [d.one(['신규', '정정', '재발급'])]);
  if (partner) row('공동사업자', [`${partner} (${residentNumber(d).slice(0, 8)}******)`]);
  runs.push({ x: labelX, y, size: size * 0.85, text: `사업자 단위 과세 적용사업자 여부 :  ${d.one(['여 ( )  부 ( √ )', '부'])}` });
  runs.push({
    x: labelX,
    y: y + lineGap,
    size: size * 0.8,
    text: `전자세금계산서 전용 전자우편주소 : ${d.one(['', 'tax@example.co.kr'])}`,
  });
  runs.push({ x: 620, y: 1420, size: 32, text: `${issuedOn.y} 년 ${two(issuedOn.m)} 월 ${two(issuedOn.d)} 일`, anchor: 'middle' });
  const office = `${d.one(TAX_OFFICES)}세무서장`;
  runs.push({ x: 620, y: 1530, size: 44, text: office, weight: 700, anchor: 'middle', tracking: 6 });
  const border = `<rect x="50" y="50" width="1140" height="1654" fill="none" stroke="#3a3a3a" stroke-width="${d.whole(2, 5)}"/>`;
  const truth: Record<string, string> = {
    type: '사업자등록증',
    name: company,
    id_number: number,
    representative: owner,
    address: site.truth,
    issue_date: dateDots(opened.y, opened.m, opened.d),
    biz_type: trades.map(([type]) => type).join(', '),
    biz_item: trades.map(([, item]) => item).join(', '),
  };
  const variant = `${kind}${colon ? ' colon' : ''}${valueX ? ' column' : ' inline'}${trades.length > 1 ? ` ${trades.length} trades` : ''}${partner ? ' 공동' : ''}`;
  return {
    width,
    height,
    svg: page(width, height, d.one(PAPER), d.one(FONTS), runs, border, stamp(620 + office.length * 26, 1515, 62, true, d)),
    truth,
    variant,
  };
}

// ---------------------------------------------------------------------------------------------
// Scanner and camera

async function scan(png: Buffer, d: Dice, hard: boolean): Promise<Buffer> {
  const angle = (d.chance(0.5) ? 1 : -1) * (hard ? d.range(2, 5.5) : d.range(0.3, 1.6));
  let img = sharp(png).rotate(angle, { background: hard ? '#bdbdbd' : '#f0f0f0' });
  const rotated = await img.png().toBuffer();
  const meta = await sharp(rotated).metadata();
  const factor = hard ? d.range(0.45, 0.6) : d.range(0.75, 1);
  const width = Math.round((meta.width ?? 1000) * factor);
  img = sharp(rotated).resize({ width });
  if (!hard)
    return img
      .blur(d.range(0.4, 0.8))
      .jpeg({ quality: d.whole(68, 88) })
      .toBuffer();
  const small = await img.raw().toBuffer({ resolveWithObject: true });
  const { data, info } = small;
  // Uneven lamp light, speckle and a faint banding from the scanner's sensor.
  const fade = d.range(0.55, 0.8);
  const from = d.chance(0.5);
  const bandEvery = d.whole(7, 13);
  for (let yy = 0; yy < info.height; yy++) {
    for (let xx = 0; xx < info.width; xx++) {
      const light = 1 - (1 - fade) * ((from ? xx : info.width - xx) / info.width);
      const band = yy % bandEvery === 0 ? 0.94 : 1;
      const speck = d.next() < 0.004 ? -120 : d.next() < 0.004 ? 90 : 0;
      const at = (yy * info.width + xx) * info.channels;
      for (let c = 0; c < Math.min(3, info.channels); c++) {
        const noisy = (data[at + c] as number) * light * band + (d.next() - 0.5) * 36 + speck;
        data[at + c] = Math.max(0, Math.min(255, noisy));
      }
    }
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .blur(d.range(0.6, 1.1))
    .jpeg({ quality: d.whole(45, 62) })
    .toBuffer();
}

/** Solves the 8 unknowns of the homography taking the unit square's corners to `corners`. */
function squareToQuad(corners: Array<[number, number]>): number[] {
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = corners as [[number, number], [number, number], [number, number], [number, number]];
  const dx1 = x1 - x2;
  const dx2 = x3 - x2;
  const dy1 = y1 - y2;
  const dy2 = y3 - y2;
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  const det = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / det;
  const h = (dx1 * sy - sx * dy1) / det;
  return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h];
}

/** The document placed on a table under a phone: tilted corners, a glare, moiré, blur, JPEG. */
async function photograph(png: Buffer, d: Dice): Promise<Buffer> {
  const doc = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width: dw, height: dh } = doc.info;
  const outW = d.whole(1500, 2400);
  const docShare = d.range(0.62, 0.85);
  const docW = outW * docShare;
  const docH = (docW * dh) / dw;
  const outH = Math.round(docH / d.range(0.62, 0.85));
  const ox = (outW - docW) / 2;
  const oy = (outH - docH) / 2;
  const jitter = () => d.range(-0.06, 0.06) * docW;
  const corners: Array<[number, number]> = [
    [ox + jitter(), oy + jitter()],
    [ox + docW + jitter(), oy + jitter()],
    [ox + docW + jitter(), oy + docH + jitter()],
    [ox + jitter(), oy + docH + jitter()],
  ];
  // Inverse mapping: for each output pixel, where it falls on the unit square of the document.
  const [a, b, c, dd, e, f, g, h] = squareToQuad(corners) as [number, number, number, number, number, number, number, number];
  const A = e - f * h;
  const B = c * h - b;
  const C = b * f - c * e;
  const D = f * g - dd;
  const E = a - c * g;
  const F = c * dd - a * f;
  const G = dd * h - e * g;
  const H = b * g - a * h;
  const I = a * e - b * dd;
  const out = Buffer.alloc(outW * outH * 3);
  const table = [d.whole(60, 150), d.whole(45, 120), d.whole(30, 100)];
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      const w = G * x + H * y + I;
      const u = (A * x + B * y + C) / w;
      const v = (D * x + E * y + F) / w;
      const at = (y * outW + x) * 3;
      if (u < 0 || u >= 1 || v < 0 || v >= 1) {
        const grain = ((x * 7 + y * 13) % 23) - 11;
        for (let k = 0; k < 3; k++) out[at + k] = Math.max(0, Math.min(255, (table[k] as number) + grain));
        continue;
      }
      const px = u * (dw - 1);
      const py = v * (dh - 1);
      const x0 = Math.floor(px);
      const y0 = Math.floor(py);
      const fx = px - x0;
      const fy = py - y0;
      const x1 = Math.min(dw - 1, x0 + 1);
      const y1 = Math.min(dh - 1, y0 + 1);
      for (let k = 0; k < 3; k++) {
        const p = (yy: number, xx: number) => doc.data[(yy * dw + xx) * doc.info.channels + k] as number;
        out[at + k] = (p(y0, x0) * (1 - fx) + p(y0, x1) * fx) * (1 - fy) + (p(y1, x0) * (1 - fx) + p(y1, x1) * fx) * fy;
      }
    }
  }
  // Light: a soft vignette, a glare blob, and the moiré of a screen or a fine print.
  const gx = d.range(0.2, 0.8) * outW;
  const gy = d.range(0.2, 0.8) * outH;
  const gr = d.range(0.05, 0.12) * outW;
  const glare = d.chance(0.6) ? d.range(0.35, 0.75) : 0;
  const moire = d.chance(0.5) ? d.range(4, 10) : 0;
  const period = d.range(3.1, 4.7);
  const angle = d.range(0, Math.PI);
  const [ca, sa] = [Math.cos(angle), Math.sin(angle)];
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      const r2 = ((x - outW / 2) / outW) ** 2 + ((y - outH / 2) / outH) ** 2;
      const vignette = 1 - 0.5 * r2;
      const dist = Math.hypot(x - gx, y - gy) / gr;
      const shine = glare * Math.exp(-dist * dist);
      const wave = moire * Math.sin(((x * ca + y * sa) / period) * 2 * Math.PI);
      const at = (y * outW + x) * 3;
      for (let k = 0; k < 3; k++) {
        const lit = (out[at + k] as number) * vignette + wave;
        out[at + k] = Math.max(0, Math.min(255, lit + (255 - lit) * shine));
      }
    }
  }
  return sharp(out, { raw: { width: outW, height: outH, channels: 3 } })
    .blur(d.range(0.5, 1.4))
    .jpeg({ quality: d.whole(55, 82) })
    .toBuffer();
}

const KINDS: IndependentKind[] = ['resident', 'licence', 'business'];

function draw(kind: IndependentKind, d: Dice): Drawn {
  if (kind === 'resident') return residentCard(d);
  if (kind === 'licence') return licenceCard(d);
  return businessCertificate(d);
}

/** One document: the same part, kind, level and index always give the same image. */
export async function makeIndependentItem(
  part: IndependentPart,
  kind: IndependentKind,
  level: IndependentLevel,
  index: number,
): Promise<IndependentItem> {
  const seed = (PART_SEEDS[part] * 2654435761 + KINDS.indexOf(kind) * 40503 + index * 9973) >>> 0;
  const d = new Dice(seed);
  const drawn = draw(kind, d);
  const png = await sharp(Buffer.from(drawn.svg)).png().toBuffer();
  const camera = new Dice(seed ^ ((['clean', 'mild', 'hard', 'photo'].indexOf(level) + 1) * 0x9e3779b9));
  const image =
    level === 'clean'
      ? png
      : level === 'mild'
        ? await scan(png, camera, false)
        : level === 'hard'
          ? await scan(png, camera, true)
          : await photograph(png, camera);
  return { kind, level, variant: drawn.variant, image, truth: drawn.truth };
}

/** `count` documents of each kind at a level. */
export async function makeIndependentSet(part: IndependentPart, level: IndependentLevel, count: number): Promise<IndependentItem[]> {
  const items: IndependentItem[] = [];
  for (const kind of KINDS) for (let i = 0; i < count; i++) items.push(await makeIndependentItem(part, kind, level, i));
  return items;
}
