import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpServer } from '../api/http-server.js';
import { DISCARD_BOUND, payloadTooLarge } from '../api/json-body.js';
import { errorBody } from '../src/errors.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

/**
 * Issue 49: a body over the limit is answered 413 in the contract's shape, and every common
 * client reads it (fetch, node:http, curl with and without `Expect: 100-continue`), ten times in
 * a row. The server is the production one (`createHttpServer`: its `checkContinue` handling
 * included) over a real runtime. The clients run in processes of their own, as a user's do: in
 * one process with the server, client and server share one event loop and the race that lost
 * the answer (a socket closed while the client still sends is reset) hardly ever happens.
 */
const MB = 1024 * 1024;
const OCR = '/api/v1/ocr/idcard'; // 15 MB limit
const SHORTEN = '/api/v1/url/shorten'; // 1 MB limit
const UPLOAD = 40 * MB;
const RUNS = 10;
/** A request's head (line and headers) as these clients send it, well under this. */
const HEAD_BYTES = 2048;
const tooLarge = (limitMb: number) => errorBody(payloadTooLarge(limitMb * MB));

let app: TestApp;
let user: TestUser;
let server: Server;
let base: string;
let port: number;
let scratch: string;

/** The bytes the server read on each connection that closed since the test began (head included). */
let bytesRead: number[] = [];
const open = new Set<Socket>();
let whenAllClosed: Array<() => void> = [];
const allClosed = () => new Promise<void>((resolve) => (open.size === 0 ? resolve() : whenAllClosed.push(resolve)));

