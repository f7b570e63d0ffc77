import { isRetryable, retryAfterMs } from './llm-errors.js';

/** Longest wait we accept between attempts; an upstream asking for more is failed at once. */
const MAX_WAIT_MS = 5_000;

/**
 * Bounded retries with exponential backoff and jitter, for 429 and 5xx answers only:
 * a timeout or a refused connection is not retried (the caller already waited, or the
 * server is down).
 */
export function createRetrier(options: { maxRetries: number; baseDelayMs: number }) {
  return async function retry<T>(attempt: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (error) {
        if (tries >= options.maxRetries || !isRetryable(error)) throw error;
        const asked = retryAfterMs(error);
        if (asked !== undefined && asked > MAX_WAIT_MS) throw error;
        const backoff = options.baseDelayMs * 2 ** tries * (1 + Math.random() / 2);
        await new Promise((resolve) => setTimeout(resolve, Math.min(asked ?? backoff, MAX_WAIT_MS)));
      }
    }
  };
}
