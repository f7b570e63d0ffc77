import { AppError } from '../../errors.js';
import type { Operation } from '../../platform/execute.js';
import type { ChatMessage, LlmProvider } from '../../providers/llm.js';
import { TONE_GUIDES, toneSystemPrompt } from './tone-guides.js';
import { rejectReason } from './tone-output.js';
import { toneSchema, type Tone } from './tone.schema.js';
import type { z } from 'zod';
import type { toneOutputSchema } from './tone.schema.js';

export interface ToneDeps {
  llm: LlmProvider;
}

/** What a conversion returns: `z.output` of its schema (tone.schema.ts), so the docs and the code cannot differ. */
export type ToneOutput = z.output<typeof toneOutputSchema>;

/** Room for the restyled text: Korean runs about one to two tokens a character. */
function maxTokensFor(text: string): number {
  return Math.min(8192, text.length * 3 + 256);
}

function messagesFor(tone: Tone, text: string): ChatMessage[] {
  const examples = TONE_GUIDES[tone].examples.flatMap(([source, converted]): ChatMessage[] => [
    { role: 'user', content: source },
    { role: 'assistant', content: converted },
  ]);
  return [{ role: 'system', content: toneSystemPrompt(tone) }, ...examples, { role: 'user', content: text }];
}

/**
 * Tone conversion (SPEC §2): restyles `text` in one of ten tones with the LLM, keeping its
 * meaning, numbers, names, URLs and line breaks. An answer that is empty, quoted, an
 * explanation or loses a URL is asked for once more, then fails with 502.
 */
export function createToneOperation(deps: ToneDeps): Operation<typeof toneSchema, ToneOutput> {
  return {
    api: 'tone-transformation',
    schema: toneSchema,
    async run(ctx, input) {
      const request = { messages: messagesFor(input.target_tone, input.text), temperature: 0.4, maxTokens: maxTokensFor(input.text) };
      for (let attempt = 1; attempt <= 2; attempt++) {
        const { text } = await deps.llm.chat(request, { logger: ctx.logger });
        const reason = rejectReason(text, input.text);
        if (!reason) {
          return { transformed_text: text.trim(), target_tone: input.target_tone };
        }
        ctx.logger.warn({ attempt, reason, outputChars: text.length }, 'tone conversion rejected');
      }
      throw new AppError('UPSTREAM_ERROR', 'AI가 올바른 변환 결과를 돌려주지 않았습니다. 잠시 후 다시 시도하세요.');
    },
  };
}