beforeAll(async () => {
  app = await startTestApp();
  user = await app.signUp();
  server = createHttpServer(app.runtime);
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      bytesRead.push(socket.bytesRead);
      if (open.size === 0) for (const resolve of whenAllClosed.splice(0)) resolve();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  scratch = mkdtempSync(join(tmpdir(), 'aih-oversized-'));
}, 60_000);
beforeEach(async () => {
  await allClosed();
  bytesRead = [];
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await app?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** A JSON body of `size` bytes (its content never matters: it is refused by its size). */
const SCRIPT = `
import { request } from 'node:http';
const { url, key, size, client, runs } = JSON.parse(process.argv[1]);
const body = Buffer.alloc(size, 0x41);
body.write('{"base64_image":"');
const headers = { 'x-api-key': key, 'content-type': 'application/json' };
const viaFetch = async () => {
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, body: await res.text() };
};
const viaHttp = () =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': size } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: res.statusCode, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
const answers = [];
for (let i = 0; i < runs; i++) {
  answers.push(await (client === 'fetch' ? viaFetch() : viaHttp()).catch((error) => ({ error: String(error.cause?.code ?? error.code ?? error) })));
}
process.stdout.write(JSON.stringify(answers));
`;

interface Answer {
  status?: number;
  body?: string;
  error?: string;
}

/** `runs` uploads of `size` bytes to `path`, one after another, by Node's fetch or node:http in a process of their own. */
async function uploadFromNode(client: 'fetch' | 'http', path: string, size: number, runs = RUNS): Promise<Answer[]> {
  const args = JSON.stringify({ url: base + path, key: user.apiKey, size, client, runs });
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', SCRIPT, args], { maxBuffer: MB });
  return JSON.parse(stdout) as Answer[];
}

const parsed = (answers: Answer[]) =>
  answers.map((answer) => ({ status: answer.status ?? answer.error, body: JSON.parse(answer.body ?? '{}') }));

describe('a body over the limit is answered 413 that the client reads (#49)', () => {
  it(
    "Node's fetch (undici): a 40 MB upload, ten times, ten 413s; the server reads at most 4 × the limit of each",
    { timeout: 120_000 },
    async () => {
      const answers = await uploadFromNode('fetch', OCR, UPLOAD);
      expect(parsed(answers)).toEqual(Array.from({ length: RUNS }, () => ({ status: 413, body: tooLarge(15) })));
      await allClosed();
      expect(Math.max(...bytesRead)).toBeLessThanOrEqual(DISCARD_BOUND.timesLimit * 15 * MB + HEAD_BYTES);
    },
  );

  it(
    'node:http: a 40 MB upload, ten times, ten 413s; and on a 1 MB route, where it is cut at 4 MB, still the 413',
    { timeout: 120_000 },
    async () => {
      for (const [path, limitMb, runs] of [
        [OCR, 15, RUNS],
        [SHORTEN, 1, 3],
      ] as const) {
        const answers = await uploadFromNode('http', path, UPLOAD, runs);
        expect(parsed(answers)).toEqual(Array.from({ length: runs }, () => ({ status: 413, body: tooLarge(limitMb) })));
      }
    },
  );

  it('a chunked body that passes the limit mid-stream: 413, read at most to the bound', async () => {
    const head = `POST ${OCR} HTTP/1.1\r\nhost: x\r\nx-api-key: ${user.apiKey}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`;
    const chunk = Buffer.concat([Buffer.from(`${MB.toString(16)}\r\n`), Buffer.alloc(MB, 0x41), Buffer.from('\r\n')]);
    const upload = rawUpload(head);
    // Chunks until the answer comes (the 16th passes the limit), the last chunk then: the body ends.
    for (let sent = 0; sent < 100 && !upload.answered() && !upload.socket.destroyed; sent++) await write(upload.socket, chunk);
    if (!upload.socket.destroyed) upload.socket.end('0\r\n\r\n');
    const { status, body } = parseAnswer(await upload.closed);
    expect({ status, body }).toEqual({ status: 413, body: tooLarge(15) });
    await allClosed();
    expect(Math.max(...bytesRead)).toBeLessThanOrEqual(DISCARD_BOUND.timesLimit * 15 * MB + HEAD_BYTES);
  });

  it('a client that keeps sending past the bound is cut off once the server has read 4 × the limit', async () => {
    const head = `POST ${SHORTEN} HTTP/1.1\r\nhost: x\r\nx-api-key: ${user.apiKey}\r\ncontent-type: application/json\r\ncontent-length: ${UPLOAD}\r\n\r\n`;
    const upload = rawUpload(head);
    const chunk = Buffer.alloc(MB, 0x41);
    for (let sent = 0; sent < UPLOAD / MB && !upload.socket.destroyed; sent++) await write(upload.socket, chunk).catch(() => {});
    await upload.closed;
    await allClosed();
    expect(bytesRead).toHaveLength(1);
    expect(bytesRead[0]).toBeLessThanOrEqual(DISCARD_BOUND.timesLimit * MB + HEAD_BYTES);
  });

  it('a slow sender is cut off at the time bound, its 413 already sent', { timeout: DISCARD_BOUND.ms + 30_000 }, async () => {
    const head = `POST ${OCR} HTTP/1.1\r\nhost: x\r\nx-api-key: ${user.apiKey}\r\ncontent-type: application/json\r\ncontent-length: ${UPLOAD}\r\n\r\n`;
    const started = performance.now();
    const upload = rawUpload(head);
    // One kilobyte every 200 ms: it would take more than two days to send its 40 MB.
    const dribble = setInterval(() => upload.socket.write(Buffer.alloc(1024, 0x41)), 200);
    const received = await upload.closed.finally(() => clearInterval(dribble));
    expect(parseAnswer(received)).toEqual({ status: 413, body: tooLarge(15) });
    expect(performance.now() - started).toBeGreaterThanOrEqual(DISCARD_BOUND.ms - 50);
    await allClosed();
    expect(bytesRead[0]).toBeLessThan(MB);
  });

  it('Expect: 100-continue with a declared length over the limit: the 413 comes instead of 100 Continue, no body is read', async () => {
    const head = `POST ${OCR} HTTP/1.1\r\nhost: x\r\nx-api-key: ${user.apiKey}\r\ncontent-type: application/json\r\ncontent-length: ${UPLOAD}\r\nexpect: 100-continue\r\n\r\n`;
    const upload = rawUpload(head);
    await upload.answer;
    // A client that got its final answer sends no body: it closes (curl does).
    upload.socket.end();
    const received = await upload.closed;
    expect(received).not.toContain('100 Continue');
    expect(parseAnswer(received)).toEqual({ status: 413, body: tooLarge(15) });
    await allClosed();
    expect(bytesRead).toEqual([Buffer.byteLength(head)]);
  });

  it('Expect: 100-continue within the limit: 100 Continue once the key is checked, then the answer', async () => {
    const answer = await new Promise<{ continued: boolean; status: number; body: string }>((resolve, reject) => {
      let continued = false;
      const body = JSON.stringify({ url: 'https://example.com/issue-49' });
      const req = request(`${base}${SHORTEN}`, {
        method: 'POST',
        agent: false,
        headers: {
          'x-api-key': user.apiKey,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          expect: '100-continue',
        },
      });
      req.on('continue', () => {
        continued = true;
        req.end(body);
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ continued, status: res.statusCode!, body: text }));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(answer).toMatchObject({ continued: true, status: 200 });
    expect(JSON.parse(answer.body)).toMatchObject({ success: true, url: 'https://example.com/issue-49' });
  });

  it('Expect: 100-continue without a valid key: 401 before 100 Continue (the key is checked before the body limit)', async () => {
    const head = `POST ${OCR} HTTP/1.1\r\nhost: x\r\nx-api-key: aik_wrong\r\ncontent-type: application/json\r\ncontent-length: ${UPLOAD}\r\nexpect: 100-continue\r\n\r\n`;
    const upload = rawUpload(head);
    await upload.answer;
    upload.socket.end();
    const received = await upload.closed;
    expect(received).not.toContain('100 Continue');
    expect(parseAnswer(received).status).toBe(401);
  });
});

/** curl, when installed; under CI it must be (`.ci/run` sets CI=true), as a missing data set fails there. */
const inCi = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());
function curlPresent(): boolean {
  if (spawnSync('curl', ['--version']).status === 0) return true;
  if (inCi) throw new Error('curl is missing: in CI the curl client tests fail rather than skip (install it: apt-get install curl)');
  console.warn('[oversized bodies] the curl tests SKIPPED: curl is not installed');
  return false;
}

describe.skipIf(!curlPresent())('curl reads the 413 too (#49)', () => {
  /** `runs` curl uploads of the 40 MB file; each answer's status, body, bytes curl sent and whether a 100 Continue came. */
  async function curl(expect100: boolean, runs = RUNS) {
    const file = join(scratch, 'upload.json');
    writeFileSync(file, Buffer.alloc(UPLOAD, 0x41));
    const results = [];
    for (let i = 0; i < runs; i++) {
      const { stdout, stderr } = await promisify(execFile)(
        'curl',
        [
          ...['-sS', '-v', '-o', '-', '-w', '\n%{http_code} %{size_upload}'],
          ...['-H', `x-api-key: ${user.apiKey}`, '-H', 'content-type: application/json'],
          ...['-H', expect100 ? 'Expect: 100-continue' : 'Expect:', '--data-binary', `@${file}`, `${base}${OCR}`],
        ],
        { maxBuffer: MB },
      );
      const [body, tail] = stdout.split('\n');
      const [status, uploaded] = tail!.split(' ').map(Number);
      results.push({ status, body: JSON.parse(body!), uploaded, continued: /< HTTP\/1\.1 100/.test(stderr) });
    }
    return results;
  }

  it('without Expect: ten 40 MB uploads, ten 413s in the contract shape', { timeout: 120_000 }, async () => {
    for (const result of await curl(false)) expect(result).toMatchObject({ status: 413, body: tooLarge(15), continued: false });
    await allClosed();
    expect(Math.max(...bytesRead)).toBeLessThanOrEqual(DISCARD_BOUND.timesLimit * 15 * MB + HEAD_BYTES);
  });

  it('with Expect: 100-continue: ten 413s before any 100 Continue, and not a byte of the body sent', { timeout: 120_000 }, async () => {
    for (const result of await curl(true)) expect(result).toEqual({ status: 413, body: tooLarge(15), uploaded: 0, continued: false });
    await allClosed();
    expect(Math.max(...bytesRead)).toBeLessThan(HEAD_BYTES);
  });
});

/**
 * A raw connection that sent `head`: whether an answer has come, and everything received once the
 * connection closes. Half-open: the server's end of the answer does not stop it from sending
 * (the worst client for the server), so what closes it is its own `end()` or the server's cut.
 */
function rawUpload(head: string) {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  socket.write(head);
  let received = '';
  let answerSeen: () => void;
  const answer = new Promise<void>((resolve) => (answerSeen = resolve));
  socket.on('data', (chunk) => {
    received += chunk;
    answerSeen();
  });
  socket.on('error', () => {});
  const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  return { socket, answer, closed, answered: () => received.length > 0 };
}

/** Writes and waits for it to be handed to the kernel (rejects when the connection is gone). */
function write(socket: Socket, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => socket.write(chunk, (error) => (error ? reject(error) : resolve())));
}

/** Status and JSON body of a raw HTTP/1.1 answer (a 100 Continue before it would be a second status line). */
function parseAnswer(raw: string): { status: number; body: unknown } {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1]);
  return { status, body: JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4) || '{}') };
}
