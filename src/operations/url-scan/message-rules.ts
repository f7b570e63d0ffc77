import { z } from 'zod';
import raw from './message-rules.json' with { type: 'json' };

const host = z
  .string()
  .regex(/^[a-z0-9.-]+\.[a-z0-9-]+$|^[a-z]{2,}$/, '소문자 호스트나 공개 접미사여야 합니다')
  .describe('a lower-case host or public suffix');

/**
 * The message check's tables (README.md beside this file says how to change them): which bare
 * host endings count as links, the organisations smishing impersonates with their own domains,
 * the lure wording, and the public shorteners that hide a target.
 */
export const messageRulesSchema = z.object({
  extraction: z.object({
    /** A bare two-label host with no path (`naver.com`) is a link only with one of these suffixes. */
    bareSuffixes: z.array(z.string().regex(/^[a-z]{2,}(\.[a-z]{2,})?$/)).min(1),
    /** Endings that are more often file names than sites (`report.zip`): never a bare link without a path. */
    fileExtensionSuffixes: z.array(z.string().regex(/^[a-z]{2,}$/)),
  }),
  organisations: z
    .array(
      z.object({
        name: z.string().min(1),
        aliases: z.array(z.string().min(2)).min(1),
        /** The organisation's own registrable domains (or a restricted suffix such as `go.kr`). */
        domains: z.array(host).min(1),
      }),
    )
    .min(1),
  lures: z.array(z.object({ label: z.string().min(1), words: z.array(z.string().min(2)).min(1) })).min(1),
  shorteners: z.array(host).min(1),
});

export type MessageRules = z.output<typeof messageRulesSchema>;

/** The shipped tables, validated once at load: a broken edit fails at start, not on a message. */
export const MESSAGE_RULES: MessageRules = messageRulesSchema.parse(raw);

/** Whether `hostname` is `domain` or one of its sub-domains. */
export function hostUnder(hostname: string, domain: string): boolean {
  return hostname === domain || hostname.endsWith(`.${domain}`);
}
