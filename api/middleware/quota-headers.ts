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

const SEOUL_OFFSET_MS = 9 * 3600_000;

/**
 * Length of the quota period that ends at `renewsAt`: the Seoul calendar month before it
 * (counters renew at 00:00 KST on the 1st), so November is 30 days and February 28 or 29.
 */
export function periodSeconds(renewsAt: Date): number {
  const seoul = new Date(renewsAt.getTime() + SEOUL_OFFSET_MS);
  const start = Date.UTC(seoul.getUTCFullYear(), seoul.getUTCMonth() - 1, seoul.getUTCDate(), seoul.getUTCHours()) - SEOUL_OFFSET_MS;
  return Math.round((renewsAt.getTime() - start) / 1000);
}
