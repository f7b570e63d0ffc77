import { LINKISH, readCues, type MessageCues } from './message-cues.js';
import { messageFeatures } from './message-features.js';
import { MESSAGE_RULES, type MessageRules } from './message-rules.js';
import type { MessageModel } from './model/message-model.js';
import { SCAM_SCRIPTS, type ScamScripts } from './scam-scripts.js';
import type { ScamType } from './scam-types.js';
import { linkEvidence, SIGNALS_FOR_SMISHING, type CheckedUrl } from './smishing-signals.js';

/**
 * How sure the judgement is, as bands of `score`: `firm` (≥ 0.9: the link guard may warn
 * unasked), `likely` (≥ 0.5: called smishing when someone asks), `uncertain` (≥ 0.3: an LLM,
 * when configured, is asked), `unlikely`.
 */
export type MessageLevel = 'firm' | 'likely' | 'uncertain' | 'unlikely';
export const SCORE_BANDS = { firm: 0.9, likely: 0.5, uncertain: 0.3 } as const;

/** The judgement of one message (its text and its links' verdicts). */
export interface MessageJudgement {
  is_smishing: boolean;
  scam_type: ScamType | null;
  scam_label: string | null;
  /** Korean sentences: what to do now. */
  advice: string;
  /** 0–1; the bands of `SCORE_BANDS`. */
  score: number;
  level: MessageLevel;
  reasons: string[];
}

/** The offline judge (rules + message model + link verdicts); synchronous, no I/O. */
export interface MessageJudge {
  judge(text: string, checked: readonly CheckedUrl[]): MessageJudgement;
}

/** The message check's judge: it also takes another verdict on the uncertain middle (the LLM's). */
export interface OverrulableJudge extends MessageJudge {
  overrule(judgement: MessageJudgement, text: string, verdict: { scam: boolean; scamType?: ScamType }): MessageJudgement;
}

export interface MessageJudgeOptions {
  /** The trained message model; without it the rules and links judge alone (said in the reasons). */
  model?: MessageModel;
  scripts?: ScamScripts;
  rules?: MessageRules;
}

/** A harmful link makes the message a firm scam; two link signals make it likely. */
const HARMFUL_LINK_SCORE = 0.95;
const LINK_SIGNALS_SCORE = 0.6;
/** Without a model: a script the rules know (a family with what it asks for) is likely, not firm. */
const RULES_ONLY = { script: 0.6, family: 0.35 };

const NOT_A_SCAM_ADVICE =
  '뚜렷한 스미싱 징후는 찾지 못했습니다. 그래도 모르는 번호가 보낸 링크, 송금·상품권·개인정보 요청은 보낸 사람이나 기관에 이미 알고 있는 번호로 확인한 뒤에 따르세요.';

/**
 * "이거 스미싱이야?": the message's own script (what it asks for, who it claims to be, sender
 * marks, numbers) read by the rules and the message model, with the verdicts of its links. A
 * message without a link can be a scam. The reasons name what was found; they never call a link
 * safe or harmful against its own verdict.
 */
export function createMessageJudge(options: MessageJudgeOptions = {}): OverrulableJudge {
  const scripts = options.scripts ?? SCAM_SCRIPTS;
  const rules = options.rules ?? MESSAGE_RULES;
  const model = options.model;

  function judge(text: string, checked: readonly CheckedUrl[]): MessageJudgement {
    const cues = readCues(text, scripts);
    const links = linkEvidence(text, checked, rules);
    const readable = hasWords(text);
    const own = readable ? textScore(text, cues) : 0;
    let score = Math.max(own, scriptFloor(cues));
    if (links.harmful.length > 0) score = Math.max(score, HARMFUL_LINK_SCORE);
    else if (links.signals.length >= SIGNALS_FOR_SMISHING) score = Math.max(score, LINK_SIGNALS_SCORE);
    const textReason = readable ? modelReason(own, model !== undefined) : '링크 말고는 읽을 글이 없어 링크 검사 결과로만 판단했습니다.';
    const reasons = [...links.harmful, ...links.signals, ...cueReasons(cues, score), textReason];
    if (checked.length === 0 && cues.links === 0)
      reasons.push('메시지에 링크는 없습니다. 링크가 없어도 송금·연락처·앱 설치를 요구하는 사기 문자가 많습니다.');
    return verdict(round(score), cues, reasons);
  }

  /** The message's words alone: the model's probability on the score's bands, or the rules without a model. */
  function textScore(text: string, cues: MessageCues): number {
    return model ? bandScore(model.predictFeatures(messageFeatures(text, cues)), model.meta.levels) : rulesOnlyScore(cues);
  }

  function verdict(score: number, cues: MessageCues, reasons: string[], scamType?: ScamType): MessageJudgement {
    const level = levelOf(score);
    const isSmishing = score >= SCORE_BANDS.likely;
    const type: ScamType | null = isSmishing ? (scamType ?? cues.families[0]?.type ?? 'other') : null;
    const family = scripts.families.find((entry) => entry.type === type);
    return {
      is_smishing: isSmishing,
      scam_type: type,
      scam_label: type === null ? null : (family?.label ?? scripts.other.label),
      advice: type === null ? NOT_A_SCAM_ADVICE : (family?.advice ?? scripts.other.advice),
      score,
      level,
      reasons,
    };
  }

  return {
    judge,
    overrule(judgement, text, said) {
      // The LLM moves a message across the "likely" line only: it never makes a guard warning (firm) by itself.
      const score = said.scam ? Math.max(judgement.score, 0.6) : Math.min(judgement.score, 0.45);
      return verdict(round(score), readCues(text, scripts), judgement.reasons, said.scamType);
    },
  };
}

