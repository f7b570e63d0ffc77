import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { deliveryDurations } from '../../../db/schema.js';
import type { Clock } from '../../clock.js';
import type { HolidayCalendar } from './holidays.js';
import { seoulHour, workingHoursBetween } from '../../seoul-time.js';
import { placeKindOf, type DurationSample } from './durations.js';
import type { Progress, TrackingResult } from './tracking-result.js';

/** Samples older than this are not used (carriers change their networks). */
export const HISTORY_WINDOW_MS = 365 * 24 * 3600_000;
/** The newest samples read for one question: enough for quantiles, bounded in cost. */
const MAX_SAMPLES = 2000;
/** Events of one parcel recorded at most. */
const MAX_EVENTS = 60;

type Timed = Progress & { time: string };

/**
 * The service's own history of watched parcels, anonymous: when a watched parcel is delivered,
 * each of its steps is stored as durations only (to the delivery, and to the next step) with the
 * carrier, the step's status, the kind of place and the Seoul hour; no number, account or place name.
 */
export function createDeliveryHistory(deps: { db: Database; clock: Clock; calendar: HolidayCalendar }) {
  const t = deliveryDurations;

  async function samples(kind: 'to_delivery' | 'to_next', carrierId: string, statusId: string): Promise<DurationSample[]> {
    const since = new Date(deps.clock().getTime() - HISTORY_WINDOW_MS);
    return deps.db
      .select({ placeKind: t.placeKind, hour: t.hour, hours: t.hours, workingHours: t.workingHours })
      .from(t)
      .where(and(eq(t.kind, kind), eq(t.carrierId, carrierId), eq(t.statusId, statusId), gte(t.recordedAt, since)))
      .orderBy(desc(t.recordedAt))
      .limit(MAX_SAMPLES);
  }

  return {
    /** Stores a delivered parcel's steps (nothing for a parcel without a timed delivery event). Returns the rows written. */
    async recordDelivered(result: TrackingResult): Promise<number> {
      const timed = result.progresses.filter((progress): progress is Timed => progress.time !== null).slice(-MAX_EVENTS);
      const deliveredIndex = timed.findIndex((progress) => progress.status.id === 'delivered');
      if (deliveredIndex <= 0) return 0;
      const deliveredAt = new Date(timed[deliveredIndex]!.time);
      const recordedAt = deps.clock();
      const rows = timed.slice(0, deliveredIndex).flatMap((progress, index) => {
        const at = new Date(progress.time);
        const next = new Date(timed[index + 1]!.time);
        const base = {
          carrierId: result.carrier.id,
          statusId: progress.status.id,
          placeKind: placeKindOf(progress.location.name),
          hour: seoulHour(at),
          recordedAt,
        };
        return [
          {
            ...base,
            kind: 'to_delivery',
            hours: hoursBetween(at, deliveredAt),
            workingHours: workingHoursBetween(at, deliveredAt, deps.calendar),
          },
          { ...base, kind: 'to_next', hours: hoursBetween(at, next), workingHours: workingHoursBetween(at, next, deps.calendar) },
        ];
      });
      const kept = rows.filter((row) => row.hours >= 0);
      if (kept.length > 0) await deps.db.insert(t).values(kept);
      return kept.length;
    },

    /** Past steps of this carrier and status, newest first. */
    toDelivery: (carrierId: string, statusId: string) => samples('to_delivery', carrierId, statusId),
    toNext: (carrierId: string, statusId: string) => samples('to_next', carrierId, statusId),

    /** Housekeeping: samples past the window. */
    async prune(): Promise<number> {
      const before = new Date(deps.clock().getTime() - HISTORY_WINDOW_MS);
      const rows = await deps.db.delete(t).where(lt(t.recordedAt, before)).returning({ id: t.id });
      return rows.length;
    },

    /** Tests and the evaluation: how many samples are stored. */
    async count(): Promise<number> {
      const [row] = await deps.db.select({ n: sql<number>`count(*)::int` }).from(t);
      return Number(row?.n ?? 0);
    },
  };
}

export type DeliveryHistory = ReturnType<typeof createDeliveryHistory>;

function hoursBetween(from: Date, to: Date): number {
  return (to.getTime() - from.getTime()) / 3600_000;
}
