import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { TRACK_QUERY, TRACKER_BODY_LIMIT_BYTES } from '../src/providers/tracker.js';
import { ev, startFakeTracker, type FakeTracker } from './fakes/tracker-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { sharedDataPresent } from './helpers/shared-data.js';

/**
 * The tracker client against the real Delivery Tracker's shapes (the fake validates every query
 * with graphql-js against ../shared/data/tracker-schema.graphql and formats errors as the real
 * server does), and what callers and the operator see for each.
 */
const PATH = '/api/v1/delivery/track';
const CJ = 'kr.cjlogistics';
let serial = 0;
const number = () =>
  `4${String(process.pid % 1000).padStart(3, '0')}${String(Date.now() % 100000).padStart(5, '0')}${String(++serial).padStart(3, '0')}`;

/** The mod-7 check digit CJ, Lotte and Hanjin numbers end with. */
const withCheckDigit = (body: string) => `${body}${BigInt(body) % 7n}`;

interface Harness {
  tracker: FakeTracker;
  app: TestApp;
  user: TestUser;
  logs: Array<{ level: number; msg: string; [key: string]: unknown }>;
}

async function harness(fake: Parameters<typeof startFakeTracker>[0] = {}, env: Record<string, string> = {}): Promise<Harness> {
  const tracker = await startFakeTracker(fake);
  const logs: Harness['logs'] = [];
  const logger = createLogger('info', { write: (line: string) => void logs.push(JSON.parse(line)) });
  const app = await startTestApp(
    { DELIVERY_TRACKER_URL: tracker.url, ...env },
    { logger, delivery: { rateLimit: { bucket: `contract-${process.pid}-${Date.now()}-${++serial}`, perSecond: 200 } } },
  );
  const user = await app.signUp();
  expect((await app.post('/api/v1/subscriptions', { api: 'delivery-tracking' }, user.apiKey)).status).toBe(201);
  return { tracker, app, user, logs };
}

async function close(h: Harness | undefined) {
  await h?.app.close();
  await h?.tracker.close();
}

async function post(tracker: FakeTracker, query: string, variables: object, headers: Record<string, string> = {}) {
  const res = await fetch(tracker.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('the fake tracker behaves like the real server', () => {
  let tracker: FakeTracker;
  beforeAll(async () => {
    tracker = await startFakeTracker();
  });
  afterAll(() => tracker.close());

  it('rejects a query the real schema rejects: HTTP 400, BAD_REQUEST, no path', async (ctx) => {
    if (!tracker.validating) ctx.skip(); // ../shared/data/tracker-schema.graphql absent: nothing to validate against
    const broken = TRACK_QUERY.replace('description', 'description courier');
    const res = await post(tracker, broken, { carrierId: CJ, trackingNumber: '1', last: 20, before: null });
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ message: expect.stringContaining('courier'), extensions: { code: 'BAD_REQUEST' } });
    expect(res.body.errors[0].path).toBeUndefined();
    expect(res.body.data).toBeUndefined();
  });

  it('accepts the service query, serves at most 20 events a page with cursors, and answers resolver errors with HTTP 200 and a path', async () => {
    tracker.parcel(CJ, '1', {
      events: Array.from({ length: 25 }, (_, i) => ev(`2026-11-20T${String(i % 24).padStart(2, '0')}:00:00+09:00`, 'IN_TRANSIT')),
    });
    const first = await post(tracker, TRACK_QUERY, { carrierId: CJ, trackingNumber: '1', last: 50, before: null });
    expect(first.status).toBe(200);
    expect(first.body.data.track.events.edges).toHaveLength(20);
    expect(first.body.data.track.events.pageInfo.hasPreviousPage).toBe(true);
    const second = await post(tracker, TRACK_QUERY, {
      carrierId: CJ,
      trackingNumber: '1',
      last: 20,
      before: first.body.data.track.events.pageInfo.startCursor,
    });
    expect(second.body.data.track.events.edges).toHaveLength(5);
    expect(second.body.data.track.events.pageInfo.hasPreviousPage).toBe(false);
    const missing = await post(tracker, TRACK_QUERY, { carrierId: CJ, trackingNumber: '2', last: 20, before: null });
    expect(missing).toMatchObject({
      status: 200,
      body: { data: { track: null }, errors: [{ path: ['track'], extensions: { code: 'NOT_FOUND' } }] },
    });
  });
});