/**
 * Whether anything but links is left to read. A bare link (a QR code, a pasted address) gives the
 * model only its link sign, and on that alone it called every address a scam, naver.com included:
 * such a message is judged by its links' verdicts.
 */
function hasWords(text: string): boolean {
  return /\p{L}/u.test(text.normalize('NFKC').replace(LINKISH, ' '));
}

/** The model's probability on the score's bands: its calibrated cuts land on 0.3, 0.5 and 0.9. */
export function bandScore(probability: number, levels: MessageModel['meta']['levels']): number {
  const points: [number, number][] = [
    [0, 0],
    [levels.uncertain, SCORE_BANDS.uncertain],
    [levels.likely, SCORE_BANDS.likely],
    [levels.firm, SCORE_BANDS.firm],
    [1, 1],
  ];
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1]!;
    const [x1, y1] = points[i]!;
    if (probability <= x1) return x1 === x0 ? y1 : y0 + ((probability - x0) / (x1 - x0)) * (y1 - y0);
  }
  return 1;
}

/**
 * A script the rules know well (two cues of one family, and it asks for something) is at least
 * uncertain: the LLM, when configured, is asked. Scripts the data set holds few of (검찰 사칭,
 * 대출) stay in view this way, while ordinary notices with two parcel words are not condemned.
 */
function scriptFloor(cues: MessageCues): number {
  const lead = cues.families[0];
  return lead && lead.found.length >= 2 && cues.asks.some((ask) => ask.kind !== 'login') ? SCORE_BANDS.uncertain : 0;
}

function rulesOnlyScore(cues: MessageCues): number {
  const asks = cues.asks.some((ask) => ask.kind !== 'login');
  if (cues.families.length > 0 && asks && (cues.families[0]!.found.length >= 2 || cues.marks.length > 0)) return RULES_ONLY.script;
  return cues.families.length > 0 ? RULES_ONLY.family : 0;
}

function levelOf(score: number): MessageLevel {
  if (score >= SCORE_BANDS.firm) return 'firm';
  if (score >= SCORE_BANDS.likely) return 'likely';
  if (score >= SCORE_BANDS.uncertain) return 'uncertain';
  return 'unlikely';
}

/** What the rules found, in plain Korean; shown from the uncertain band up (below it they are ordinary words). */
function cueReasons(cues: MessageCues, score: number): string[] {
  if (score < SCORE_BANDS.uncertain) return [];
  const reasons: string[] = [];
  const lead = cues.families[0];
  if (lead) reasons.push(`${lead.label} 문자에 흔한 표현(${quoted(lead.found)})이 있습니다.`);
  for (const ask of cues.asks) reasons.push(`${ask.label}을(를) 요구합니다(${quoted(ask.found)}).`);
  if (cues.pressure.length > 0) reasons.push(`급하다며 재촉합니다(${quoted(cues.pressure)}).`);
  for (const mark of cues.marks)
    if (mark.mark === 'foreign') reasons.push(`'${mark.label}' 표시가 있습니다: 국내 기관·회사가 보낸 문자가 아닐 수 있습니다.`);
  if (cues.phones.mobile > 0 && cues.asks.some((ask) => ask.kind === 'reply_elsewhere'))
    reasons.push('저장된 번호가 아닌 다른 휴대전화 번호로 연락하라고 합니다.');
  if (cues.phones.foreign > 0) reasons.push('해외 전화번호가 들어 있습니다.');
  if (cues.accounts > 0 && cues.asks.some((ask) => ask.kind === 'money')) reasons.push('계좌번호를 적고 입금을 요구합니다.');
  return reasons;
}

function modelReason(score: number, hasModel: boolean): string {
  if (!hasModel) return '문자 학습 모델이 없어 규칙과 링크 검사만으로 판단했습니다.';
  const points = Math.round(score * 100);
  return score >= SCORE_BANDS.likely
    ? `한국어 사기 문자로 학습한 모델이 이 문자를 사기 문자와 닮았다고 판단했습니다(${points}점/100점).`
    : `한국어 사기 문자로 학습한 모델의 점수는 ${points}점/100점입니다(50점부터 스미싱으로 봅니다).`;
}

function quoted(words: readonly string[]): string {
  return words
    .slice(0, 3)
    .map((word) => `'${word}'`)
    .join(', ');
}

function round(score: number): number {
  return Math.round(score * 1000) / 1000;
}
