import { AppError } from '../../errors.js';
import type { Operation, OperationContext } from '../../platform/execute.js';
import type { FailureMapping, LlmProvider } from '../../providers/llm.js';
import { detectLanguage } from './language-detect.js';
import { splitText, toPiece } from './translate-chunks.js';
import { translateSystemPrompt } from './translate-prompt.js';
import { translateSchema, type Language } from './translate.schema.js';
import type { z } from 'zod';
import type { translateOutputSchema } from './translate.schema.js';

export interface TranslateDeps {
  llm: LlmProvider;
  /** Longest piece sent in one call; longer texts are split on sentence boundaries. */
  chunkChars?: number;
}

/** `z.output` of its schema (translate.schema.ts). */
export type TranslateOutput = z.output<typeof translateOutputSchema>;

/** SPEC §6: a failure to reach the translation engine is a 500. */
export const ENGINE_FAILURE: FailureMapping = { code: 'TRANSLATION_ENGINE_ERROR', message: '번역 엔진과 연결하는 중 오류가 발생했습니다.' };
const PARALLEL_PIECES = 3;

/**
 * Translation (SPEC §6) between ko, en, ja and zh. `auto` is detected offline; the same
 * source and target (or text with no letters) returns the text unchanged without an LLM
 * call and without a charge. Long texts are translated piece by piece and reassembled.
 */
export function createTranslateOperation(deps: TranslateDeps): Operation<typeof translateSchema, TranslateOutput> {
  const chunkChars = deps.chunkChars ?? 1500;

  async function translatePiece(
    ctx: OperationContext,
    chunk: string,
    source: Language,
    target: Language,
    part?: { index: number; total: number },
  ) {
    const { lead, core, trail } = toPiece(chunk);
    if (!core) return chunk;
    const { text } = await deps.llm.chat(
      {
        messages: [
          { role: 'system', content: translateSystemPrompt(source, target, part) },
          { role: 'user', content: core },
        ],
        temperature: 0.2,
        maxTokens: Math.min(8192, core.length * 4 + 256),
      },
      { logger: ctx.logger, failure: ENGINE_FAILURE },
    );
    const translated = text.trim();
    if (!translated) throw new AppError('TRANSLATION_ENGINE_ERROR', `${ENGINE_FAILURE.message} (빈 응답)`);
    return lead + translated + trail;
  }

  return {
    api: 'translation',
    schema: translateSchema,
    isFree: (output) => output.source_lang === output.target_lang,
    async run(ctx, input) {
      const target = input.target_lang;
      const source = input.source_lang === 'auto' ? ((await detectLanguage(input.text)) ?? target) : input.source_lang;
      const answer = (translated: string): TranslateOutput => ({ translated, source_lang: source, target_lang: target });
      if (source === target) return answer(input.text);

      const chunks = splitText(input.text, chunkChars);
      const total = chunks.length;
      const results: string[] = new Array<string>(total);
      for (let start = 0; start < total; start += PARALLEL_PIECES) {
        const batch = chunks.slice(start, start + PARALLEL_PIECES);
        const done = await Promise.all(
          batch.map((chunk, i) => translatePiece(ctx, chunk, source, target, total > 1 ? { index: start + i + 1, total } : undefined)),
        );
        done.forEach((text, i) => (results[start + i] = text));
      }
      ctx.logger.debug({ chars: input.text.length, pieces: total, source, target }, 'translated');
      return answer(results.join(''));
    },
  };
}
