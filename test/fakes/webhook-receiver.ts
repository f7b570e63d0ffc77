import { streamForever } from './endless-body.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook target for tests: records every delivery with its raw body and headers, and
 * answers with the status scripted per path (`respond('/hook', [500, 500, 200])`: one per
 * attempt, the last one repeated). `verify` checks `X-Signature` as a receiver would.
 */

export interface WebhookDelivery {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: any;
  status: number;
}

export interface FakeWebhookReceiver {
  url: string;
  deliveries: WebhookDelivery[];
  to(path: string): WebhookDelivery[];
  respond(path: string, statuses: number[]): void;
  /** Answers `path` with a 200 whose body never ends; resolves `closed` when the sender hangs up. */
  endless(path: string): { bytes(): number; closed: Promise<void> };
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<FakeWebhookReceiver> {
  const deliveries: WebhookDelivery[] = [];
  const scripts = new Map<string, number[]>();
  const endless = new Map<string, { bytes: number; hungUp: () => void }>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const path = req.url ?? '/';
    const script = scripts.get(path) ?? [200];
    const status = script.length > 1 ? script.shift()! : script[0]!;
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    deliveries.push({ path, headers: req.headers, raw, body, status });
    const forever = endless.get(path);
    if (forever) {
      res.once('close', forever.hungUp);
      return streamForever(res, (bytes) => (forever.bytes += bytes), 'text/plain');
    }
    res.writeHead(status, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    deliveries,
    to: (path) => deliveries.filter((delivery) => delivery.path === path),
    respond: (path, statuses) => void scripts.set(path, [...statuses]),
    endless(path) {
      let hungUp = () => {};
      const closed = new Promise<void>((resolve) => (hungUp = resolve));
      const state = { bytes: 0, hungUp };
      endless.set(path, state);
      return { bytes: () => state.bytes, closed };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A receiver's check of `X-Signature: t=<unix>,v1=<hex>` over `<t>.<raw body>`, with a freshness window. */
export function verifySignature(
  secret: string,
  header: string | undefined,
  raw: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((part) => part.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${raw}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
