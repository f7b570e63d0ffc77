import type { Clock } from '../../clock.js';
import type { Operation } from '../../platform/execute.js';
import { analyzeDelivery } from './analysis.js';
import type { DeliveryAi } from './delivery-ai.js';
import { detectCarriers } from './carrier-detect.js';
import type { CarrierCorrections } from './correction-store.js';
import { estimateArrival, type EstimatedArrival } from './estimate.js';
import type { DeliveryHistory } from './history-store.js';
import { AUTO_CARRIER, deliveryTrackSchema, type deliveryOutputSchema } from './delivery.schema.js';
import type { HolidayCalendar } from './holidays.js';
import type { TrackingService } from './tracking-service.js';
import type { z } from 'zod';

export interface DeliveryDeps {
  tracking: TrackingService;
  ai: DeliveryAi;
  calendar: HolidayCalendar;
  clock: Clock;
  history: DeliveryHistory;
  corrections: CarrierCorrections;
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
      const scope = ctx.workspace ?? `account:${ctx.account.id}`;
      let candidates: DeliveryOutput['carrier_candidates'];
      let parcel;
      if (carrierId === AUTO_CARRIER) {
        const remembered = await deps.corrections.get(scope, trackId);
        const detected = await deps.tracking.detect(trackId, { logger: ctx.logger, remembered });
        parcel = detected.parcel;
        candidates = detected.candidates;
      } else {
        parcel = await deps.tracking.track(carrierId, trackId, { logger: ctx.logger });
        // A carrier named for a number that detection would have guessed otherwise is remembered for this workspace.
        if (detectCarriers(trackId)[0] !== carrierId) {
          await deps.corrections.put(scope, trackId, carrierId).catch((error: unknown) => {
            ctx.logger.warn({ err: error }, 'carrier correction not stored');
          });
        }
      }
      const result = { carrier: parcel.carrier, state: parcel.state, progresses: parcel.progresses };
      const analysis = analyzeDelivery(result, clock(), deps.calendar);
      const estimate = await estimateFor(deps, result, analysis.expectedDate, ctx.logger);
      // The analysis (rule text and the LLM's input) uses the history's date, not the rule's guess.
      if (estimate) analysis.expectedDate = estimate.date;
      const base: DeliveryOutput = {
        ...result,
        ai_analysis: null,
        recommend_message: null,
        estimated_arrival: estimate,
        ...(candidates ? { carrier_candidates: candidates } : {}),
      };
      if (!input.ai) return base;
      const ai = await deps.ai.forLookup(result, analysis, input.situation, input.tone, ctx.logger, estimate);
      ctx.logger.debug({ source: parcel.source, aiSource: ai.source, events: result.progresses.length }, 'delivery lookup');
      return { ...base, ai_analysis: ai.ai_analysis, recommend_message: ai.recommend_message };
    },
  };
}

/** The arrival estimate from the history (a failed history read falls back to the rule, `low`). */
export async function estimateFor(
  deps: Pick<DeliveryDeps, 'history' | 'clock' | 'calendar'>,
  result: Parameters<typeof estimateArrival>[0]['result'],
  ruleDate: string | undefined,
  logger: { warn: (obj: object, msg: string) => void },
): Promise<EstimatedArrival | null> {
  const last = result.progresses.at(-1);
  const samples = last
    ? await deps.history.toDelivery(result.carrier.id, last.status.id).catch((error: unknown) => {
        logger.warn({ err: error }, 'delivery history not read');
        return [];
      })
    : [];
  return estimateArrival({ result, now: deps.clock(), calendar: deps.calendar, samples, ruleDate });
}
