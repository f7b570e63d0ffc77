import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyTooLargeError, cappedFetch, readCappedBody, readCappedText } from '../src/net/capped-body.js';

/** A server that streams without end (until the client goes away) and one that sends a fixed body. */
let server: Server;
let base = '';
let endlessClosed: Promise<void>;
beforeAll(async () => {
  let closed: () => void = () => {};
  endlessClosed = new Promise((resolve) => (closed = resolve));
  server = createServer((req, res) => {
    if (req.url === '/endless') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const push = () => {
        while (res.write(chunk));
      };
      res.on('drain', push);
      res.on('close', closed);
      push();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('안녕하세요');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('capped upstream bodies', () => {
  it('reads a body under the cap whole, as bytes or UTF-8 text', async () => {
    expect(await readCappedText((await fetch(`${base}/small`)).body, 1024)).toBe('안녕하세요');
    expect((await readCappedBody(Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 4)).toString()).toBe('abcd');
    expect((await readCappedBody(null, 10)).length).toBe(0);
  });

  it('stops an endless stream at the cap and closes the connection', async () => {
    const response = await fetch(`${base}/endless`);
    await expect(readCappedBody(response.body, 1024 * 1024)).rejects.toBeInstanceOf(BodyTooLargeError);
    await endlessClosed;
  });

  it('a capped fetch errors while the client reads past the cap', async () => {
    const response = await cappedFetch(256 * 1024)(`${base}/endless`);
    await expect(response.arrayBuffer()).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(await (await cappedFetch(100)(`${base}/small`)).text()).toBe('안녕하세요');
  });

  it('a declared length over the cap is refused before reading', async () => {
    const declared = new Response('x'.repeat(50), { headers: { 'content-length': '50' } });
    const fakeFetch = (async () => declared) as typeof fetch;
    await expect(cappedFetch(10, fakeFetch)('http://unused.invalid/')).rejects.toBeInstanceOf(BodyTooLargeError);
  });
});
