import type { Database } from '../../../db/client.js';
import type { Clock } from '../../clock.js';
import type { Logger } from '../../logger.js';
import type { LlmProvider } from '../../providers/llm.js';
import type { Tracker } from '../../providers/tracker.js';
import { createDeliveryAi, type DeliveryAi } from './delivery-ai.js';
import { createDeliveryOperation } from './delivery.js';
import { createHolidayCalendar, type HolidayCalendar } from './holidays.js';
import { createRateLimiter, type RateLimiterOptions } from '../../platform/rate-limiter.js';
import { createTrackingCache } from './tracking-cache.js';
import { createTrackingService, type TrackingService } from './tracking-service.js';
import { createCarrierCorrections, type CarrierCorrections } from './correction-store.js';
import { createDeliveryHistory, type DeliveryHistory } from './history-store.js';

export interface DeliveryOptions {
  rateLimit?: RateLimiterOptions;
  calendar?: HolidayCalendar;
  /** Longest wait for the LLM before the rule-based analysis is answered. */
  aiTimeoutMs?: number;
}

export interface DeliveryModuleDeps {
  db: Database;
  tracker: Tracker;
  llm: LlmProvider;
  logger: Logger;
  /** "Now" for cache expiry and the analysis (dates are read in Asia/Seoul). */
  clock: Clock;
}

/** Parcel tracking as the runtime composes it: shared with the watch poller. */
export interface Delivery {
  tracking: TrackingService;
  ai: DeliveryAi;
  calendar: HolidayCalendar;
  /** Anonymous durations of past watched parcels: arrival estimates and stall thresholds. */
  history: DeliveryHistory;
  /** Carriers workspaces named for numbers detection guessed otherwise. */
  corrections: CarrierCorrections;
  operation: ReturnType<typeof createDeliveryOperation>;
}

/**
 * Builds parcel tracking: the tracking service (cache, rate limit, coalescing), shared by
 * the operation and the watch poller (`tracking.track(carrier, number, { fresh: true })`).
 */
export function createDelivery(deps: DeliveryModuleDeps, options: DeliveryOptions = {}): Delivery {
  const calendar = options.calendar ?? createHolidayCalendar();
  const tracking = createTrackingService({
    tracker: deps.tracker,
    cache: createTrackingCache(deps.db),
    limiter: createRateLimiter(deps.db, options.rateLimit),
    clock: deps.clock,
    logger: deps.logger,
  });
  const ai = createDeliveryAi({ llm: deps.llm, calendar, timeoutMs: options.aiTimeoutMs });
  const history = createDeliveryHistory({ db: deps.db, clock: deps.clock, calendar });
  const corrections = createCarrierCorrections({ db: deps.db, clock: deps.clock });
  return {
    tracking,
    ai,
    calendar,
    history,
    corrections,
    operation: createDeliveryOperation({ tracking, ai, calendar, clock: deps.clock, history, corrections }),
  };
}