describe('hosted upstream: errors as callers and the operator see them', () => {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await harness(
      { credentials: { clientId: 'cid', clientSecret: 'right' } },
      { DELIVERY_TRACKER_CLIENT_ID: 'cid', DELIVERY_TRACKER_CLIENT_SECRET: 'right' },
    );
  });
  afterAll(() => close(h));

  // The fake rejects a query only by validating it against the real schema (../shared/data).
  const schemaPresent = sharedDataPresent('tracker-schema.graphql');
  it.skipIf(!schemaPresent)(
    'a rejected query (HTTP 400 without path) is a 502 logged at error level, not "check your number"',
    async () => {
      const { tracker, app, user, logs } = h!;
      const id = number();
      const rejected = await post(
        tracker,
        TRACK_QUERY.replace('pageInfo {', 'pageInfo { total'),
        { carrierId: CJ, trackingNumber: id, last: 20, before: null },
        { authorization: 'TRACKQL-API-KEY cid:right' },
      );
      tracker.parcel(CJ, id, { httpStatus: rejected.status, body: JSON.stringify(rejected.body) });
      const before = await app.remaining(user.apiKey, 'delivery-tracking');
      const res = await app.post(PATH, { carrier_id: CJ, track_id: id }, user.apiKey);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({ error_code: 'UPSTREAM_ERROR', error: expect.stringContaining('연동에 문제') });
      expect(await app.remaining(user.apiKey, 'delivery-tracking')).toBe(before);
      const logged = logs.find((line) => line.msg.includes('contract failure'));
      expect(logged).toMatchObject({ level: 50, upstreamCode: 'BAD_REQUEST', httpStatus: 400 });
      expect(JSON.stringify(logs)).not.toContain(id);
    },
  );

  it('an endless answer stops at the body cap: 502, refunded, and the upstream stops sending', async () => {
    const { tracker, app, user } = h!;
    const id = number();
    tracker.parcel(CJ, id, { endless: true });
    const before = await app.remaining(user.apiKey, 'delivery-tracking');
    const res = await app.post(PATH, { carrier_id: CJ, track_id: id }, user.apiKey);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ error_code: 'UPSTREAM_ERROR', error: expect.stringContaining('너무 큰 응답') });
    expect(await app.remaining(user.apiKey, 'delivery-tracking')).toBe(before);
    // The cap is 1 MB; socket buffers on both sides may hold a few MB more, never the gigabytes an unbounded read takes.
    expect(tracker.endlessBytes).toBeLessThan(TRACKER_BODY_LIMIT_BYTES * 16);
  });

  it('the carrier refusing the number (BAD_REQUEST on track, HTTP 200) is 400 on track_id; an unknown parcel 404', async () => {
    const { tracker, app, user } = h!;
    const id = number();
    tracker.parcel(CJ, id, { error: 'BAD_REQUEST', message: 'Invalid tracking number' });
    expect((await app.post(PATH, { carrier_id: CJ, track_id: id }, user.apiKey)).body).toMatchObject({ code: 400, field: 'track_id' });
    expect((await app.post(PATH, { carrier_id: CJ, track_id: number() }, user.apiKey)).body).toMatchObject({
      code: 404,
      error_code: 'NOT_FOUND',
    });
  });

  it('keeps a missing time and place as null and "" (never an empty time string)', async () => {
    const { tracker, app, user } = h!;
    const id = number();
    tracker.parcel(CJ, id, {
      events: [
        ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP', '집화처리', '성수'),
        { time: null, status: { code: 'IN_TRANSIT', name: '간선상차' }, location: null, description: null },
        ev('2026-11-20T21:00:00+09:00', 'IN_TRANSIT', '간선하차', '곤지암Hub'),
      ],
    });
    const res = await app.post(PATH, { carrier_id: CJ, track_id: id, ai: true }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.progresses.map((p: { time: string | null; location: { name: string } }) => [p.time, p.location.name])).toEqual([
      ['2026-11-20T09:00:00+09:00', '성수'],
      [null, ''],
      ['2026-11-20T21:00:00+09:00', '곤지암Hub'],
    ]);
    expect(res.body.ai_analysis).toContain('곤지암Hub');
  });

  it('answers kr.hanips and kr.hdexp with a clear message, free, without asking the upstream', async () => {
    const { tracker, app, user } = h!;
    const before = tracker.requests.length;
    for (const carrier of ['kr.hanips', 'kr.hdexp', '합동택배']) {
      const res = await app.post(PATH, { carrier_id: carrier, track_id: '123456789012' }, user.apiKey);
      expect(res.status, carrier).toBe(400);
      expect(res.body).toMatchObject({ field: 'carrier_id', error: expect.stringContaining('더 이상 지원하지 않아') });
    }
    expect(tracker.requests.length).toBe(before);
  });
});

