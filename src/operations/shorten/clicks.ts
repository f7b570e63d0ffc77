import { sql } from 'drizzle-orm';
import { isbot } from 'isbot';
import type { Database } from '../../../db/client.js';
import { linkClicks } from '../../../db/schema.js';
import type { Logger } from '../../logger.js';
import { systemClock, type Clock } from '../../clock.js';
import { boundedCache } from '../../bounded-cache.js';

export interface ClickInfo {
  linkId: number;
  referrer?: string | undefined;
  userAgent?: string | undefined;
  /** Issue 36: the visitor's address (country, unique visitors; never stored) and the QR marker. */
  ip?: string | undefined;
  qr?: boolean;
}

export interface AgentClass {
  agentClass: 'desktop' | 'mobile' | 'tablet' | 'bot' | 'other';
  isBot: boolean;
}

/** desktop | mobile | tablet | bot | other, from the User-Agent header alone. */
export function classifyAgent(userAgent: string | undefined): AgentClass {
  if (!userAgent) return { agentClass: 'other', isBot: true }; // browsers always send one
  if (isbot(userAgent)) return { agentClass: 'bot', isBot: true };
  if (/iPad|Tablet|Android(?!.*Mobile)/i.test(userAgent)) return { agentClass: 'tablet', isBot: false };
  if (/Mobi|iPhone|Android/i.test(userAgent)) return { agentClass: 'mobile', isBot: false };
  if (/Windows|Macintosh|X11|Linux|CrOS/i.test(userAgent)) return { agentClass: 'desktop', isBot: false };
  return { agentClass: 'other', isBot: false };
}

function referrerHost(referrer: string | undefined): string {
  if (!referrer || !URL.canParse(referrer)) return '';
  return new URL(referrer).hostname;
}

interface PendingCount {
  linkId: number;
  minute: Date;
  referrerHost: string;
  agentClass: string;
  isBot: boolean;
  clicks: number;
}

/** Distinct rollup rows one link may get per hour (minute × referrer × agent); the rest are pooled. */
export const MAX_CLICK_ROWS_PER_LINK_HOUR = 60;
/** Referrer host of the pooled row: clicks beyond the budget, still counted in the totals. */
export const OTHER_REFERRER = '(other)';

/**
 * Clicks are counted in memory after the redirect is answered and written as per-minute
 * rollups once a second: the redirect never waits on the database, and ten thousand clicks on
 * one link become one upsert.
 *
 * Anyone may click, with any Referer and User-Agent: each link gets at most
 * MAX_CLICK_ROWS_PER_LINK_HOUR distinct rows per hour (per instance); further combinations
 * are pooled into one row at the hour's start with referrer `(other)`, so the table grows with
 * time and links, never with what a visitor makes up. Totals and daily counts stay exact.
 */
export function createClickRecorder(
  db: Database,
  logger: Logger,
  options: { clock?: Clock; flushIntervalMs?: number; maxKeys?: number; maxRowsPerLinkHour?: number } = {},
) {
  // The runtime's clock, as the facets' Seoul days use: the daily series and its QR scans must agree.
  const clock = options.clock ?? systemClock;
  const maxKeys = options.maxKeys ?? 50_000;
  const rowBudget = options.maxRowsPerLinkHour ?? MAX_CLICK_ROWS_PER_LINK_HOUR;
  /** Rollup keys already used per link and hour. */
  const usedKeys = boundedCache<string, Set<string>>(20_000);
  // User agents repeat; isbot's pattern is large, so classify each distinct one once.
  const agents = boundedCache<string, AgentClass>(5_000);
  let pending = new Map<string, PendingCount>();
  let flushing: Promise<void> = Promise.resolve();
  let dropped = 0;

  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 1000);
  timer.unref();

  function classify(userAgent: string | undefined): AgentClass {
    if (!userAgent) return classifyAgent(userAgent);
    let known = agents.get(userAgent);
    if (!known) agents.set(userAgent, (known = classifyAgent(userAgent)));
    return known;
  }

  async function write(counts: PendingCount[]): Promise<void> {
    for (let i = 0; i < counts.length; i += 1000) {
      const batch = counts.slice(i, i + 1000);
      try {
        await db
          .insert(linkClicks)
          .values(batch)
          .onConflictDoUpdate({
            target: [linkClicks.linkId, linkClicks.minute, linkClicks.referrerHost, linkClicks.agentClass, linkClicks.isBot],
            set: { clicks: sql`${linkClicks.clicks} + excluded.clicks` },
          });
      } catch (error) {
        // Statistics are best effort: losing a batch must not take the redirect down.
        logger.warn({ err: error, rows: batch.length }, 'click counts not recorded');
      }
    }
  }

  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      if (pending.size > 0) {
        const counts = [...pending.values()];
        pending = new Map();
        await write(counts);
      }
      if (dropped > 0) {
        logger.warn({ dropped }, 'clicks dropped: too many distinct click keys pending');
        dropped = 0;
      }
    });
    return flushing;
  }

  return {
    record(click: ClickInfo): void {
      const nowMs = clock().getTime();
      let minute = new Date(Math.floor(nowMs / 60_000) * 60_000);
      let host = referrerHost(click.referrer);
      const agent = classify(click.userAgent);
      let agentClass: string = agent.agentClass;
      const isBot = agent.isBot;
      let key = `${click.linkId}|${minute.getTime()}|${host}|${agentClass}|${isBot}`;
      const hour = Math.floor(nowMs / 3_600_000) * 3_600_000;
      const budgetKey = `${click.linkId}|${hour}`;
      let used = usedKeys.get(budgetKey);
      if (!used) usedKeys.set(budgetKey, (used = new Set()));
      if (!used.has(key)) {
        if (used.size < rowBudget) {
          used.add(key);
        } else {
          minute = new Date(hour);
          host = OTHER_REFERRER;
          agentClass = 'other';
          key = `${click.linkId}|${hour}|${host}|${agentClass}|${isBot}`;
        }
      }
      const existing = pending.get(key);
      if (existing) {
        existing.clicks++;
      } else if (pending.size < maxKeys) {
        pending.set(key, { linkId: click.linkId, minute, referrerHost: host, agentClass, isBot, clicks: 1 });
      } else {
        dropped++;
      }
    },
    flush,
    async stop(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}

export type ClickRecorder = ReturnType<typeof createClickRecorder>;
