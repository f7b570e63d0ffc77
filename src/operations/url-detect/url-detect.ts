import type { Operation } from '../../platform/execute.js';
import type { UrlEngine } from './engine.js';
import { urlDetectSchema } from './url-detect.schema.js';

export interface UrlDetectOutput {
  is_malicious: boolean;
  category: 'clean' | 'spam' | 'gambling' | 'adult' | 'phishing' | 'malware';
  reason: string;
  /** The canonical URL that was judged. */
  url: string;
  /** allowlist | list | rules | llm: what decided the verdict. */
  source: string;
}

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
