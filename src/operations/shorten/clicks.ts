import { isbot } from 'isbot';
import type { Database } from '../../../db/client.js';
import { linkClicks } from '../../../db/schema.js';
import type { Logger } from '../../logger.js';

export interface ClickInfo {
  linkId: number;
  referrer?: string | undefined;
  userAgent?: string | undefined;
}

type ClickRow = typeof linkClicks.$inferInsert;

/** desktop | mobile | tablet | bot | other, from the User-Agent header alone. */
export function classifyAgent(userAgent: string | undefined): { agentClass: string; isBot: boolean } {
  if (!userAgent) return { agentClass: 'other', isBot: true };
  if (isbot(userAgent)) return { agentClass: 'bot', isBot: true };
  if (/iPad|Tablet|Android(?!.*Mobile)/i.test(userAgent)) return { agentClass: 'tablet', isBot: false };
  if (/Mobi|iPhone|Android/i.test(userAgent)) return { agentClass: 'mobile', isBot: false };
  if (/Windows|Macintosh|X11|Linux|CrOS/i.test(userAgent)) return { agentClass: 'desktop', isBot: false };
  return { agentClass: 'other', isBot: false };
}

function referrerHost(referrer: string | undefined): string | null {
  if (!referrer || !URL.canParse(referrer)) return null;
  return new URL(referrer).hostname || null;
}

/**
 * Clicks are recorded after the redirect is answered, in batches: the redirect never waits
 * on a database write, and a burst becomes one multi-row insert instead of thousands.
 */
export function createClickRecorder(
  db: Database,
  logger: Logger,
  options: { flushIntervalMs?: number; maxBatch?: number; maxBuffered?: number } = {},
) {
  const maxBatch = options.maxBatch ?? 1000;
  const maxBuffered = options.maxBuffered ?? 100_000;
  let buffer: ClickRow[] = [];
  let flushing: Promise<void> = Promise.resolve();
  let dropped = 0;

  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 1000);
  timer.unref();

  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      while (buffer.length > 0) {
        const batch = buffer.splice(0, maxBatch);
        try {
          await db.insert(linkClicks).values(batch);
        } catch (error) {
          // Statistics are best effort: losing a batch must not take the redirect down.
          logger.warn({ err: error, clicks: batch.length }, 'click batch not recorded');
        }
      }
      if (dropped > 0) {
        logger.warn({ dropped }, 'clicks dropped: buffer full');
        dropped = 0;
      }
    });
    return flushing;
  }

  return {
    record(click: ClickInfo): void {
      if (buffer.length >= maxBuffered) {
        dropped++;
        return;
      }
      const { agentClass, isBot } = classifyAgent(click.userAgent);
      buffer.push({ linkId: click.linkId, clickedAt: new Date(), referrerHost: referrerHost(click.referrer), agentClass, isBot });
      if (buffer.length >= maxBatch) void flush();
    },
    flush,
    async stop(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}

export type ClickRecorder = ReturnType<typeof createClickRecorder>;
