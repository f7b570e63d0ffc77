import { z } from 'zod';
import type { LlmProvider } from '../../providers/llm.js';
import type { HarmCategory } from './lists/list-index.js';
import type { Signal } from './signals.js';

/** What the rules saw, handed to the second opinion: the URL text only, never the page. */
export interface SecondOpinionRequest {
  url: string;
  leadingCategory: HarmCategory;
  score: number;
  signals: Signal[];
}

export const secondOpinionSchema = z.object({
  category: z.enum(['clean', 'spam', 'gambling', 'adult', 'phishing', 'malware']),
  reason: z.string().min(1).max(300),
});

export type SecondOpinion = z.output<typeof secondOpinionSchema>;

/**
 * The LLM's view on a URL the rules found uncertain. Called only for the middle band of
 * scores; list hits and clear verdicts never reach it, so it cannot downgrade a list hit.
 * Implementations must not fetch the URL. Throwing (timeouts, outages) keeps the rules' verdict.
 */
export interface SecondOpinionJudge {
  judge(request: SecondOpinionRequest): Promise<SecondOpinion>;
}

/** The instruction given with every request (the URL is sent as data, not instructions). */
export const SECOND_OPINION_PROMPT = [
  'You classify URLs for a Korean safety service by reading the URL text only; never visit it.',
  'Categories: clean, spam (loans, ads, scams), gambling (토토, 카지노, 바카라, 슬롯, 먹튀), adult,',
  'phishing (impersonating 택배, 정부24, 국민건강보험, banks, Naver, Kakao, Toss, or asking for credentials),',
  'malware (APK/executable downloads, exploit hosts). Weak signals alone are not enough: say clean',
  'unless the URL itself makes the harm likely. Answer JSON {"category", "reason"} with a short Korean reason.',
].join(' ');

export function secondOpinionInput(request: SecondOpinionRequest): string {
  return JSON.stringify({
    url: request.url,
    rule_category: request.leadingCategory,
    rule_score: request.score,
    rule_signals: request.signals.map((signal) => signal.reason),
  });
}

/** The LLM provider as a second opinion (structured output); undefined when no LLM is configured. */
export function createLlmSecondOpinion(llm: LlmProvider, options: { timeoutMs?: number } = {}): SecondOpinionJudge | undefined {
  if (!llm.configured) return undefined;
  return {
    async judge(request) {
      const { data } = await llm.structured(
        {
          messages: [
            { role: 'system', content: SECOND_OPINION_PROMPT },
            { role: 'user', content: secondOpinionInput(request) },
          ],
          schema: secondOpinionSchema,
          schemaName: 'url_verdict',
          temperature: 0,
          maxTokens: 200,
        },
        // A verdict is worth little if it comes late: the rules' answer stands after this.
        { timeoutMs: options.timeoutMs ?? 10_000 },
      );
      return data;
    },
  };
}
