/**
 * Synthetic Korean identity documents with known fields, for the OCR tests and bench:
 * 주민등록증, 자동차운전면허증 and 사업자등록증 laid out as SVG (rendered by id-images.ts).
 * Everything comes from a seeded generator, so one seed tunes the parser and another checks it.
 */

import type { DocumentInfo } from '../../src/operations/ocr-idcard/parse.js';
import { seededRandom } from './seeded-random.js';

export type DocumentKind = 'resident' | 'license' | 'business';

/** The `info` the reader should return for a generated document. */
export type ExpectedInfo = Omit<DocumentInfo, 'type'> & { type: string };

export interface DocumentSpec {
  kind: DocumentKind;
  width: number;
  height: number;
  svg: string;
  expected: ExpectedInfo;
}

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const digits = (rng: Rng, count: number) => Array.from({ length: count }, () => int(rng, 0, 9)).join('');

const SURNAMES = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임', '한', '오', '서', '신', '권', '황', '안', '송', '류', '홍'];
const SYLLABLES = [
  '민',
  '서',
  '준',
  '지',
  '현',
  '우',
  '수',
  '영',
  '하',
  '은',
  '도',
  '윤',
  '재',
  '원',
  '승',
  '희',
  '연',
  '호',
  '진',
  '성',
  '혜',
  '경',
  '태',
  '동',
  '석',
  '예',
  '주',
  '유',
  '건',
  '미',
];
const SIDO = [
  '서울특별시',
  '부산광역시',
  '대구광역시',
  '인천광역시',
  '광주광역시',
  '대전광역시',
  '울산광역시',
  '경기도',
  '강원특별자치도',
  '충청북도',
  '충청남도',
  '전라남도',
  '경상북도',
  '경상남도',
  '제주특별자치도',
];
const SIGUNGU = [
  '종로구',
  '중구',
  '강남구',
  '서초구',
  '마포구',
  '송파구',
  '해운대구',
  '수성구',
  '남동구',
  '유성구',
  '수원시',
  '성남시',
  '고양시',
  '청주시',
  '천안시',
  '포항시',
  '창원시',
  '제주시',
  '양평군',
  '홍천군',
];
const ROADS = [
  '세종대로',
  '테헤란로',
  '올림픽로',
  '중앙로',
  '번영로',
  '시청로',
  '한강대로',
  '대학로',
  '새말로',
  '동문로',
  '문화로',
  '평화로',
  '해맞이로',
  '은행나무길',
];
const DONGS = ['역삼동', '세종로', '신촌동', '대치동', '우동', '범어동', '구월동', '둔산동', '정자동', '연동'];
const BIZ_WORDS = ['한빛', '누리', '새봄', '다온', '하늘', '미래', '온누리', '푸른솔', '가람', '보람', '초록', '아름'];
const BIZ_SUFFIX = ['소프트', '테크', '상사', '식품', '물산', '디자인', '컴퍼니', '랩스', '산업', '건설'];
const BIZ_TYPES = ['서비스업', '도매 및 소매업', '제조업', '정보통신업', '건설업', '음식점업', '부동산업'];
const BIZ_ITEMS = [
  '응용소프트웨어 개발',
  '전자상거래',
  '컴퓨터 부품',
  '한식 음식점',
  '광고 대행',
  '화장품 도매',
  '경영 컨설팅',
  '인테리어 공사',
];
const TAX_OFFICES = ['종로', '강남', '서초', '마포', '해운대', '수성', '남동', '유성', '수원', '분당', '청주', '제주'];
const POLICE = [
  '서울특별시경찰청장',
  '경기남부경찰청장',
  '부산광역시경찰청장',
  '대구광역시경찰청장',
  '인천광역시경찰청장',
  '충청북도경찰청장',
];

export const TYPE_LABELS: Record<DocumentKind, string> = {
  resident: '주민등록증',
  license: '자동차운전면허증',
  business: '사업자등록증',
};

