import type { Clock } from '../../clock.js';
import type { Operation } from '../../platform/execute.js';
import { analyzeDelivery } from './analysis.js';
import type { DeliveryAi } from './delivery-ai.js';
import { detectCarriers } from './carrier-detect.js';
import { AUTO_CARRIER, deliveryTrackSchema, type deliveryOutputSchema } from './delivery.schema.js';
import type { HolidayCalendar } from './holidays.js';
import type { TrackingService } from './tracking-service.js';
import type { z } from 'zod';

export interface DeliveryDeps {
  tracking: TrackingService;
  ai: DeliveryAi;
  calendar: HolidayCalendar;
  clock: Clock;
}

/** `z.output` of its schema (delivery.schema.ts). */
export type DeliveryOutput = z.output<typeof deliveryOutputSchema>;

/**
 * Parcel tracking (SPEC §7): the lookup through the shared cache and the rate-limited
 * tracker; with `ai`, a delay/arrival analysis and a message for the courier (LLM, or the
 * rule-based analysis and templates); with `ai` and no parcel, the message only.
 * 400 bad input or refused number, 404 unknown parcel, 429 TRACKER_BUSY and 502 refunded.
 */
export function createDeliveryOperation(deps: DeliveryDeps): Operation<typeof deliveryTrackSchema, DeliveryOutput> {
  const { clock } = deps;
  return {
    api: 'delivery-tracking',
    schema: deliveryTrackSchema,
    async run(ctx, input) {
      if (!input.lookup) {
        const ai = await deps.ai.messageOnly(input.situation, input.tone, clock(), ctx.logger);
        return { carrier: null, state: null, progresses: [], ai_analysis: null, recommend_message: ai.recommend_message };
      }
      const { carrierId, trackId } = input.lookup;
      const parcel =
        carrierId === AUTO_CARRIER
          ? await deps.tracking.trackDetected(detectCarriers(trackId), trackId, { logger: ctx.logger })
          : await deps.tracking.track(carrierId, trackId, { logger: ctx.logger });
      const result = { carrier: parcel.carrier, state: parcel.state, progresses: parcel.progresses };
      const base: DeliveryOutput = { ...result, ai_analysis: null, recommend_message: null };
      if (!input.ai) return base;
      const analysis = analyzeDelivery(result, clock(), deps.calendar);
      const ai = await deps.ai.forLookup(result, analysis, input.situation, input.tone, ctx.logger);
      ctx.logger.debug({ source: parcel.source, aiSource: ai.source, events: result.progresses.length }, 'delivery lookup');
      return { ...base, ai_analysis: ai.ai_analysis, recommend_message: ai.recommend_message };
    },
  };
}