describe('carrier names and detection through the API', () => {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(() => close(h));

  it('accepts the names people use, and answers an ambiguous name with the candidates', async () => {
    const { tracker, app, user } = h!;
    const post13 = `6${number()}`;
    tracker.parcel('kr.epost', post13, { events: [ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP', '접수', '서울중앙우체국')] });
    const res = await app.post(PATH, { carrier_id: '우체국', track_id: post13 }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.carrier.id).toBe('kr.epost');
    const ambiguous = await app.post(PATH, { carrier_id: '성원글로벌', track_id: '6123456789012' }, user.apiKey);
    expect(ambiguous.body).toMatchObject({ code: 400, field: 'carrier_id' });
    expect(ambiguous.body.error).toContain('kr.swgexp.epost');
    expect(ambiguous.body.error).toContain('kr.swgexp.cjlogistics');
  });

  it('carrier_id "auto" tries the carriers the number format points to, within the rate limit, and answers the one that knows it', async () => {
    const { tracker, app, user } = h!;
    const id = withCheckDigit(number().slice(0, 11));
    tracker.parcel('kr.lotte', id, { events: [ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP', '집하', '롯데 성수')] });
    const before = app.runtime.delivery.tracking.stats().upstreamRequests;
    const res = await app.post(PATH, { carrier_id: 'auto', track_id: `${id.slice(0, 4)}-${id.slice(4)}` }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.carrier.id).toBe('kr.lotte');
    // The top three candidates are asked in parallel (issue 38), one rate-limit slot each.
    expect(tracker.lookups('kr.cjlogistics', id)).toHaveLength(1);
    expect(tracker.lookups('kr.hanjin', id)).toHaveLength(1);
    expect(app.runtime.delivery.tracking.stats().upstreamRequests - before).toBe(3);
    const unknownFormat = await app.post(PATH, { carrier_id: 'auto', track_id: '12345' }, user.apiKey);
    expect(unknownFormat.body).toMatchObject({ code: 400, field: 'carrier_id' });
    const nowhere = await app.post(PATH, { carrier_id: 'auto', track_id: withCheckDigit(number().slice(0, 11)) }, user.apiKey);
    expect(nowhere.body).toMatchObject({ code: 404 });
    expect(nowhere.body.error).toContain('CJ대한통운, 롯데택배, 한진택배');
  });
});

describe('wrong credentials and a self-hosted upstream', () => {
  let wrong: Harness | undefined;
  let selfHosted: Harness | undefined;
  beforeAll(async () => {
    wrong = await harness(
      { credentials: { clientId: 'cid', clientSecret: 'right' } },
      { DELIVERY_TRACKER_CLIENT_ID: 'cid', DELIVERY_TRACKER_CLIENT_SECRET: 'wrong' },
    );
    selfHosted = await harness({ flavour: 'self-hosted' });
  });
  afterAll(async () => {
    await close(wrong);
    await close(selfHosted);
  });

  it('UNAUTHENTICATED / FORBIDDEN: a 502 that says the service credentials were refused, logged for the operator', async () => {
    const { tracker, app, user, logs } = wrong!;
    const id = number();
    tracker.parcel(CJ, id, { events: [ev('2026-11-20T09:00:00+09:00', 'AT_PICKUP')] });
    const res = await app.post(PATH, { carrier_id: CJ, track_id: id }, user.apiKey);
    expect(res.status).toBe(502);
    expect(res.body.error).toContain('인증 정보');
    expect(logs.find((line) => line.level === 50 && line.msg.includes('DELIVERY_TRACKER_CLIENT_ID'))).toMatchObject({
      upstreamCode: 'FORBIDDEN',
      httpStatus: 403,
    });
    expect(JSON.stringify(logs)).not.toContain('wrong');
  });

  it('self-hosted: an unknown number comes back as INTERNAL with data.track null; the 502 says what to check', async () => {
    const { tracker, app, user } = selfHosted!;
    const id = number();
    const raw = await post(tracker, TRACK_QUERY, { carrierId: CJ, trackingNumber: id, last: 20, before: null });
    expect(raw).toMatchObject({
      status: 200,
      body: { data: { track: null }, errors: [{ message: 'Internal error', path: ['track'], extensions: { code: 'INTERNAL' } }] },
    });
    const res = await app.post(PATH, { carrier_id: CJ, track_id: id }, user.apiKey);
    expect(res.status).toBe(502);
    expect(res.body.error).toContain('운송장 번호가 맞는지');
  });
});
