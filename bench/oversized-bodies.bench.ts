import { execFile } from 'node:child_process';
import type { AddressInfo, Socket } from 'node:net';
import { promisify } from 'node:util';
import { createHttpServer } from '../api/http-server.js';
import { DISCARD_BOUND } from '../api/json-body.js';
import { measureHttp, postJson, report, signUp, startBenchService } from './lib.js';

/**
 * Issue 49: what refused bodies cost the others. One account sends 40 MB bodies to the ID reader
 * (15 MB limit), 50 at once and again as each ends, from a process of its own (node:http),
 * while another account's `/url/detect` runs at 8 connections; beside it the same load without
 * the uploads. Then ten uploads one after another with Node's fetch. Printed, not asserted: the other tenant's p99
 * during the uploads (target < 1 s), the answers (every one a 413), the most bytes the server
 * read on one upload's connection (target ≤ 4 × the limit, 60 MB) and the server process's
 * memory before, at most during, and after (flat: the dropped bytes are not kept).
 */
const MB = 1024 * 1024;
const UPLOAD_BYTES = 40 * MB;
const LIMIT_BYTES = 15 * MB;
const AT_ONCE = 50;
const SECONDS = 5;

/**
 * The uploader: `concurrency` loops of uploads until `seconds` pass (or `runs` uploads in all);
 * prints the answers by status. `fetch` copies its Buffer body before sending (a 40 MB copy per
 * call, 50 of them back to back keep a busy machine's client from sending its headers in time),
 * so the 50 at once go through node:http, which writes the one buffer as it is.
 */
const UPLOADER = `
import { request } from 'node:http';
const { url, key, size, client, concurrency, seconds, runs } = JSON.parse(process.argv[1]);
const body = Buffer.alloc(size, 0x41);
body.write('{"base64_image":"');
const headers = { 'x-api-key': key, 'content-type': 'application/json' };
const viaFetch = () => fetch(url, { method: 'POST', headers, body }).then(async (res) => (await res.text(), String(res.status)));
const viaHttp = () =>
  new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'content-length': size } }, (res) => {
      res.resume().on('end', () => resolve(String(res.statusCode)));
    });
    req.on('error', reject);
    req.end(body);
  });
const answers = {};
const ends = Date.now() + seconds * 1000;
let started = 0;
const more = () => (runs ? started < runs : Date.now() < ends);
async function loop() {
  do {
    started++;
    const outcome = await (client === 'fetch' ? viaFetch() : viaHttp()).catch((error) => String(error.cause?.code ?? error.code ?? error.message));
    answers[outcome] = (answers[outcome] ?? 0) + 1;
  } while (more());
}
await Promise.all(Array.from({ length: concurrency }, loop));
process.stdout.write(JSON.stringify(answers));
`;

interface Uploads {
  client: 'fetch' | 'http';
  concurrency: number;
  seconds?: number;
  runs?: number;
}

async function upload(url: string, key: string, options: Uploads): Promise<string> {
  const args = JSON.stringify({ url, key, size: UPLOAD_BYTES, seconds: 0, ...options });
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', UPLOADER, args], { maxBuffer: MB });
  return Object.entries(JSON.parse(stdout) as Record<string, number>)
    .map(([outcome, n]) => `${outcome}×${n}`)
    .join(' ');
}

/** The server process's memory in MB: resident set, JS heap, and Buffers (where dropped bytes would pile up). */
function memory(): { rss: number; heap: number; buffers: number } {
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  return { rss: Math.round(rss / MB), heap: Math.round(heapUsed / MB), buffers: Math.round(arrayBuffers / MB) };
}

const shown = (m: ReturnType<typeof memory>) => `rss ${m.rss} MB, heap ${m.heap} MB, buffers ${m.buffers} MB`;

export async function run(): Promise<void> {
  const service = await startBenchService();
  // The production server (its Expect handling included) over the same runtime, counting what it reads per connection.
  const server = createHttpServer(service.runtime).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let mostRead = 0;
  server.on('connection', (socket: Socket) => socket.once('close', () => (mostRead = Math.max(mostRead, socket.bytesRead))));

  await postJson(base, '/api/v1/subscriptions', { api: 'harmful-url-detection' }, { 'x-api-key': service.apiKey });
  const uploaderKey = await signUp(base);
  const detect = {
    method: 'POST' as const,
    headers: { 'content-type': 'application/json', 'x-api-key': service.apiKey },
    body: JSON.stringify({ url: 'https://shop-[<id>].example.com/item' }),
    uniqueIds: true,
    connections: 8,
    durationSeconds: SECONDS,
  };
  const ocr = `${base}/api/v1/ocr/idcard`;
  const quiet = await measureHttp('other tenant /url/detect, no uploads', `${base}/api/v1/url/detect`, detect);

  const before = memory();
  let peak = before;
  const sampler = setInterval(() => {
    const now = memory();
    peak = { rss: Math.max(peak.rss, now.rss), heap: Math.max(peak.heap, now.heap), buffers: Math.max(peak.buffers, now.buffers) };
  }, 100);
  const [flooded, burst] = await Promise.all([
    measureHttp(`other tenant, ${AT_ONCE} uploads at once`, `${base}/api/v1/url/detect`, detect),
    upload(ocr, uploaderKey, { client: 'http', concurrency: AT_ONCE, seconds: SECONDS }),
  ]);
  clearInterval(sampler);
  const serial = await upload(ocr, uploaderKey, { client: 'fetch', concurrency: 1, runs: 10 });
  const after = memory();

  report(
    `Another tenant during ${AT_ONCE} over-limit uploads at once (40 MB each, 15 MB limit; 8 connections, ${SECONDS} s)`,
    [flooded],
    quiet,
  );
  console.log(`uploads at once (node:http): ${burst}; ten one after another (fetch): ${serial} (target: every one 413)`);
  console.log(`other tenant p99 ${flooded.p99Ms} ms during the uploads (target < 1000 ms, ${quiet.p99Ms} ms without)`);
  const bound = DISCARD_BOUND.timesLimit * LIMIT_BYTES;
  console.log(`most bytes read on one connection: ${(mostRead / MB).toFixed(1)} MB (bound ${bound / MB} MB, head included)`);
  console.log(`server memory: before ${shown(before)}; at most during ${shown(peak)}; after ${shown(after)}`);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await service.close();
}
