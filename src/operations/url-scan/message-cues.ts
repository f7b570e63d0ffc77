import { fold, SCAM_SCRIPTS, type AskKind, type ScamScripts } from './scam-scripts.js';
import type { ScamType } from './scam-types.js';
import { MESSAGE_RULES } from './message-rules.js';

/** A family of scam scripts and the cue phrases of it found in a message. */
export interface FamilyCues {
  type: Exclude<ScamType, 'other'>;
  label: string;
  found: string[];
}

/** What the rules read in a message: its script, the sender marks, the numbers it carries. */
export interface MessageCues {
  /** Families with at least one cue, the most cues first. */
  families: FamilyCues[];
  asks: { kind: AskKind; label: string; found: string[] }[];
  marks: { mark: 'foreign' | 'web'; label: string }[];
  /** Urgency words found (급히, 지금 바로). */
  pressure: string[];
  /** Sums of money written out (98만원, 1,679,000원). */
  amounts: number;
  /** Addressed by a person's name (`김민지님`): services that know their customer write so; mass scams rarely can. */
  named: boolean;
  /** Links on a public shortener (bit.ly, han.gl …): the target is hidden. */
  shortLinks: number;
  /** Korean mobile or landline numbers (010-…, 02-…), internet-phone numbers (070-…), corporate numbers (1588-…). */
  phones: { mobile: number; internet: number; landline: number; corporate: number; foreign: number };
  /** Bank-account-shaped numbers (3–6 digits, hyphen, …) that are not phone numbers. */
  accounts: number;
  links: number;
}

const MOBILE = /(?<!\d)(?:\+82[\s-]?|0)1[016789][\s.-]?\d{3,4}[\s.-]?\d{4}(?!\d)/g;
const INTERNET = /(?<!\d)070[\s.)-]?\d{3,4}[\s.-]?\d{4}(?!\d)/g;
const LANDLINE = /(?<!\d)0(?:2|[3-6][1-5])[\s.)-]?\d{3,4}[\s.-]?\d{4}(?!\d)/g;
const CORPORATE = /(?<!\d)1[5-9]\d{2}[\s-]\d{4}(?!\d)/g;
const FOREIGN = /(?<![\d+])\+(?!82)\d{1,3}[\s-]?\d{2,4}[\s-]?\d{3,4}[\s-]?\d{0,4}(?!\d)/g;
/** Two or three syllables before 님 that are a name, not a title (`고객님`, `엄마`). */
const NAMED = /(?<![가-힣])([가-힣]{2,3})\s?님/g;
const TITLES = new Set([
  '고객',
  '회원',
  '실장',
  '선생',
  '사장',
  '부장',
  '과장',
  '팀장',
  '차장',
  '대리',
  '기사',
  '관리자',
  '담당자',
  '주인',
  '이용자',
  '구매자',
  '판매자',
  '귀하',
  '교수',
  '원장',
  '형수',
  '장모',
  '어머',
  '아버',
  '선배',
  '후배',
  '여러분',
  '작가',
  '디자이너',
  '매니저',
  '대표',
  '사모',
]);
const shortenerHosts = MESSAGE_RULES.shorteners;
const AMOUNT = /\d[\d,.]*\s?(?:만\s?|천\s?)?원/g;
const ACCOUNT = /(?<![\d-])\d{2,6}-\d{2,6}-\d{2,8}(?:-\d{1,3})?(?![\d-])/g;
/** Links as written in messages, also broken ones (`bit.ly/ 2ab`, `www. x .com`): enough to count them. */
export const LINKISH =
  /(?:https?:\/*\s?|www\.\s?)[^\s<>"']+|\b[a-z0-9-]{2,}(?:\.[a-z0-9-]{2,})*\.(?:com|net|org|kr|ly|gl|do|me|io|xyz|top|site|shop|live|info|cc|la|to|in|be|us|co)\b(?:\/[^\s<>"']*)?/gi;

/** Reads the scam script, sender marks and numbers of a message (rules only; no model). */
export function readCues(text: string, scripts: ScamScripts = SCAM_SCRIPTS): MessageCues {
  const plain = text.normalize('NFKC');
  const folded = fold(plain);
  const families = scripts.families
    .map((family) => ({
      type: family.type as FamilyCues['type'],
      label: family.label,
      found: family.cues.filter((c) => folded.includes(c)),
    }))
    .filter((family) => family.found.length > 0)
    .sort((a, b) => b.found.length - a.found.length);
  const asks = scripts.asks
    .map((ask) => ({ kind: ask.kind, label: ask.label, found: ask.cues.filter((c) => folded.includes(c)) }))
    .filter((ask) => ask.found.length > 0);
  const marks = scripts.senderMarks.filter((mark) => mark.cues.some((c) => folded.includes(c))).map(({ mark, label }) => ({ mark, label }));
  const count = (pattern: RegExp) => plain.match(pattern)?.length ?? 0;
  const phones = {
    mobile: count(MOBILE),
    internet: count(INTERNET),
    landline: count(LANDLINE),
    corporate: count(CORPORATE),
    foreign: count(FOREIGN),
  };
  const accounts = (plain.match(ACCOUNT) ?? []).filter((n) => !/^0(?:1[016789]|2|[3-7]\d)-/.test(n)).length;
  const pressure = scripts.pressure.cues.filter((c) => folded.includes(c));
  const named = [...plain.matchAll(NAMED)].some((match) => !TITLES.has(match[1]!));
  const links = plain.match(LINKISH) ?? [];
  const shortLinks = links.filter((link) => shortenerHosts.some((host) => fold(link).includes(`${host}/`))).length;
  return { families, asks, marks, pressure, amounts: count(AMOUNT), named, shortLinks, phones, accounts, links: links.length };
}
