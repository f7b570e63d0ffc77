import { AppError } from '../../errors.js';
import type { Operation, OperationContext } from '../../platform/execute.js';
import type { Subscriptions } from '../../platform/subscriptions.js';
import type { UrlSafetyChecker } from '../url-detect/checker.js';
import { CodeSpaceExhaustedError, type LinkStore } from './links.js';
import { normalizeTargetUrl } from './normalize-url.js';
import type { Redirects } from './redirects.js';
import { shortenSchema } from './shorten.schema.js';
import type { z } from 'zod';
import type { shortenOutputSchema } from './shorten.schema.js';

export interface ShortenDeps {
  links: Pick<LinkStore, 'getOrCreate'>;
  redirects: Pick<Redirects, 'remember'>;
  urlChecker: UrlSafetyChecker;
  shortUrlBase: string;
  /** The caller's counters, for the `remaining` of a listed URL's 422. */
  usage?: Pick<Subscriptions, 'usage'>;
}

/** `z.output` of its schema (shorten.schema.ts). */
export type ShortenOutput = z.output<typeof shortenOutputSchema>;
type SafetyCheck = NonNullable<ShortenOutput['safety_check']>;

/**
 * URL shortening (SPEC §8): one five-character code per account and normalized URL.
 * With `check_harmful`, the URL is first judged by the harmful-URL checker, which costs a
 * call of the caller's `harmful-url-detection` subscription (403 without one); a harmful URL
 * is refused with 422 and no link is created.
 */
export function createShortenOperation(deps: ShortenDeps): Operation<typeof shortenSchema, ShortenOutput> {
  return {
    api: 'url-shortener',
    schema: shortenSchema,
    async run(ctx, input) {
      const url = normalizeTargetUrl(input.url, deps.shortUrlBase);
      await refuseListed(deps, ctx, url);
      const safetyCheck = input.check_harmful ? await checkSafety(deps, ctx, url) : undefined;
      const ownCall = ctx.ownCall?.();
      const { link, created } = await deps.links.getOrCreate(ctx.account.id, url, ownCall?.holdId).catch((error: unknown) => {
        if (error instanceof CodeSpaceExhaustedError) {
          throw new AppError('UNAVAILABLE', '단축 코드를 만들지 못했습니다. 잠시 후 다시 시도하세요.', {}, 1);
        }
        throw error;
      });
      // A new link's insert recorded the call with it (links.ts); an existing link's call settles as usual.
      if (created && ownCall?.holdId) ownCall.settledWithResult();
      deps.redirects.remember(link.code, { linkId: link.id, url: link.url });
      return {
        short_url: shortUrl(deps.shortUrlBase, link.code),
        code: link.code,
        url: link.url,
        ...(safetyCheck ? { safety_check: safetyCheck } : {}),
      };
    },
  };
}

/** CONTRACT §5: a URL already on a harmful list is refused with 422 even without `check_harmful`; the call is given back. */
async function refuseListed(deps: ShortenDeps, ctx: OperationContext, url: string): Promise<void> {
  const listed = deps.urlChecker.listCheck?.(url);
  if (!listed?.isMalicious) return;
  const usage = (await deps.usage?.usage(ctx.account.id)) ?? [];
  // This call is refunded as the error leaves the executor: count it back in.
  const remaining = (usage.find((row) => row.api === 'url-shortener')?.remaining ?? 0) + 1;
  throw listedHarmful(listed, remaining);
}

/** Verdict fields a harmful-URL 422 carries. */
type HarmfulVerdict = { category: string; reason: string };

/** 422: the URL is on a harmful list (the call is refunded; `remaining` counts it back in). */
export function listedHarmful(listed: HarmfulVerdict, remaining: number): AppError {
  return new AppError('HARMFUL_URL', '유해 URL 목록에 등록된 주소라 단축 URL을 만들지 않았습니다.', {
    is_malicious: true,
    category: listed.category,
    reason: listed.reason,
    remaining,
  });
}

/** 422 of `check_harmful`: the check judged the URL harmful; that check keeps its charge. */
export function judgedHarmful(verdict: HarmfulVerdict, remaining: number): AppError {
  return new AppError('HARMFUL_URL', '유해한 URL로 판단되어 단축 URL을 만들지 않았습니다.', {
    is_malicious: true,
    category: verdict.category,
    reason: verdict.reason,
    remaining,
  })
    .earns('harmful-url-detection')
    .en('The URL was judged harmful, so no short link was made.');
}

/** 403 of `check_harmful` without a subscription to the harmful-URL API. */
export function checkNeedsSubscription(): AppError {
  return new AppError(
    'SUBSCRIPTION_REQUIRED',
    "check_harmful을 사용하려면 유해 URL 탐지 API('harmful-url-detection') 구독이 필요합니다.",
  ).en("check_harmful needs a subscription to the harmful URL detection API ('harmful-url-detection').");
}

async function checkSafety(deps: ShortenDeps, ctx: OperationContext, url: string): Promise<SafetyCheck> {
  const charged = await ctx.charge('harmful-url-detection').catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'SUBSCRIPTION_REQUIRED') {
      throw checkNeedsSubscription();
    }
    throw error;
  });
  const verdict = await deps.urlChecker.check(url);
  if (verdict.isMalicious) {
    // The check was answered: the verdict "harmful" keeps its charge (the executor refunds the rest).
    throw judgedHarmful(verdict, charged.remaining);
  }
  // SPEC §8 names a clean verdict `safe` in the shortener's embedded check.
  const category = verdict.category === 'clean' ? 'safe' : verdict.category;
  return { is_malicious: false, category, reason: verdict.reason, remaining: charged.remaining };
}

export function shortUrl(base: string, code: string): string {
  return `${base}/${code}`;
}
