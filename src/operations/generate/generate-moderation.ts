import { AppError } from '../../errors.js';
import type { CallOptions, LlmProvider } from '../../providers/llm.js';

/**
 * The moderation step before text generation: the provider's moderation endpoint when it
 * has one, otherwise a small offline list of clearly harmful requests (Korean and English).
 * A refusal is a 400 (SPEC §4 "request unacceptable"), so it costs the caller nothing.
 */

const CATEGORY_LABELS: Array<[prefix: string, label: string]> = [
  ['sexual/minors', '미성년자 대상 성적 내용'],
  ['sexual', '성적인 내용'],
  ['hate', '혐오 표현'],
  ['harassment', '괴롭힘'],
  ['self-harm', '자해'],
  ['violence', '폭력'],
  ['illicit', '불법 행위'],
];

/** Requests no generation should serve: how to hurt people, exploit children, make weapons, drugs or malware. */
const BLOCKLIST: Array<[RegExp, string]> = [
  [
    /(아동|미성년|초등학생|중학생|어린이|child|minor|underage).{0,20}(성적|음란|야한|성관계|누드|sexual|porn|nude|explicit)/i,
    '미성년자 대상 성적 내용',
  ],
  [/(폭탄|폭발물|사제\s*총|화염병|총기|신경가스).{0,15}(만드|제조|조립|만들)/, '무기 제조'],
  [
    /(how\s+to|instructions?\s+(for|to)|steps?\s+to)\s+(make|build|assemble)\s+(a\s+)?(bomb|explosive|pipe\s*bomb|molotov|nerve\s+agent|untraceable\s+gun)/i,
    '무기 제조',
  ],
  [/(필로폰|메스암페타민|마약|코카인|헤로인|펜타닐).{0,15}(만드|제조|합성|만들)/, '마약 제조'],
  [/(synthesi[sz]e|make|cook|manufacture)\s+(meth|methamphetamine|cocaine|heroin|fentanyl)/i, '마약 제조'],
  [/(자살|자해).{0,10}(방법|하는\s*법|도구|수단)/, '자해'],
  [/(how\s+to|ways?\s+to|best\s+way\s+to)\s+(kill\s+myself|commit\s+suicide|self[-\s]?harm)/i, '자해'],
  [/(랜섬웨어|악성\s*코드|키로거|트로이\s*목마).{0,15}(만드|제작|작성|만들|코드)/, '악성코드 제작'],
  [/(write|create|build|code)\s+(a\s+)?(ransomware|keylogger|malware|trojan)/i, '악성코드 제작'],
  [/(사람|타인|남을?).{0,10}(죽이는|살해하는|독살하는)\s*(방법|법)/, '폭력'],
  [/how\s+to\s+(kill|murder|poison)\s+(a\s+person|someone|people|my\s+\w+)/i, '폭력'],
];

function labelOf(categories: string[]): string {
  for (const [prefix, label] of CATEGORY_LABELS) {
    if (categories.some((category) => category.startsWith(prefix))) return label;
  }
  return '유해한 내용';
}

/** The offline verdict: the label of the first rule the prompt breaks, or undefined. */
export function blocklistVerdict(prompt: string): string | undefined {
  const text = prompt.normalize('NFC');
  return BLOCKLIST.find(([pattern]) => pattern.test(text))?.[1];
}

/** Throws a 400 CONTENT_REFUSED with a Korean reason when the prompt must not be served. */
export async function moderatePrompt(llm: LlmProvider, prompt: string, opts: CallOptions): Promise<void> {
  const verdict = await llm.moderate(prompt, opts);
  const label = verdict ? (verdict.flagged ? labelOf(verdict.categories) : undefined) : blocklistVerdict(prompt);
  if (label) {
    throw new AppError('CONTENT_REFUSED', `요청에 허용되지 않는 내용(${label})이 있어 글을 생성할 수 없습니다.`, { reason: label });
  }
}
