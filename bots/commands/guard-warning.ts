import type { GuardedChannel } from '../../src/operations/link-guard/guard-store.js';
import type { Finding, ScamFinding } from '../../src/operations/link-guard/link-guard.js';
import type { Locale, Reply, Text } from './types.js';
import { translateText } from './texts.js';
import { categoryName } from './urls.js';

/**
 * A host or a text written so no client turns it into a link: every dot between two
 * characters of a name becomes `[.]` and a scheme's `://` becomes `[:]//`, as security teams
 * write indicators. The warning must never offer the harmful link one click away.
 */
export function defang(text: string): string {
  return text.replace(/:\/\//g, '[:]//').replace(/([\p{L}\p{N}-])\.(?=[\p{L}\p{N}-])/gu, '$1[.]');
}

const HOW: Text = {
  ko: '링크를 열거나 개인정보·인증번호를 입력하지 마세요. 잘못된 경고라면 채널 관리자가 `/guard allow 호스트`로 알려 주세요.',
  en: 'Do not open the link or type personal data or codes into it. If this is a false alarm, a channel manager can use `/guard allow <host>`.',
};

/**
 * What the detector saw. Its reasons are written in Korean (they name Korean brands, lists and
 * words): an English channel reads what the category means, the detector's words after it.
 */
const CATEGORY_MEANING: Record<string, string> = {
  phishing: 'poses as a trusted company or office to take logins, card numbers or payments (typical of smishing)',
  malware: 'serves or leads to a harmful app or file',
  spam: 'advertises loans, investments or prizes in the way spam messages do',
  gambling: 'leads to an illegal gambling site',
  adult: 'leads to adult content',
};

function why(locale: Locale, finding: Finding): string {
  const reason = defang(finding.reason || '-');
  if (locale !== 'en') return reason;
  const meaning = CATEGORY_MEANING[finding.category] ?? 'was judged harmful';
  return `this link ${meaning}. Detector's note (Korean): ${reason}`;
}

/** What to do about a scam message when the judge gave no advice of its own. */
const SCAM_ADVICE: Text = {
  ko: '답장하거나 돈·상품권을 보내지 말고, 앱을 설치하거나 메시지에 적힌 번호로 연락하지 마세요. 가족이나 기관에는 이미 알고 있는 번호로 직접 확인하고, 의심되면 118(KISA)로 신고하세요.',
  en: 'Do not reply, send money or gift cards, install an app or call a number the message gives. Check with the person or office on a number you already know, and report it to 118 (KISA) if in doubt.',
};

const SCAM_HOW: Text = {
  ko: '잘못된 경고라면 채널 관리자가 `/guard messages off`로 메시지 판단을 끌 수 있습니다.',
  en: 'If this is a false alarm, a channel manager can turn message judging off with `/guard messages off`.',
};

/**
 * The part of a warning about the message itself (`/guard messages on`): the scam's kind and what
 * to do. Its words come from the judge's tables, never from the message: nothing posted is repeated.
 */
function scamField(locale: Locale, scam: ScamFinding) {
  const t = (text: Text) => translateText(locale, text);
  const label = scam.scam_label ?? t({ ko: '스미싱', en: 'smishing' });
  const advice = locale === 'ko' && scam.advice.trim() ? scam.advice.trim() : t(SCAM_ADVICE);
  return {
    name: `🚨 ${locale === 'en' ? `Looks like a scam (${label})` : `사기 의심: ${label}`}`,
    value: advice,
  };
}

/**
 * The warning a guarded channel sees under a message with harmful links, or judged a scam with
 * `/guard messages on` (no link, no mention, nothing of the message's text).
 */
export function guardWarning(
  channel: Pick<GuardedChannel, 'locale'>,
  findings: Finding[],
  hidden: 'hidden' | 'not_hidden' | 'warn',
  scam?: ScamFinding,
): Reply {
  const locale: Locale = channel.locale;
  const t = (text: Text) => translateText(locale, text);
  const fields = findings.slice(0, 10).map((finding) => ({
    name: `⚠️ ${defang(finding.host)}${finding.finalHost ? ` → ${defang(finding.finalHost)}` : ''}`,
    value: `${categoryName(t, finding.category)} · ${why(locale, finding)}`,
  }));
  if (scam) fields.unshift(scamField(locale, scam));
  const notes = findings.length > 0 ? [t(HOW)] : [];
  if (scam) notes.push(t(SCAM_HOW));
  if (hidden === 'hidden') notes.unshift(t({ ko: '원래 메시지는 숨겼습니다.', en: 'The original message was removed.' }));
  if (hidden === 'not_hidden')
    notes.unshift(
      t({
        ko: '메시지 관리 권한이 없어 원래 메시지는 숨기지 못했습니다.',
        en: 'The original message could not be removed: the bot lacks Manage Messages.',
      }),
    );
  return {
    title:
      findings.length === 0
        ? t({ ko: '⚠️ 사기(스미싱)로 보이는 메시지입니다', en: '⚠️ This message looks like a scam' })
        : findings.length === 1
          ? t({ ko: '⚠️ 위험한 링크가 있습니다', en: '⚠️ This message has a harmful link' })
          : translateText(
              locale,
              { ko: '⚠️ 위험한 링크가 {n}개 있습니다', en: '⚠️ This message has {n} harmful links' },
              { n: findings.length },
            ),
    fields,
    context: notes.join('\n'),
    tone: 'warn',
    public: true,
  };
}

/** The one notice that the checks stopped because the linked account's calls ran out. */
export function quotaNotice(channel: Pick<GuardedChannel, 'locale'>, why: 'quota' | 'subscription'): Reply {
  const t = (text: Text) => translateText(channel.locale, text);
  return {
    title: t({ ko: '링크 가드가 멈췄습니다', en: 'The link guard has stopped' }),
    text:
      why === 'quota'
        ? t({
            ko: '연결된 계정의 이번 달 유해 URL 검사(harmful-url-detection) 호출을 모두 썼습니다. 할당량이 갱신되거나 늘어날 때까지 이 채널의 링크는 검사하지 않습니다. 이 안내는 한 번만 보냅니다.',
            en: "The linked account's harmful-url-detection calls for this month are used up. Links in this channel are not checked until the quota renews. This notice is sent once.",
          })
        : t({
            ko: '연결된 계정이 유해 URL 검사(harmful-url-detection) API를 구독하지 않았습니다. 포털에서 구독하면 검사가 다시 시작됩니다. 이 안내는 한 번만 보냅니다.',
            en: 'The linked account is not subscribed to the harmful-url-detection API. Subscribe in the portal and the checks resume. This notice is sent once.',
          }),
    tone: 'warn',
    public: true,
  };
}
