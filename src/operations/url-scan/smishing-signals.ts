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

export interface MessageJudgement {
  is_smishing: boolean;
  /** Plain-Korean sentences: what was found and why (harmful links first). */
  reasons: string[];
}

/** How many of the message's own signals (impersonation, lure wording, hidden target) make smishing without a harmful verdict. */
const SIGNALS_FOR_SMISHING = 2;

/**
 * Whether a message is smishing: any harmful link, or at least two of the message's own signals
 * — an organisation named beside a link that is not its own, lure wording (미납, 사건조회,
 * 주소확인 …) beside a link, a public shortener hiding where the link goes. One signal alone is
 * reported but not condemned (a news link beside "검찰" is ordinary).
 */
export function judgeMessage(text: string, checked: readonly CheckedUrl[], rules: MessageRules = MESSAGE_RULES): MessageJudgement {
  if (checked.length === 0) return { is_smishing: false, reasons: ['메시지에서 링크를 찾지 못했습니다.'] };
  const harmful = checked.filter((entry) => entry.is_malicious).map((entry) => `${hostOf(entry.url)}: ${entry.reason}`);
  const plain = text.normalize('NFKC');
  const signals = [impersonation(plain, checked, rules), lureWording(plain, rules), hiddenTarget(checked, rules)].filter(
    (signal): signal is string => signal !== undefined,
  );
  const isSmishing = harmful.length > 0 || signals.length >= SIGNALS_FOR_SMISHING;
  const reasons = [...harmful, ...signals];
  if (reasons.length === 0) reasons.push('검사한 링크가 모두 안전하고, 스미싱에 흔한 사칭·유도 문구도 없습니다.');
  else if (!isSmishing) reasons.push('의심 신호가 하나뿐이라 스미싱으로 단정하지 않았습니다. 보낸 사람을 확인하고 조심해서 여세요.');
  return { is_smishing: isSmishing, reasons };
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
