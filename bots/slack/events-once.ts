import type { Middleware, AnyMiddlewareArgs } from '@slack/bolt';
import type { Logger } from '../../src/logger.js';
import type { BotEventClaims } from '../../src/platform/bot-event-store.js';

/** The envelope fields of an Events API delivery (HTTP body or Socket Mode payload). */
interface EventEnvelope {
  type?: unknown;
  event_id?: unknown;
  api_app_id?: unknown;
  team_id?: unknown;
  enterprise_id?: unknown;
}

/**
 * Bolt's first global middleware: every Events API delivery (DM texts and images, guarded
 * channels' messages, `link_shared`, mentions) is claimed in the database before any listener
 * runs, so Slack's retry of an event (same `event_id`, `X-Slack-Retry-Num`) is not handled
 * again, on this instance or another on the same database. Bolt has already acknowledged an
 * event (200) when global middleware runs, so a retry is answered at once either way. Slash
 * commands and interactions carry no event id: they pass untouched.
 */
export function onceEachEvent(claims: BotEventClaims, logger: Logger): Middleware<AnyMiddlewareArgs> {
  return async ({ body, context, next }) => {
    const envelope = body as EventEnvelope;
    if (envelope.type !== 'event_callback' || typeof envelope.event_id !== 'string') return next();
    const key = {
      platform: 'slack' as const,
      appId: typeof envelope.api_app_id === 'string' ? envelope.api_app_id : '-',
      workspaceId: String(envelope.team_id ?? envelope.enterprise_id ?? context.teamId ?? '-'),
      eventId: envelope.event_id,
    };
    let first: boolean;
    try {
      first = await claims.claim(key);
    } catch (error) {
      // Every listener needs the database too (links, guarded channels): without it nothing could be answered.
      logger.warn({ err: error, eventId: key.eventId }, 'slack event not claimed (database unavailable): not handled');
      return;
    }
    if (!first) {
      logger.info(
        { eventId: key.eventId, retryNum: context.retryNum, retryReason: context.retryReason },
        'slack event seen before: skipped',
      );
      return;
    }
    await next();
  };
}
