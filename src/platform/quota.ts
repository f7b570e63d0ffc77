import type { ApiId } from './catalog.js';

/** What the caller's counter of one API shows after a charge (the door renders it as `RateLimit` headers). */
export interface QuotaState {
  api: ApiId;
  remaining: number;
  monthlyQuota: number;
  renewsAt: Date;
}

/** One reserved call: the counter after it, and how to record it as answered or give it back. */
export interface QuotaLease extends QuotaState {
  /**
   * Records the call as answered (the charge stands). Until then the call is only held: a crash
   * gives it back. 503 UNAVAILABLE when the hold was given back meanwhile. Harmless when repeated.
   */
  settle(): Promise<void>;
  /**
   * The hold row the call waits on, for an operation that records the call in the same statement
   * as what it made (the shortener's link), so a crash between the two cannot leave one without
   * the other. Empty when there is no hold row (a test's counter).
   */
  readonly holdId: string;
  /** That statement counted the call off its hold: the charge stands and `settle()` has nothing left to do. */
  settledWithResult(): void;
  /** Returns the call to the counter (an upstream failed); harmless when called twice. */
  refund(): Promise<void>;
}

/**
 * The monthly call counters as the executor sees them (src/platform/subscriptions.ts).
 * `reserve` throws 403 SUBSCRIPTION_REQUIRED or 429 QUOTA_EXCEEDED.
 */
export interface Quota {
  reserve(accountId: number, api: ApiId): Promise<QuotaLease>;
}
