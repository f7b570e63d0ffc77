import type { Response } from 'express';
import type { AppError } from '../../src/errors.js';
import type { QuotaState } from '../../src/platform/quota.js';

/**
 * IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers), the one place they are
 * written: the monthly policy and what is left of it after an answered call, so clients can
 * pace themselves before they meet a 429; and `r=0` with the reset on the 429 itself.
 */
export function setQuotaHeaders(res: Response, quota: Pick<QuotaState, 'remaining' | 'monthlyQuota' | 'renewsAt'>, now: Date): void {
  const resetSeconds = Math.max(0, Math.ceil((quota.renewsAt.getTime() - now.getTime()) / 1000));
  res.setHeader('RateLimit-Policy', `"monthly";q=${quota.monthlyQuota};w=${periodSeconds(quota.renewsAt)}`);
  res.setHeader('RateLimit', `"monthly";r=${quota.remaining};t=${resetSeconds}`);
}

/** A used-up counter (429 QUOTA_EXCEEDED): nothing left until the renewal the error names. */
export function setExhaustedQuotaHeaders(res: Response, error: AppError): void {
  if (error.code !== 'QUOTA_EXCEEDED') return;
  res.setHeader('RateLimit', `"monthly";r=0;t=${error.retryAfterSeconds ?? 0}`);
}

/** Length of the calendar month that ends at `renewsAt`. */
function periodSeconds(renewsAt: Date): number {
  const start = new Date(renewsAt);
  start.setUTCMonth(start.getUTCMonth() - 1);
  return Math.round((renewsAt.getTime() - start.getTime()) / 1000);
}
