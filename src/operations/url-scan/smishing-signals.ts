import { withJosa } from '../../korean.js';
import type { UrlVerdict } from '../url-detect/checker.js';
import { hostUnder, MESSAGE_RULES, type MessageRules } from './message-rules.js';

/** One URL of a message and the detector's verdict on it (the API's `urls[]`). */
export interface CheckedUrl {
  url: string;
  /** Where the link really leads once short links are followed; the URL itself when not followed. */
  final_url: string;
  is_malicious: boolean;
  category: UrlVerdict['category'];
  reason: string;
}

/** What a message's links say: harmful verdicts (`host: reason`) and the message's own link signals. */
export interface LinkEvidence {
  harmful: string[];
  /** Impersonation beside a foreign link, lure wording beside a link, a public shortener hiding the target. */
  signals: string[];
}

/** How many of the link signals make smishing without a harmful verdict (one alone: a news link beside "검찰" is ordinary). */
export const SIGNALS_FOR_SMISHING = 2;

/**
 * The evidence of a message's links: any harmful verdict, and the signals an organisation named
 * beside a link that is not its own, lure wording (미납, 사건조회, 주소확인 …) beside a link, or a
 * public shortener hiding where the link goes give.
 */
export function linkEvidence(text: string, checked: readonly CheckedUrl[], rules: MessageRules = MESSAGE_RULES): LinkEvidence {
  if (checked.length === 0) return { harmful: [], signals: [] };
  const harmful = checked.filter((entry) => entry.is_malicious).map((entry) => `${hostOf(entry.url)}: ${entry.reason}`);
  const plain = text.normalize('NFKC');
  const signals = [impersonation(plain, checked, rules), lureWording(plain, rules), hiddenTarget(checked, rules)].filter(
    (signal): signal is string => signal !== undefined,
  );
  return { harmful, signals };
}

/** An organisation named in the text, with a link that leads outside its own domains. */
function impersonation(text: string, checked: readonly CheckedUrl[], rules: MessageRules): string | undefined {
  for (const organisation of rules.organisations) {
    if (!organisation.aliases.some((alias) => mentions(text, alias))) continue;
    const foreign = checked.filter(
      (entry) => !organisation.domains.some((domain) => hostUnder(hostOf(entry.final_url), domain) || hostUnder(hostOf(entry.url), domain)),
    );
    if (foreign.length === 0) continue;
    const hosts = [...new Set(foreign.map((entry) => hostOf(entry.url)))].slice(0, 3).join(', ');
    return `문자에 ${withJosa(`'${organisation.name}'`, '이/가')} 나오지만 링크(${hosts})는 ${organisation.name}의 공식 주소가 아닙니다.`;
  }
  return undefined;
}

/** Lure wording (unpaid bills, case look-ups, address checks…): the first group found, with its words. */
function lureWording(text: string, rules: MessageRules): string | undefined {
  for (const lure of rules.lures) {
    const words = lure.words.filter((word) => mentions(text, word));
    if (words.length > 0) return `'${words.slice(0, 3).join("', '")}' 같은 ${lure.label} 문구가 링크와 함께 있습니다.`;
  }
  return undefined;
}

/** A public shortener: where it leads is hidden until someone follows it. */
function hiddenTarget(checked: readonly CheckedUrl[], rules: MessageRules): string | undefined {
  const short = checked.find((entry) => rules.shorteners.some((shortener) => hostUnder(hostOf(entry.url), shortener)));
  if (!short) return undefined;
  const host = hostOf(short.url);
  return short.final_url !== short.url
    ? `단축 URL(${host})이 실제 주소(${hostOf(short.final_url)})를 숨기고 있습니다.`
    : `단축 URL(${host})이 실제 주소를 숨기고 있습니다. 누르기 전에는 어디로 가는지 알 수 없습니다.`;
}

/** Korean names as substrings; Latin ones (`KT`, `SKT`) only as whole words, case as written. */
function mentions(text: string, word: string): boolean {
  if (!/^[A-Za-z0-9+ ]+$/.test(word)) return text.includes(word);
  const escaped = word.replace(/[+]/g, '\\+');
  return new RegExp(`(?<![A-Za-z0-9])${escaped}(?![A-Za-z0-9])`).test(text);
}

function hostOf(url: string): string {
  return URL.canParse(url) ? new URL(url).hostname : url;
}
