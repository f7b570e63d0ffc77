import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ev, startFakeTracker, type FakeEvent, type FakeTracker } from './fakes/tracker-server.js';
import { startWebhookReceiver, type FakeWebhookReceiver } from './fakes/webhook-receiver.js';
import { callJson, signUpOver, startServerProcess, stopServerProcess, type ServerProcess } from './helpers/process.js';

/**
 * The production path, end to end: `npm start` (the build, then `node dist/api/server.js`)
 * configured by environment variables only, no injected options or clocks. A watch made over
 * HTTP must report a change within two ticks of `WATCH_CRON`.
 */
const TICK_S = 3;
const CJ = 'kr.cjlogistics';
const NUMBER = '640812345670';
const dataDir = mkdtempSync(join(tmpdir(), 'aih-watch-e2e-'));
let tracker: FakeTracker;
let receiver: FakeWebhookReceiver;
let server: ServerProcess | undefined;
let base = '';

const iso = (date: Date) => new Date(date.getTime() + 9 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '+09:00');

beforeAll(async () => {
  tracker = await startFakeTracker();
  receiver = await startWebhookReceiver();
  server = startServerProcess(
    {
      DATA_DIR: dataDir,
      DELIVERY_TRACKER_URL: tracker.url,
      WATCH_CRON: `*/${TICK_S} * * * * *`,
      WATCH_MAX_INTERVAL: '1m',
      WATCH_QUIET_HOURS: 'off',
      WEBHOOK_ALLOW_INSECURE: '1',
      LOG_LEVEL: 'info',
    },
    { npmStart: true },
  );
  const port = await server.ready;
  base = `http://127.0.0.1:${port}`;
}, 180_000);

afterAll(async () => {
  await stopServerProcess(server);
  await tracker?.close();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  callJson(base, method, path, body, headers);

describe('npm start with WATCH_CRON in seconds', () => {
  it('polls a new watch at the schedule cadence and posts the webhook within two ticks of a change', async () => {
    const events: FakeEvent[] = [ev(iso(new Date(Date.now() - 3600_000)), 'AT_PICKUP', '집화처리', '성수')];
    tracker.parcel(CJ, NUMBER, { events });
    const { apiKey: key } = await signUpOver(base, 'e2e');
    const auth = { 'x-api-key': key };
    expect((await call('POST', '/api/v1/subscriptions', { api: 'delivery-tracking' }, auth)).status).toBe(201);

    const created = await call(
      'POST',
      '/api/v1/delivery/watch',
      { carrier_id: 'CJ', track_id: NUMBER, webhook_url: `${receiver.url}/e2e` },
      auth,
    );
    expect(created.status).toBe(201);
    const listed = await call('GET', '/api/v1/delivery/watch', undefined, auth);
    const nextPoll = Date.parse(listed.body.watches[0].next_poll_at);
    // The first poll is one tick away, not ten minutes.
    expect(nextPoll - Date.now()).toBeLessThanOrEqual(TICK_S * 1000);

    // Let the watch be polled once with nothing new (its baseline was taken at creation).
    const polled = tracker.lookups(CJ, NUMBER).length;
    for (let i = 0; i < 40 && tracker.lookups(CJ, NUMBER).length === polled; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiver.to('/e2e')).toHaveLength(0);

    events.push(ev(iso(new Date()), 'IN_TRANSIT', '간선상차', '곤지암Hub'));
    const changedAt = Date.now();
    let arrivedAt = 0;
    while (Date.now() - changedAt < 4 * TICK_S * 1000) {
      if (receiver.to('/e2e').length > 0) {
        arrivedAt = Date.now();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(arrivedAt, server?.output().slice(-2000)).toBeGreaterThan(0);
    // Two ticks, and a second for the poll itself on a loaded machine.
    expect(arrivedAt - changedAt).toBeLessThanOrEqual(2 * TICK_S * 1000 + 1000);
    expect(receiver.to('/e2e')[0]!.body).toMatchObject({
      event: 'delivery.updated',
      carrier_id: CJ,
      track_id: NUMBER,
      state: { id: 'in_transit' },
    });
  }, 60_000);
});
