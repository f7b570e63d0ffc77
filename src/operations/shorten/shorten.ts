import { AppError } from '../../errors.js';
import type { Operation, OperationContext, RecordableCall } from '../../platform/execute.js';
import type { Subscriptions } from '../../platform/subscriptions.js';
import type { UrlSafetyChecker } from '../url-detect/checker.js';
import { CodeSpaceExhaustedError, type LinkLimits, type LinkStore, type ShortLink } from './links.js';
import { normalizeTargetUrl } from './normalize-url.js';
import type { Redirects } from './redirects.js';
import { shortenSchema, type ShortenInput } from './shorten.schema.js';
import { fieldError } from '../../errors.js';
import { systemClock, type Clock } from '../../clock.js';
import { targetOfLink } from './redirects.js';
import { appendUtm } from './utm.js';
import type { z } from 'zod';
import type { shortenOutputSchema } from './shorten.schema.js';

export interface ShortenDeps {
  links: Pick<LinkStore, 'getOrCreate' | 'createLimited'>;
  clock?: Clock;
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
      return (await shortenOne(deps, ctx, input)).output;
    },
  };
}

/** The final target of a request: normalized, UTM tags appended (issue 36). */
export function targetOf(deps: Pick<ShortenDeps, 'shortUrlBase'>, input: Pick<ShortenInput, 'url' | 'utm'>): string {
  const url = normalizeTargetUrl(input.url, deps.shortUrlBase);
  return input.utm ? appendUtm(url, input.utm) : url;
}

/** Issue 36: an expiry must lie ahead. */
export function limitsOf(deps: Pick<ShortenDeps, 'clock'>, input: Pick<ShortenInput, 'expires_at' | 'max_clicks'>): LinkLimits | undefined {
  if (input.expires_at === undefined && input.max_clicks === undefined) return undefined;
  const expiresAt = input.expires_at === undefined ? undefined : new Date(input.expires_at);
  const now = (deps.clock ?? systemClock)();
  if (expiresAt && expiresAt.getTime() <= now.getTime())
    throw fieldError('expires_at', { ko: '이미 지난 시각입니다. 앞으로의 시각을 넣어 주세요.', en: 'The time has already passed.' });
  return { expiresAt, maxClicks: input.max_clicks };
}

/**
 * One link: validate the target, refuse a listed one, the optional check, then the account's
 * link (shared for an everyday link, new for one with limits). `created` says whether a row was made.
 */
export async function shortenOne(
  deps: ShortenDeps,
  ctx: OperationContext,
  input: ShortenInput,
  url: string = targetOf(deps, input),
): Promise<{ output: ShortenOutput; created: boolean }> {
  const limits = limitsOf(deps, input);
  await refuseListed(deps, ctx, url);
  const safetyCheck = input.check_harmful ? await checkSafety(deps, ctx, url) : undefined;
  const call = ctx.ownCall?.();
  const { link, created } = await makeLink(deps, ctx.account.id, url, limits, call).catch((error: unknown) => {
    if (error instanceof CodeSpaceExhaustedError) {
      throw new AppError('UNAVAILABLE', '단축 코드를 만들지 못했습니다. 잠시 후 다시 시도하세요.', {}, 1);
    }
    throw error;
  });
  // A new link's insert recorded its call with it; an existing link's call settles as usual.
  if (created && call?.holdId) call.settledWithResult?.();
  deps.redirects.remember(link.code, targetOfLink(link));
  return {
    created,
    output: {
      short_url: shortUrl(deps.shortUrlBase, link.code),
      code: link.code,
      url: link.url,
      ...(safetyCheck ? { safety_check: safetyCheck } : {}),
      ...(link.expiresAt ? { expires_at: link.expiresAt.toISOString() } : {}),
      ...(link.maxClicks ? { max_clicks: link.maxClicks } : {}),
    },
  };
}

/**
 * The account's link: its shared everyday one, or a new one with limits. With `call` (the
 * charge it costs), a new link's insert counts that call off in the same statement (links.ts),
 * so a crash cannot leave a link nobody paid for.
 */
export async function makeLink(
  deps: Pick<ShortenDeps, 'links'>,
  accountId: number,
  url: string,
  limits: LinkLimits | undefined,
  call: Partial<RecordableCall> | undefined,
): Promise<{ link: ShortLink; created: boolean }> {
  if (limits) return { link: await deps.links.createLimited(accountId, url, limits, call?.holdId), created: true };
  return deps.links.getOrCreate(accountId, url, call?.holdId);
}

/** CONTRACT §5: a URL already on a harmful list is refused with 422 even without `check_harmful`; the call is given back. */
export async function refuseListed(deps: ShortenDeps, ctx: OperationContext, url: string, refunded = true): Promise<void> {
  const listed = deps.urlChecker.listCheck?.(url);
  if (!listed?.isMalicious) return;
  const usage = (await deps.usage?.usage(ctx.account.id)) ?? [];
  // This call is refunded as the error leaves the executor: count it back in.
  const remaining = (usage.find((row) => row.api === 'url-shortener')?.remaining ?? 0) + (refunded ? 1 : 0);
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

export async function checkSafety(deps: ShortenDeps, ctx: OperationContext, url: string): Promise<SafetyCheck> {
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
