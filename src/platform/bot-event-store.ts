import { and, inArray, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { botEvents } from '../../db/schema.js';
import type { BotPlatform } from './workspace-links.js';

/**
 * How long a handled event is remembered. Slack retries a lost event three times, the last about
 * five minutes after the first delivery; an hour covers that with room for a slow delivery.
 */
export const EVENT_MEMORY_MS = 60 * 60 * 1000;
/** Rows deleted per statement by housekeeping, and statements per round: each round stays bounded. */
const PURGE_BATCH = 5_000;
const PURGE_BATCHES_PER_ROUND = 20;

/** One chat event as the platform names it: event ids are unique per app and workspace. */
export interface BotEventKey {
  platform: BotPlatform;
  appId: string;
  workspaceId: string;
  eventId: string;
}

/**
 * Claims of chat events (issue 47): the first delivery of an event, on whichever instance on
 * one database, wins one insert; a retry of it (same event id) finds the row and is not handled
 * again. A single statement, so two instances receiving the same event at once cannot both win.
 */
export function createBotEventClaims(db: Database, clock: () => Date = () => new Date()) {
  return {
    /** True for the first delivery of an event (within EVENT_MEMORY_MS), false for a repeat. */
    async claim(key: BotEventKey): Promise<boolean> {
      const now = clock();
      const expiresAt = new Date(now.getTime() + EVENT_MEMORY_MS);
      // A row whose time is over (housekeeping not yet run) is taken over, not counted as a repeat.
      const rows = await db
        .insert(botEvents)
        .values({ ...key, expiresAt })
        .onConflictDoUpdate({
          target: [botEvents.platform, botEvents.appId, botEvents.workspaceId, botEvents.eventId],
          set: { expiresAt },
          setWhere: sql`${botEvents.expiresAt} <= ${now.toISOString()}::timestamptz`,
        })
        .returning({ eventId: botEvents.eventId });
      return rows.length > 0;
    },

    /** Housekeeping: expired claims, a bounded batch at a time; returns how many went. */
    async purge(): Promise<number> {
      let removed = 0;
      for (let round = 0; round < PURGE_BATCHES_PER_ROUND; round++) {
        const expired = db
          .select({ eventId: botEvents.eventId })
          .from(botEvents)
          .where(lte(botEvents.expiresAt, clock()))
          .limit(PURGE_BATCH);
        // The expiry is asked again: a fresh claim of another app or workspace with the same id stays.
        const gone = await db
          .delete(botEvents)
          .where(and(inArray(botEvents.eventId, expired), lte(botEvents.expiresAt, clock())))
          .returning({ eventId: botEvents.eventId });
        removed += gone.length;
        if (gone.length < PURGE_BATCH) break;
      }
      return removed;
    },
  };
}

export type BotEventClaims = ReturnType<typeof createBotEventClaims>;
