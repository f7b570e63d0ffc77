import { z } from 'zod';
import { AppError, errorBody } from '../../errors.js';
import type { Operation } from '../../platform/execute.js';
import { parseInput } from '../../validation.js';
import { CodeSpaceExhaustedError, type LinkStore } from './links.js';
import { linkOptionsShape, shortenSchema } from './shorten.schema.js';
import { checkSafety, limitsOf, makeLink, refuseListed, shortUrl, targetOf, type ShortenDeps, type ShortenOutput } from './shorten.js';
import { targetOfLink } from './redirects.js';

/** Links one bulk request may ask for. */
export const MAX_BULK = 100;

export const bulkShortenSchema = z
  .object({
    urls: z
      .array(z.unknown())
      .min(1)
      .max(MAX_BULK)
      .optional()
      .describe(`줄일 URL 목록 (최대 ${MAX_BULK}개); check_harmful·expires_at·max_clicks·utm은 모두에 적용`),
    items: z
      .array(z.unknown())
      .min(1)
      .max(MAX_BULK)
      .optional()
      .describe(
        `항목마다 단축 요청 본문과 같은 모양: {url, check_harmful?, expires_at?, max_clicks?, utm?} (최대 ${MAX_BULK}개); 목록 밖의 옵션은 기본값`,
      ),
    check_harmful: z.boolean().optional(),
    ...linkOptionsShape,
  })
  .refine((body) => (body.urls === undefined) !== (body.items === undefined), {
    message: "'urls' 또는 'items' 중 하나만 보내세요.",
    path: ['urls'],
  });

const itemSuccess = z.object({
  success: z.literal(true),
  short_url: z.string(),
  code: z.string(),
  url: z.string(),
  /** False when the account already had this link (answered without a charge). */
  created: z.boolean(),
  expires_at: z.string().optional(),
  max_clicks: z.number().int().optional(),
  safety_check: z
    .object({ is_malicious: z.literal(false), category: z.string(), reason: z.string(), remaining: z.number().int() })
    .optional(),
});
const itemError = z.looseObject({ success: z.literal(false), code: z.number().int(), error: z.string(), error_code: z.string() });

export const bulkShortenOutputSchema = z.object({
  results: z.array(z.union([itemSuccess, itemError])).describe('요청 순서대로 항목마다 성공 또는 오류 본문'),
  created: z.number().int().describe('새로 만든 링크 수 (이만큼 호출이 차감됨)'),
  failed: z.number().int(),
});

export type BulkShortenOutput = z.output<typeof bulkShortenOutputSchema>;
type ItemResult = BulkShortenOutput['results'][number];

/**
 * Issue 36: `POST /api/v1/url/shorten/bulk`. Each item is answered in order with its own
 * success or error body (400 invalid, 422 harmful, 429 quota): one bad item never fails the
 * others. Each link made costs one `url-shortener` call; an item that fails, or one the account
 * already had, costs nothing. `check_harmful` costs one `harmful-url-detection` call per item
 * checked, and a caller without that subscription gets one 403 for the whole request.
 */
export function createBulkShortenOperation(
  deps: ShortenDeps & { links: Pick<LinkStore, 'findShared'> },
): Operation<typeof bulkShortenSchema, BulkShortenOutput> {
  return {
    api: 'url-shortener',
    schema: bulkShortenSchema,
    isFree: (output) => output.created === 0,
    async run(ctx, input) {
      const { urls, items, ...shared } = input;
      // Options given beside the list apply to every item; an item's own options win.
      const defaults = Object.fromEntries(Object.entries(shared).filter(([, value]) => value !== undefined));
      const raws: unknown[] = items
        ? items.map((item) => (item !== null && typeof item === 'object' && !Array.isArray(item) ? { ...defaults, ...item } : item))
        : (urls ?? []).map((url) => ({ ...defaults, url }));
      // The executor took one call already: the first link made uses it.
      let ownCallUnused = true;
      const results: ItemResult[] = [];
      for (const raw of raws) {
        try {
          const item = parseInput(shortenSchema, raw);
          const url = targetOf(deps, item);
          const limits = limitsOf(deps, item);
          await refuseListed(deps, ctx, url, false);
          const safetyCheck = item.check_harmful ? await checkSafety(deps, ctx, url) : undefined;
          const existing = limits ? undefined : await deps.links.findShared(ctx.account.id, url);
          if (existing) {
            results.push(success(deps, existing, false, safetyCheck));
            continue;
          }
          const call = ownCallUnused ? ctx.ownCall?.() : await ctx.charge('url-shortener');
          ownCallUnused = false;
          const made = await makeLink(deps, ctx.account.id, url, limits, call);
          // The link's insert recorded its call with it (links.ts).
          if (made.created && call?.holdId) call.settledWithResult?.();
          deps.redirects.remember(made.link.code, targetOfLink(made.link));
          results.push(success(deps, made.link, true, safetyCheck));
        } catch (error) {
          // A missing subscription is the whole request's, not one item's.
          if (error instanceof AppError && error.code === 'SUBSCRIPTION_REQUIRED') throw error;
          if (error instanceof CodeSpaceExhaustedError) {
            results.push(
              errorBody(new AppError('UNAVAILABLE', '단축 코드를 만들지 못했습니다. 잠시 후 다시 시도하세요.', {}, 1)) as ItemResult,
            );
            continue;
          }
          if (!(error instanceof AppError) || error.status >= 500) throw error;
          results.push(errorBody(error) as ItemResult);
        }
      }
      const created = results.filter((result) => result.success && 'created' in result && result.created).length;
      return { results, created, failed: results.filter((result) => !result.success).length };
    },
  };
}

function success(
  deps: ShortenDeps,
  link: { code: string; url: string; expiresAt?: Date | null; maxClicks?: number | null },
  created: boolean,
  safetyCheck: ShortenOutput['safety_check'],
): ItemResult {
  return {
    success: true,
    short_url: shortUrl(deps.shortUrlBase, link.code),
    code: link.code,
    url: link.url,
    created,
    ...(link.expiresAt ? { expires_at: link.expiresAt.toISOString() } : {}),
    ...(link.maxClicks ? { max_clicks: link.maxClicks } : {}),
    ...(safetyCheck ? { safety_check: safetyCheck } : {}),
  };
}
