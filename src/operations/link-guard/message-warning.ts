import { z } from 'zod';
import type { Operation } from '../../platform/execute.js';
import type { MessageJudge, MessageJudgement } from '../url-scan/message-judge.js';
import type { CheckedUrl } from '../url-scan/smishing-signals.js';

/**
 * What a scam warning may show of a judgement: the scam's kind, its Korean name and the advice
 * (sentences from the judge's own tables). Never its reasons: they can quote the message
 * (a number, a host), and a warning repeats nothing of what was posted.
 */
export type ScamFinding = Pick<MessageJudgement, 'scam_type' | 'scam_label' | 'advice'>;

/**
 * `/guard messages on` (issue 50 item 5): the message's text judged offline with its links'
 * verdicts. Only the `firm` level warns: a channel sees a warning only where the judge is sure.
 */
export function scamFinding(judge: MessageJudge, text: string, checked: readonly CheckedUrl[]): ScamFinding | undefined {
  const judgement = judge.judge(text, checked);
  if (judgement.level !== 'firm') return undefined;
  return { scam_type: judgement.scam_type, scam_label: judgement.scam_label, advice: judgement.advice };
}

/**
 * The charge of a scam warning: one `harmful-url-detection` call of the linked account, through
 * the executor like every other charge (refused when the quota is used up or not subscribed).
 * The judgement was made before, offline and free; this is asked only when it warns.
 */
export const scamWarningOperation: Operation<z.ZodObject<{}>, { charged: true }> = {
  api: 'harmful-url-detection',
  schema: z.object({}),
  run: async () => ({ charged: true }),
};
