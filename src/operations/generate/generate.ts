import { AppError } from '../../errors.js';
import type { Operation } from '../../platform/execute.js';
import type { LlmProvider } from '../../providers/llm.js';
import { generateSystemPrompt } from './generate-styles.js';
import { moderatePrompt } from './generate-moderation.js';
import { generateSchema } from './generate.schema.js';
import type { z } from 'zod';
import type { generateOutputSchema } from './generate.schema.js';

export interface GenerateDeps {
  llm: LlmProvider;
}

/** `z.output` of its schema (generate.schema.ts). */
export type GenerateOutput = z.output<typeof generateOutputSchema>;

/**
 * Text generation (SPEC §4): a moderation step (400, free, when the request is
 * unacceptable), then one completion with the caller's `max_tokens` and `temperature` and
 * an optional `style` guide. `tokens_used` is the upstream's total token count.
 */
export function createGenerateOperation(deps: GenerateDeps): Operation<typeof generateSchema, GenerateOutput> {
  return {
    api: 'text-generation',
    schema: generateSchema,
    async run(ctx, input) {
      await moderatePrompt(deps.llm, input.prompt, { logger: ctx.logger });
      const result = await deps.llm.chat(
        {
          messages: [
            { role: 'system', content: generateSystemPrompt(input.style) },
            { role: 'user', content: input.prompt },
          ],
          maxTokens: input.max_tokens,
          temperature: input.temperature,
        },
        { logger: ctx.logger },
      );
      const content = result.text.trim();
      if (!content) throw new AppError('UPSTREAM_ERROR', 'AI가 빈 응답을 돌려주었습니다. 잠시 후 다시 시도하세요.');
      return { content, tokens_used: result.usage.totalTokens };
    },
  };
}
