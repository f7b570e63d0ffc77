import type { Response } from 'express';
import type { QuotaLease } from '../../src/platform/subscriptions.js';

/**
 * IETF RateLimit headers (draft-ietf-httpapi-ratelimit-headers): the monthly policy and what
 * is left of it, so clients can pace themselves before they meet a 429.
 */
export function setQuotaHeaders(res: Response, lease: Pick<QuotaLease, 'remaining' | 'monthlyQuota' | 'renewsAt'>): void {
  const resetSeconds = Math.max(0, Math.ceil((lease.renewsAt.getTime() - Date.now()) / 1000));
  res.setHeader('RateLimit-Policy', `"monthly";q=${lease.monthlyQuota};w=${periodSeconds(lease.renewsAt)}`);
  res.setHeader('RateLimit', `"monthly";r=${lease.remaining};t=${resetSeconds}`);
}

/** Length of the calendar month that ends at `renewsAt`. */
function periodSeconds(renewsAt: Date): number {
  const start = new Date(renewsAt);
  start.setUTCMonth(start.getUTCMonth() - 1);
  return Math.round((renewsAt.getTime() - start.getTime()) / 1000);
}
