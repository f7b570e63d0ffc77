import { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { createGunzip } from 'node:zlib';

/**
 * Turning a feed body into lines without ever letting one feed freeze or exhaust the service:
 * - inflated bytes are counted as they come out of gzip and refused past the download cap
 *   (a 1.5 MB bomb never becomes 1.5 GB in memory);
 * - a line longer than `MAX_LINE_BYTES` is dropped as its bytes go by (never decoded, never
 *   held) and counted;
 * - the text is handed on in slices, with a turn of the event loop between two slices, so a
 *   refresh never holds requests (or `/healthz`) for more than a few milliseconds.
 * Every step is a byte scan: nothing here can go quadratic on a hostile line.
 */

/** Feed lines are host names and URLs: real ones stay far below this (phishing kits' query strings included). */
export const MAX_LINE_BYTES = 4096;
/** Bytes a feed may hold, downloaded and once inflated (public lists are tens of MB at most). */
export const DEFAULT_MAX_FEED_BYTES = 256 * 1024 * 1024;
/** Text handed to the line parser between two turns of the event loop. */
const SLICE_BYTES = 16 * 1024;

/** The body inflates (or is) larger than the cap; the feed is refused and keeps its previous entries. */
export class FeedTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the feed is larger than ${Math.round(limitBytes / 1e6)} MB once inflated`);
    this.name = 'FeedTooLargeError';
  }
}

export interface LineCallbacks {
  line(text: string): void;
  /** A line longer than `MAX_LINE_BYTES` was dropped. */
  tooLong(): void;
}

export type FeedEncoding = 'utf8' | 'euc-kr';

/**
 * The encoding of a body from its first bytes: a BOM or valid UTF-8 is UTF-8; anything else is
 * read as CP949 (WHATWG `euc-kr`, which is Microsoft's code page 949: what Korean spreadsheets
 * export). A cut multi-byte character at the end of the probe is not held against UTF-8.
 */
export function detectEncoding(head: Uint8Array): FeedEncoding {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf8';
  let end = head.length;
  // Step back over an incomplete trailing sequence (at most 3 continuation bytes and a lead).
  for (let back = 0; back < 4 && end > 0 && (head[end - 1]! & 0xc0) === 0x80; back++) end--;
  if (end > 0 && head[end - 1]! >= 0xc0) end--;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
    return 'utf8';
  } catch {
    return 'euc-kr';
  }
}

const pause = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Splits a stream of bytes into lines (`\n`, `\r\n` or `\r`), holding at most one line's
 * bytes between chunks.
 */
class LineSplitter {
  private carry: Buffer[] = [];
  private carryBytes = 0;
  /** Inside a line already known to be too long: its bytes are dropped up to the next newline. */
  private dropping = false;
  private decoder: TextDecoder | undefined;
  private encoding: FeedEncoding | undefined;
  private started = false;

  constructor(private readonly callbacks: LineCallbacks) {}

  push(chunk: Buffer): void {
    if (!this.started) {
      this.started = true;
      this.encoding = detectEncoding(chunk.subarray(0, 64 * 1024));
      if (this.encoding !== 'utf8') this.decoder = new TextDecoder(this.encoding);
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) chunk = chunk.subarray(3);
    }
    const breaks = new LineBreaks(chunk);
    let start = 0;
    while (start < chunk.length) {
      const end = breaks.next(start);
      if (end === -1) {
        this.hold(chunk.subarray(start));
        return;
      }
      this.hold(chunk.subarray(start, end));
      this.flush();
      start = end + 1;
    }
  }

  end(): void {
    this.flush();
  }

  private hold(part: Buffer): void {
    if (this.dropping || part.length === 0) return;
    if (this.carryBytes + part.length > MAX_LINE_BYTES) {
      this.dropping = true;
      this.carry = [];
      this.carryBytes = 0;
      return;
    }
    this.carry.push(part);
    this.carryBytes += part.length;
  }

  private flush(): void {
    if (this.dropping) {
      this.dropping = false;
      this.callbacks.tooLong();
      return;
    }
    if (this.carryBytes === 0) return;
    const bytes = this.carry.length === 1 ? this.carry[0]! : Buffer.concat(this.carry, this.carryBytes);
    this.carry = [];
    this.carryBytes = 0;
    this.callbacks.line(this.decoder ? this.decoder.decode(bytes) : bytes.toString('utf8'));
  }
}

/**
 * Where lines end in one chunk: `\n`, and a lone `\r` too (old Mac exports; `\r\n` leaves an empty
 * line, which is skipped). Each kind's next position is kept until a line passes it, so the
 * chunk is scanned once whatever its lines: searching again from every line for a `\r` the body
 * does not contain read the rest of the chunk once per line.
 */
class LineBreaks {
  private lf: number;
  private cr: number;

  constructor(private readonly chunk: Buffer) {
    this.lf = chunk.indexOf(0x0a);
    this.cr = chunk.indexOf(0x0d);
  }

  /** The first line break at or after `from`, or -1. */
  next(from: number): number {
    if (this.lf !== -1 && this.lf < from) this.lf = this.chunk.indexOf(0x0a, from);
    if (this.cr !== -1 && this.cr < from) this.cr = this.chunk.indexOf(0x0d, from);
    if (this.cr === -1) return this.lf;
    return this.lf === -1 ? this.cr : Math.min(this.cr, this.lf);
  }
}

/**
 * Feeds a body's lines to `callbacks`, inflating gzip (recognised by its bytes) as a stream
 * and stopping with `FeedTooLargeError` once more than `maxBytes` come out.
 */
export async function forEachFeedLine(body: Buffer, maxBytes: number, callbacks: LineCallbacks): Promise<void> {
  const splitter = new LineSplitter(callbacks);
  if (body[0] === 0x1f && body[1] === 0x8b) {
    const inflate = createGunzip({ chunkSize: SLICE_BYTES });
    const source = Readable.from([body]).pipe(inflate);
    let inflated = 0;
    try {
      for await (const chunk of source as AsyncIterable<Buffer>) {
        inflated += chunk.length;
        if (inflated > maxBytes) throw new FeedTooLargeError(maxBytes);
        splitter.push(chunk);
        await pause();
      }
    } finally {
      inflate.destroy();
    }
  } else {
    if (body.length > maxBytes) throw new FeedTooLargeError(maxBytes);
    for (let at = 0; at < body.length; at += SLICE_BYTES) {
      splitter.push(body.subarray(at, Math.min(body.length, at + SLICE_BYTES)));
      await pause();
    }
  }
  splitter.end();
}

/** The same, synchronously, for small bodies already in memory (tests, the evaluation). */
export function forEachFeedLineSync(body: Buffer, callbacks: LineCallbacks, inflateSync: (body: Buffer) => Buffer): void {
  const raw = body[0] === 0x1f && body[1] === 0x8b ? inflateSync(body) : body;
  const splitter = new LineSplitter(callbacks);
  splitter.push(raw);
  splitter.end();
}
