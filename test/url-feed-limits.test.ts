import { gzipSync } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import { detectEncoding, FeedTooLargeError, MAX_LINE_BYTES } from '../src/operations/url-detect/lists/feed-lines.js';
import { parseFeed, parseFeedAsync, withoutTrailingComment, type FeedFormat } from '../src/operations/url-detect/lists/feed-parse.js';

/**
 * Hostile feeds (issue 33 item 1): a feed can never freeze or exhaust the service. Nothing here
 * times anything: the quadratic case is made linear by construction (a byte scan), and the
 * event-loop delay is a bench figure (bench/url-feed-limits.bench.ts).
 */
const FORMATS: FeedFormat[] = ['hosts', 'domains', 'urls', 'adblock', 'csv'];

describe('feed parser limits', () => {
  it('a line of 60,000 blanks between two entries is read in every format, the entries around it kept', async () => {
    for (const format of FORMATS) {
      const body = Buffer.from(`good-one.example\na${' '.repeat(60_000)}b #\ngood-two.example\n`);
      const parsed = await parseFeedAsync(body, format);
      const expected = format === 'hosts' ? ['=good-one.example/', '=good-two.example/'] : ['good-one.example/', 'good-two.example/'];
      expect([...parsed.entries].sort(), format).toEqual(expected);
      // Longer than a line may be: dropped unread and counted.
      expect(parsed.tooLong, format).toBe(1);
    }
  });

  it('blanks before a comment under the line cap are stripped in one scan', () => {
    const line = `spam-host.example${' '.repeat(MAX_LINE_BYTES - 40)}# note`;
    expect(withoutTrailingComment(line)).toBe('spam-host.example');
    expect(withoutTrailingComment('a.example#not-a-comment')).toBe('a.example#not-a-comment');
    expect([...parseFeed(Buffer.from(`${line}\n`), 'domains').entries]).toEqual(['spam-host.example/']);
  });

  it('128 KB lines are skipped and counted, never decoded; lines after them are read', async () => {
    const long = `${'a'.repeat(128 * 1024)}.example`;
    const body = Buffer.from(`${long}\nkept.example\n${long}\r\n${long}`);
    const parsed = await parseFeedAsync(body, 'domains');
    expect([...parsed.entries]).toEqual(['kept.example/']);
    expect(parsed.tooLong).toBe(3);
    expect(parsed.skipped).toBe(0);
  });

  it('a line exactly at the cap is read; one byte more is not', async () => {
    const host = (length: number) => `${'b'.repeat(length - '.example'.length)}.example`;
    const atCap = await parseFeedAsync(Buffer.from(`${host(MAX_LINE_BYTES)}\n`), 'hosts');
    expect(atCap.tooLong).toBe(0);
    const over = await parseFeedAsync(Buffer.from(`${host(MAX_LINE_BYTES + 1)}\n`), 'hosts');
    expect(over.tooLong).toBe(1);
  });

  it('a gzip bomb is refused once its inflated bytes pass the cap, before it is all inflated', async () => {
    // 64 MB of zeros compresses to about 64 KB; a 1 MB cap stops it at the first MB.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(128 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    await expect(parseFeedAsync(bomb, 'domains', 1024 * 1024)).rejects.toBeInstanceOf(FeedTooLargeError);
    // Not a timing or exact-memory assertion: the 64 MB were never held at once.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(32 * 1024 * 1024);
    expect(() => parseFeed(bomb, 'domains', 1024 * 1024)).toThrow();
  });

  it('an uncompressed body over the cap is refused too; a gzip body under it is read', async () => {
    await expect(parseFeedAsync(Buffer.from('x.example\n'.repeat(1000)), 'domains', 1000)).rejects.toBeInstanceOf(FeedTooLargeError);
    const parsed = await parseFeedAsync(gzipSync('one.example\ntwo.example\n'), 'domains', 1000);
    expect(parsed.entries.size).toBe(2);
  });

  it('lines split across inflated chunks and slices are joined (a big gzip feed)', async () => {
    const hosts = Array.from({ length: 30_000 }, (_, i) => `host-${i}.example`);
    const parsed = await parseFeedAsync(gzipSync(hosts.join('\n')), 'domains');
    expect(parsed.entries.size).toBe(30_000);
    expect(parsed.skipped + parsed.tooLong).toBe(0);
  });

  it('looks for line ends once over a body of many lines, with or without \\r (no scan to its end per line)', () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `host-${i}.example`);
    for (const body of [Buffer.from(lines.join('\n')), Buffer.from(lines.join('\r\n')), Buffer.from(lines.join('\r'))]) {
      const indexOf = Buffer.prototype.indexOf;
      let scanned = 0;
      const spy = vi.spyOn(Buffer.prototype, 'indexOf').mockImplementation(function (this: Buffer, value, from, encoding) {
        const at = indexOf.call(this, value, from, encoding);
        scanned += (at === -1 ? this.length : at) - (typeof from === 'number' ? from : 0);
        return at;
      });
      try {
        expect(parseFeed(body, 'domains').entries.size).toBe(20_000);
      } finally {
        spy.mockRestore();
      }
      // Both kinds of break are searched: each byte at most twice. Searching for a `\r` from each
      // line of a body without one scanned 20,000 times its remainder.
      expect(scanned).toBeLessThanOrEqual(2 * body.length);
    }
  });

  it('reads UTF-8 with or without a BOM, and CP949 (euc-kr) bodies', () => {
    expect(detectEncoding(Buffer.from('\uFEFF날짜', 'utf8'))).toBe('utf8');
    expect(detectEncoding(Buffer.from('홈페이지주소', 'utf8'))).toBe('utf8');
    // A multi-byte character cut at the end of the probe is still UTF-8.
    expect(detectEncoding(Buffer.from('주소', 'utf8').subarray(0, 4))).toBe('utf8');
    // `홈페이지` in CP949.
    expect(detectEncoding(Buffer.from([0xc8, 0xa8, 0xc6, 0xe4, 0xc0, 0xcc, 0xc1, 0xf6]))).toBe('euc-kr');
  });
});
