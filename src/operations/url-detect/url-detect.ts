import type { Operation } from '../../platform/execute.js';
import type { UrlEngine } from './engine.js';
import { urlDetectSchema } from './url-detect.schema.js';
import type { z } from 'zod';
import type { urlDetectOutputSchema } from './url-detect.schema.js';

/** A verdict: `z.output` of its schema (url-detect.schema.ts). */
export type UrlDetectOutput = z.output<typeof urlDetectOutputSchema>;

/**
 * Harmful-URL detection (SPEC §3): classifies a URL as clean, spam, gambling, adult,
 * phishing or malware with a Korean reason, offline (allowlist, lists, lexical rules) and
 * with an LLM second opinion for uncertain cases when one is configured. Never fetches the URL.
 */
export function createUrlDetectOperation(deps: { engine: UrlEngine }): Operation<typeof urlDetectSchema, UrlDetectOutput> {
  return {
    api: 'harmful-url-detection',
    schema: urlDetectSchema,
    async run(ctx, input) {
      const verdict = await deps.engine.classify(input.url);
      ctx.logger.debug({ category: verdict.category, source: verdict.source, score: verdict.score }, 'url classified');
      return {
        is_malicious: verdict.isMalicious,
        category: verdict.category,
        reason: verdict.reason,
        url: verdict.url,
        source: verdict.source,
      };
    },
  };
}
