import { DEFAULT_MAX_FEED_BYTES } from './feed-lines.js';

export interface DownloadOptions {
  fetch?: typeof fetch;
  /** Per attempt. */
  timeoutMs?: number;
  attempts?: number;
  /** A feed bigger than this is refused (public lists are tens of MB at most). */
  maxBytes?: number;
  /** Aborts the download (the service is stopping). */
  signal?: AbortSignal;
  /** Waits between attempts (tests pass a no-op). */
  sleep?: (ms: number) => Promise<void>;
}

/** A download error a retry cannot fix (404, too big…). */
class PermanentError extends Error {}

/** The same cap applies to the inflated text (feed-lines.ts). */
const DEFAULT_MAX_BYTES = DEFAULT_MAX_FEED_BYTES;

/**
 * Downloads a feed body with retries. A connection reset mid-way resumes with a `Range`
 * request when the server offered byte ranges (guarded by `If-Range`, so a list that changed
 * in between is fetched whole again); otherwise the next attempt starts over.
 */
export async function downloadFeed(url: string, options: DownloadOptions = {}): Promise<Buffer> {
  const doFetch = options.fetch ?? fetch;
  const attempts = options.attempts ?? 3;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let chunks: Buffer[] = [];
  let received = 0;
  let validator: string | undefined;
  for (let attempt = 1; ; attempt++) {
    const resuming = received > 0 && validator !== undefined;
    try {
      const response = await doFetch(url, {
        headers: resuming ? { range: `bytes=${received}-`, 'if-range': validator ?? '' } : {},
        signal: options.signal
          ? AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs ?? 120_000)])
          : AbortSignal.timeout(options.timeoutMs ?? 120_000),
      });
      if (!response.ok) {
        const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
        await response.body?.cancel();
        throw retryable ? new Error(`HTTP ${response.status}`) : new PermanentError(`HTTP ${response.status}`);
      }
      if (response.status !== 206 || !resuming) {
        chunks = [];
        received = 0;
        const ranges = response.headers.get('accept-ranges') === 'bytes';
        validator = ranges ? (response.headers.get('etag') ?? response.headers.get('last-modified') ?? undefined) : undefined;
      }
      if (!response.body) return Buffer.alloc(0);
      for await (const chunk of response.body) {
        const buffer = Buffer.from(chunk as Uint8Array);
        received += buffer.length;
        if (received > maxBytes) throw new PermanentError(`the feed is larger than ${Math.round(maxBytes / 1e6)} MB`);
        chunks.push(buffer);
      }
      return Buffer.concat(chunks);
    } catch (error) {
      if (error instanceof PermanentError || attempt >= attempts || options.signal?.aborted) throw error;
      await sleep(1000 * 2 ** (attempt - 1));
    }
  }
}
