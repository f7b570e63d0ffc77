import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ev, startFakeTracker, type FakeTracker } from './fakes/tracker-server.js';
import { startWebhookReceiver, type FakeWebhookReceiver } from './fakes/webhook-receiver.js';
import { callJson, migratedDataDir, signUpOver, startServerProcess, stopServerProcess, type ServerProcess } from './helpers/process.js';

/**
 * Issue 38 on the production path: `npm start` configured by environment variables only. A
 * number sent without a carrier is found at the carrier that knows it (three candidates asked),
 * with an arrival estimate; a watch takes `digest_at`.
 */
const NUMBER = '640812345670'; // 12 digits, mod-7 check holds: CJ, Lotte or Hanjin
// A copy of the run's migrated database, as after a restart (the first start on an empty directory is watch.e2e's).
const dataDir = migratedDataDir('aih-parcels-e2e-');
let tracker: FakeTracker;
let receiver: FakeWebhookReceiver;
let server: ServerProcess | undefined;
let base = '';

const iso = (date: Date) => new Date(date.getTime() + 9 * 3600_000).toISOString().replace(/\.\d{3}Z$/, '+09:00');

beforeAll(async () => {
  tracker = await startFakeTracker();
  receiver = await startWebhookReceiver();
  server = startServerProcess(
    { DATA_DIR: dataDir, DELIVERY_TRACKER_URL: tracker.url, WATCH_CRON: 'off', WEBHOOK_ALLOW_INSECURE: '1', LOG_LEVEL: 'info' },
    { npmStart: true },
  );
  base = `http://127.0.0.1:${await server.ready}`;
}, 180_000);

afterAll(async () => {
  await stopServerProcess(server);
  await tracker?.close();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  callJson(base, method, path, body, headers);

describe('npm start: parcels without a carrier', () => {
  it('finds the carrier from the number, estimates the arrival, and takes a digest time on a watch', async () => {
    tracker.parcel('kr.lotte', NUMBER, { events: [ev(iso(new Date(Date.now() - 3600_000)), 'IN_TRANSIT', '간선상차', '옥천HUB')] });
    const { apiKey: key } = await signUpOver(base, 'parcels');
    const auth = { 'x-api-key': key };
    expect((await call('POST', '/api/v1/subscriptions', { api: 'delivery-tracking' }, auth)).status).toBe(201);

    const found = await call('POST', '/api/v1/delivery/track', { track_id: NUMBER }, auth);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ success: true, carrier: { id: 'kr.lotte' }, state: { id: 'in_transit' }, api: 'delivery-tracking' });
    expect(found.body.estimated_arrival).toMatchObject({ confidence: 'low', samples: 0 });
    expect(['kr.cjlogistics', 'kr.lotte', 'kr.hanjin'].map((carrier) => tracker.lookups(carrier, NUMBER).length)).toEqual([1, 1, 1]);

    const unknown = await call('POST', '/api/v1/delivery/track', { track_id: '1234' }, auth);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ error_code: 'INVALID_REQUEST' });

    const watch = await call(
      'POST',
      '/api/v1/delivery/watch',
      { track_id: NUMBER, carrier_id: 'auto', webhook_url: `${receiver.url}/d`, digest_at: '08:00' },
      auth,
    );
    expect(watch.status).toBe(201);
    expect(watch.body.watch).toMatchObject({ carrier_id: 'kr.lotte', digest_at: '08:00' });
  });
});
