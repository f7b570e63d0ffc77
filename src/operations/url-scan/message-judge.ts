import type { CheckedUrl } from './smishing-signals.js';
import { judgeMessage } from './smishing-signals.js';

/** CONTRACT §5 `scam_type` values. */
export const SCAM_TYPES = [
  'family_impersonation',
  'institution_impersonation',
  'parcel',
  'finance_alert',
  'loan',
  'investment',
  'invitation',
  'fine_or_tax',
  'prize_or_refund',
  'job',
  'romance',
  'other',
] as const;
export type ScamType = (typeof SCAM_TYPES)[number];

/**
 * How sure the offline judgement is: `firm` (the guard may warn on it), `likely` (called smishing
 * in an answer to someone who asked), `unlikely`. The LLM, when configured, is asked only in the
 * uncertain middle.
 */
export type MessageLevel = 'firm' | 'likely' | 'uncertain' | 'unlikely';

/** The judgement of one message (its text and its links' verdicts). */
export interface MessageJudgement {
  is_smishing: boolean;
  scam_type: ScamType | null;
  scam_label: string | null;
  /** Korean sentences: what to do now. */
  advice: string;
  /** 0–1. */
  score: number;
  level: MessageLevel;
  reasons: string[];
}

/** The offline judge (rules + message model + link verdicts); synchronous, no I/O. */
export interface MessageJudge {
  judge(text: string, checked: readonly CheckedUrl[]): MessageJudgement;
}

/** Placeholder until the message model lands: the link-only signals of smishing-signals.ts. */
export function createMessageJudge(): MessageJudge {
  return {
    judge(text, checked) {
      const old = judgeMessage(text, checked);
      return {
        ...old,
        scam_type: old.is_smishing ? 'other' : null,
        scam_label: old.is_smishing ? '기타 스미싱' : null,
        advice: '',
        score: old.is_smishing ? 1 : 0,
        level: old.is_smishing ? 'firm' : 'unlikely',
      };
    },
  };
}
