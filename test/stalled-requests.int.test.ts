import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../api/http-server.js';
import { loadConfig } from '../src/config.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/**
 * Issue 33 item 6: a request that stalls (headers or a declared body that never arrives) is
 * answered 408 in the contract's shape and closed, and many of them do not stop new callers.
 * The timeouts are injected short (the production defaults are 20 s / 60 s); the tests wait for
 * the answer and the close, never for a clock.
 */
let app: TestApp;
let strict: Server;
let lenient: Server;

async function listen(server: Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

/** Opens a raw connection, writes `head`, and resolves with everything received once the server closes it. */
function stall(port: number, head: string): { socket: Socket; closed: Promise<string> } {
  const socket = connect(port, '127.0.0.1');
  socket.write(head);
  let received = '';
  socket.on('data', (chunk) => (received += chunk));
  socket.on('error', () => {});
  return { socket, closed: new Promise((resolve) => socket.once('close', () => resolve(received))) };
}

const partialBody = 'POST /api/v1/auth/login HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":1,';

beforeAll(async () => {
  app = await startTestApp();
  const short = { HTTP_HEADERS_TIMEOUT_MS: '200', HTTP_REQUEST_TIMEOUT_MS: '300', HTTP_KEEP_ALIVE_TIMEOUT_MS: '100' };
  strict = createHttpServer({ ...app.runtime, config: { ...app.runtime.config, ...loadConfig(short) } } as never);
  lenient = createHttpServer(app.runtime);
});
afterAll(async () => {
  for (const server of [strict, lenient]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await app?.close();
});

describe('stalled requests are closed (#33 item 6)', () => {
  it('7 of 100 declared body bytes, then nothing: 408 in the contract shape, connection closed', async () => {
    const port = await listen(strict);
    const answer = await stall(port, partialBody).closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer).toContain('connection: close');
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({
      success: false,
      code: 408,
      error_code: 'REQUEST_TIMEOUT',
      error: expect.stringContaining('Content-Length'),
    });
  });

  it('headers that never end: 408 and closed', async () => {
    const port = (strict.address() as AddressInfo).port;
    const answer = await stall(port, 'GET /healthz HTTP/1.1\r\nhost: x\r\nx-slow: ').closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('an idle keep-alive connection is closed after its answer', async () => {
    const port = (strict.address() as AddressInfo).port;
    const answer = await stall(port, 'GET /healthz/live HTTP/1.1\r\nhost: x\r\n\r\n').closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('64 stalled connections do not stop a new caller from being served, and all of them are closed', async () => {
    const port = await listen(lenient);
    const stalled = Array.from({ length: 64 }, (_, i) => stall(port, i % 2 ? partialBody : 'GET / HTTP/1.1\r\nhost: x\r\n'));
    const health = await fetch(`http://127.0.0.1:${port}/healthz/live`);
    expect(health.status).toBe(200);
    const login = await fetch(`http://127.0.0.1:${port}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password' }),
    });
    expect(login.status).toBe(401);
    for (const { socket } of stalled) socket.destroy();
    // On the short-timeout server the same flood is closed by the server itself.
    const strictPort = (strict.address() as AddressInfo).port;
    const flood = Array.from({ length: 64 }, () => stall(strictPort, partialBody));
    const answers = await Promise.all(flood.map((one) => one.closed));
    expect(answers.every((answer) => answer.startsWith('HTTP/1.1 408 '))).toBe(true);
  });
});