const HANJA = ['金', '李', '朴', '崔', '鄭', '民', '瑞', '俊', '智', '賢', '宇', '秀', '英', '夏', '恩', '道', '允', '在', '元', '承'];
const hanjaName = (rng: Rng) => Array.from({ length: 3 }, () => pick(rng, HANJA)).join('');

function personName(rng: Rng): string {
  return pick(rng, SURNAMES) + pick(rng, SYLLABLES) + pick(rng, SYLLABLES);
}

/** A valid resident number, except (like numbers issued since October 2020) an occasional random tail. */
export function residentNumber(rng: Rng): string {
  const year = int(rng, 1950, 2004);
  const front = `${pad(year % 100)}${pad(int(rng, 1, 12))}${pad(int(rng, 1, 28))}`;
  const gender = year >= 2000 ? int(rng, 3, 4) : int(rng, 1, 2);
  const body = `${front}${gender}${digits(rng, 5)}`;
  const weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5];
  const sum = [...body].reduce((total, d, i) => total + Number(d) * (weights[i] ?? 0), 0);
  const check = rng() < 0.85 ? (11 - (sum % 11)) % 10 : int(rng, 0, 9);
  return `${front}-${body.slice(6)}${check}`;
}

export function businessNumber(rng: Rng): string {
  const body = `${int(rng, 101, 899)}${int(rng, 10, 89)}${digits(rng, 4)}`;
  const weights = [1, 3, 7, 1, 3, 7, 1, 3, 5];
  let sum = [...body].reduce((total, d, i) => total + Number(d) * (weights[i] ?? 0), 0);
  sum += Math.floor((Number(body[8]) * 5) / 10);
  const check = (10 - (sum % 10)) % 10;
  return `${body.slice(0, 3)}-${body.slice(3, 5)}-${body.slice(5)}${check}`;
}

function address(rng: Rng): { lines: string[]; text: string } {
  const road = `${pick(rng, SIDO)} ${pick(rng, SIGUNGU)} ${pick(rng, ROADS)} ${int(rng, 1, 399)}`;
  // Road-name style: a unit after a comma, or the reference dong in parentheses.
  const unit = rng() < 0.5;
  const rest = unit ? `${int(rng, 101, 115)}동 ${int(rng, 1, 25)}${pad(int(rng, 1, 8))}호` : `(${pick(rng, DONGS)})`;
  const head = unit ? `${road},` : road;
  const split = rng();
  const [sido, sigungu, ...tail] = road.split(' ');
  const lines =
    split < 0.4 ? [`${head} ${rest}`] : split < 0.75 ? [head, rest] : [`${sido} ${sigungu}`, `${tail.join(' ')}${unit ? ',' : ''} ${rest}`];
  return { lines, text: `${head} ${rest}` };
}

function date(rng: Rng, from = 2005, to = 2024) {
  return { y: int(rng, from, to), m: int(rng, 1, 12), d: int(rng, 1, 28) };
}
const dotted = (x: { y: number; m: number; d: number }) => `${x.y}.${pad(x.m)}.${pad(x.d)}.`;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Text {
  x: number;
  y: number;
  size: number;
  text: string;
  bold?: boolean;
  anchor?: 'start' | 'middle' | 'end';
  spacing?: number;
}

function svg(width: number, height: number, background: string, texts: Text[], extra = ''): string {
  const body = texts
    .map(
      (t) =>
        `<text x="${t.x}" y="${t.y}" font-size="${t.size}" font-weight="${t.bold ? 700 : 400}"` +
        ` text-anchor="${t.anchor ?? 'start'}" letter-spacing="${t.spacing ?? 0}">${escapeXml(t.text)}</text>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="100%" height="100%" fill="${background}"/>${extra}` +
    `<g font-family="NanumGothic, Noto Sans KR, sans-serif" fill="#1a1a1a">${body}</g></svg>`
  );
}

