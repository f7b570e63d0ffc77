import type { Database } from '../../../db/client.js';
import type { Logger } from '../../logger.js';
import type { LlmProvider } from '../../providers/llm.js';
import type { Tracker } from '../../providers/tracker.js';
import { createDeliveryAi } from './delivery-ai.js';
import { createDeliveryOperation } from './delivery.js';
import { createHolidayCalendar, type HolidayCalendar } from './holidays.js';
import { createRateLimiter, type RateLimiterOptions } from './rate-limiter.js';
import { createTrackingCache } from './tracking-cache.js';
import { createTrackingService } from './tracking-service.js';

export interface DeliveryOptions {
  /** "Now" for cache expiry and the analysis (tests fix it; dates are read in Asia/Seoul). */
  clock?: () => Date;
  rateLimit?: RateLimiterOptions;
  calendar?: HolidayCalendar;
  /** Longest wait for the LLM before the rule-based analysis is answered. */
  aiTimeoutMs?: number;
}

export interface DeliveryDeps {
  db: Database;
  tracker: Tracker;
  llm: LlmProvider;
  logger: Logger;
}

/**
 * Builds parcel tracking: the tracking service (cache, rate limit, coalescing), shared by
 * the operation and the watch poller (`tracking.track(carrier, number, { fresh: true })`).
 */
export function createDelivery(deps: DeliveryDeps, options: DeliveryOptions = {}) {
  const calendar = options.calendar ?? createHolidayCalendar();
  const tracking = createTrackingService({
    tracker: deps.tracker,
    cache: createTrackingCache(deps.db),
    limiter: createRateLimiter(deps.db, options.rateLimit),
    clock: options.clock,
    logger: deps.logger,
  });
  const ai = createDeliveryAi({ llm: deps.llm, calendar, timeoutMs: options.aiTimeoutMs });
  return {
    tracking,
    ai,
    calendar,
    operation: createDeliveryOperation({ tracking, ai, calendar, clock: options.clock }),
  };
}

export type Delivery = ReturnType<typeof createDelivery>;
