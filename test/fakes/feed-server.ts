import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the feed server saw: its path and `Range` header. */
export interface FeedRequest {
  path: string;
  range: string | undefined;
}

export interface FakeFeedServer {
  url: string;
  seen: FeedRequest[];
  close(): Promise<void>;
}

/**
 * A harmful-URL feed host that behaves like GitHub raw / abuse.ch: `ETag`, `Accept-Ranges` and
 * 206 answers to `Range` with a matching `If-Range`, bodies served as the bytes given (gzip
 * included), 500 for an unknown path. A `flaky` path drops its connection after 40 bytes the first
 * time it is asked for, so the client must resume from there.
 */
export async function startFakeFeedServer(files: Record<string, Buffer>, options: { flaky?: string[] } = {}): Promise<FakeFeedServer> {
  const seen: FeedRequest[] = [];
  const resets = new Set<string>();
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    seen.push({ path, range: req.headers.range });
    const body = files[path];
    if (!body) return void res.writeHead(500).end('broken');
    const etag = `"${body.length}"`;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range && req.headers['if-range'] === etag) {
      const start = Number(range[1]);
      res.writeHead(206, {
        'content-range': `bytes ${start}-${body.length - 1}/${body.length}`,
        'content-length': body.length - start,
        etag,
      });
      return void res.end(body.subarray(start));
    }
    res.writeHead(200, { 'content-length': body.length, 'accept-ranges': 'bytes', etag });
    if (options.flaky?.includes(path) && !resets.has(path)) {
      resets.add(path);
      // Part of the body, then the connection drops.
      res.write(body.subarray(0, 40));
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