/** A grey head-and-shoulders silhouette where the photo goes. */
function photo(x: number, y: number, w: number, h: number): string {
  return (
    `<clipPath id="p"><rect x="${x}" y="${y}" width="${w}" height="${h}"/></clipPath>` +
    `<g clip-path="url(#p)"><rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#c9ccd2"/>` +
    `<circle cx="${x + w / 2}" cy="${y + h * 0.38}" r="${w * 0.24}" fill="#8d939c"/>` +
    `<ellipse cx="${x + w / 2}" cy="${y + h}" rx="${w * 0.45}" ry="${h * 0.3}" fill="#8d939c"/></g>`
  );
}

const CARD_W = 1012;
const CARD_H = 638;

function residentCard(rng: Rng): DocumentSpec {
  const name = personName(rng);
  const id = residentNumber(rng);
  const addr = address(rng);
  const issued = date(rng);
  const sigungu = pick(rng, SIGUNGU);
  const issuer = `${pick(rng, SIDO)} ${sigungu}${sigungu.endsWith('군') ? '수' : '청장'}`;
  const texts: Text[] = [
    { x: 60, y: 100, size: 56, text: '주민등록증', bold: true, spacing: 6 },
    { x: 60, y: 190, size: 44, text: rng() < 0.4 ? `${name}(${hanjaName(rng)})` : name, bold: true },
    { x: 60, y: 260, size: 38, text: id },
    ...addr.lines.map((line, i) => ({ x: 60, y: 340 + i * 44, size: 28, text: line })),
    { x: 700, y: 510, size: 30, text: `${issued.y}. ${issued.m}. ${issued.d}.`, anchor: 'end' as const },
    { x: 700, y: 570, size: 34, text: issuer, bold: true, anchor: 'end' as const },
  ];
  const expected: ExpectedInfo = {
    ...emptyBusiness,
    type: TYPE_LABELS.resident,
    name,
    id_number: id,
    address: addr.text,
    issue_date: dotted(issued),
  };
  return {
    kind: 'resident',
    width: CARD_W,
    height: CARD_H,
    svg: svg(CARD_W, CARD_H, '#eef3f6', texts, photo(740, 150, 220, 280)),
    expected,
  };
}

function licenseCard(rng: Rng): DocumentSpec {
  const name = personName(rng);
  const id = residentNumber(rng);
  const addr = address(rng);
  const issued = date(rng);
  const licence = `${int(rng, 11, 28)}-${pad(issued.y % 100)}-${digits(rng, 6)}-${digits(rng, 2)}`;
  const until = { y: issued.y + 10, m: 12, d: 31 };
  const classes = pick(rng, ['1종보통', '2종보통', '1종대형', '2종소형', '1종보통 2종소형', '1종대형 1종특수']);
  // Newer cards print the class boxes on the name's line, right of the name.
  const boxed = rng() < 0.5;
  const boxes = boxed
    ? classes
        .split(' ')
        .map((c, i) => `<rect x="${640 + i * 150}" y="${226}" width="136" height="46" fill="none" stroke="#333" stroke-width="2"/>`)
        .join('')
    : '';
  const texts: Text[] = [
    { x: 300, y: 80, size: 46, text: '자동차운전면허증', bold: true, spacing: 2 },
    ...(boxed
      ? classes.split(' ').map((c, i) => ({ x: 708 + i * 150, y: 260, size: 30, text: c, anchor: 'middle' as const }))
      : [{ x: 300, y: 140, size: 30, text: classes }]),
    { x: 300, y: 200, size: 36, text: licence, bold: true },
    { x: 300, y: 260, size: 40, text: name, bold: true },
    { x: 300, y: 320, size: 34, text: id },
    ...addr.lines.map((line, i) => ({ x: 300, y: 380 + i * 40, size: 26, text: line })),
    { x: 300, y: 480, size: 26, text: `적성검사기간 ${until.y}.01.01.~${dotted(until)}` },
    { x: 960, y: 540, size: 28, text: dotted(issued), anchor: 'end' as const },
    { x: 960, y: 595, size: 32, text: pick(rng, POLICE), bold: true, anchor: 'end' as const },
  ];
  const expected: ExpectedInfo = {
    ...emptyBusiness,
    type: TYPE_LABELS.license,
    name,
    id_number: id,
    address: addr.text,
    issue_date: dotted(issued),
    license_number: licence,
  };
  return {
    kind: 'license',
    width: CARD_W,
    height: CARD_H,
    svg: svg(CARD_W, CARD_H, '#f3efe6', texts, photo(40, 130, 220, 280) + boxes),
    expected,
  };
}

