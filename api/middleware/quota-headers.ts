import type { Response } from 'express';
import type { QuotaState } from '../../src/platform/quota.js';
import { previousSeoulMonth } from '../../src/seoul-time.js';

/**
 * IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers), the one place they are
 * written: the monthly policy and what is left of it after an answered call, so clients can
 * pace themselves before they meet a 429; and `r=0` with the reset on the 429 itself.
 */
export function setQuotaHeaders(res: Response, quota: Pick<QuotaState, 'remaining' | 'monthlyQuota' | 'renewsAt'>, now: Date): void {
  res.setHeader('RateLimit-Policy', rateLimitPolicy(quota));
  res.setHeader('RateLimit', rateLimit(quota, now.getTime()));
}

/** The `RateLimit-Policy` value: the monthly quota and the length of its period. */
export function rateLimitPolicy(quota: Pick<QuotaState, 'monthlyQuota' | 'renewsAt'>): string {
  return `"monthly";q=${quota.monthlyQuota};w=${periodSeconds(quota.renewsAt)}`;
}

/** The `RateLimit` value: what is left, and the seconds until it renews. */
export function rateLimit(quota: Pick<QuotaState, 'remaining' | 'renewsAt'>, nowMs: number): string {
  const resetSeconds = Math.max(0, Math.ceil((quota.renewsAt.getTime() - nowMs) / 1000));
  return `"monthly";r=${quota.remaining};t=${resetSeconds}`;
}

/**
 * Length of the quota period that ends at `renewsAt`: the Seoul calendar month before it
 * (counters renew at 00:00 KST on the 1st), so November is 30 days and February 28 or 29.
 */
export function periodSeconds(renewsAt: Date): number {
  const renewsMs = renewsAt.getTime();
  // Every answered call asks, nearly always about the same renewal: the last answer is kept.
  if (renewsMs !== lastPeriod.renewsMs)
    lastPeriod = { renewsMs, seconds: Math.round((renewsMs - previousSeoulMonth(renewsAt).getTime()) / 1000) };
  return lastPeriod.seconds;
}

let lastPeriod = { renewsMs: Number.NaN, seconds: 0 };