const emptyBusiness = { representative: '', biz_type: '', biz_item: '' };

function businessCertificate(rng: Rng): DocumentSpec {
  const corporate = rng() < 0.5;
  const company = `${corporate ? '주식회사 ' : ''}${pick(rng, BIZ_WORDS)}${pick(rng, BIZ_SUFFIX)}`;
  const owner = personName(rng);
  const number = businessNumber(rng);
  const opened = date(rng, 2000, 2024);
  const addr = address(rng);
  const bizType = pick(rng, BIZ_TYPES);
  const bizItem = pick(rng, BIZ_ITEMS);
  const issued = { ...opened, d: Math.min(28, opened.d + int(rng, 0, 5)) };
  const x = 110;
  const rows: Array<[string, string]> = [
    ['등록번호 :', number],
    [corporate ? '법인명(단체명) :' : '상         호 :', company],
    [corporate ? '대   표   자 :' : '성         명 :', owner],
    ['개 업 연 월 일 :', `${opened.y} 년 ${pad(opened.m)} 월 ${pad(opened.d)} 일`],
    ['사업장 소재지 :', addr.text],
  ];
  const texts: Text[] = [
    { x: 620, y: 200, size: 60, text: '사 업 자 등 록 증', bold: true, anchor: 'middle', spacing: 4 },
    { x: 620, y: 270, size: 32, text: corporate ? '(법인사업자)' : '(일반과세자)', anchor: 'middle' },
    ...rows.map(([label, value], i) => ({ x, y: 400 + i * 80, size: 32, text: `${label} ${value}` })),
    { x, y: 800, size: 32, text: `사업의 종류 :  업태  ${bizType}     종목  ${bizItem}` },
    { x, y: 880, size: 32, text: '발 급 사 유 : 신규' },
    { x, y: 960, size: 32, text: '공동사업자 :' },
    { x, y: 1040, size: 28, text: '전자세금계산서 전용 전자우편주소 :' },
    { x: 620, y: 1400, size: 34, text: `${issued.y} 년 ${pad(issued.m)} 월 ${pad(issued.d)} 일`, anchor: 'middle' },
    { x: 620, y: 1500, size: 44, text: `${pick(rng, TAX_OFFICES)}세무서장`, bold: true, anchor: 'middle', spacing: 4 },
  ];
  const expected: ExpectedInfo = {
    type: TYPE_LABELS.business,
    name: company,
    id_number: number,
    representative: owner,
    address: addr.text,
    issue_date: dotted(opened),
    biz_type: bizType,
    biz_item: bizItem,
  };
  const border = '<rect x="60" y="60" width="1120" height="1634" fill="none" stroke="#333" stroke-width="3"/>';
  return { kind: 'business', width: 1240, height: 1754, svg: svg(1240, 1754, '#ffffff', texts, border), expected };
}

/** The `index`-th document of a seed; the same arguments always give the same document. */
export function makeDocument(kind: DocumentKind, seed: number, index: number): DocumentSpec {
  const rng = seededRandom(seed * 100_003 + index * 7919 + kind.length);
  if (kind === 'resident') return residentCard(rng);
  if (kind === 'license') return licenseCard(rng);
  return businessCertificate(rng);
}
