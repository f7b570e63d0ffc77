import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { createRateLimiter } from '../src/platform/rate-limiter.js';
import { AppError } from '../src/errors.js';
import { ev, startFakeTracker, type FakeTracker } from './fakes/tracker-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

const PATH = '/api/v1/delivery/track';
const CJ = 'kr.cjlogistics';
const PER_SECOND = 10;
const INTERVAL_MS = 1000 / PER_SECOND;
const MAX_WAIT_MS = 1000;

let tracker: FakeTracker;
let app: TestApp;
let user: TestUser;

/**
 * The limiter's time: a fixed "now", and waits that are recorded (the moment each caller's
 * upstream call may start) instead of slept, so the slot count does not depend on how fast a
 * loaded machine runs the statements.
 */
let now = new Date('2026-11-20T01:00:00Z');
const clock = () => now;
let slept: number[] = [];
const sleep = async (ms: number) => {
  slept.push(ms);
};

beforeAll(async () => {
  tracker = await startFakeTracker();
  app = await startTestApp(
    { DELIVERY_TRACKER_URL: tracker.url },
    {
      delivery: {
        rateLimit: { perSecond: PER_SECOND, maxWaitMs: MAX_WAIT_MS, bucket: `test-burst-${process.pid}-${Date.now()}`, clock, sleep },
      },
    },
  );
  user = await app.signUp();
  await app.post('/api/v1/subscriptions', { api: 'delivery-tracking' }, user.apiKey);
});
afterAll(async () => {
  await app.close();
  await tracker.close();
});

async function remaining(): Promise<number> {
  return (await app.remaining(user.apiKey, 'delivery-tracking'))!;
}

describe('the tracker rate-limit lock', () => {
  it('lets 50 concurrent callers through at the rate limit; those who would wait too long get 429 with Retry-After, not charged', async () => {
    const stamp = `${Date.now() % 1_000_000}`.padStart(6, '0');
    const numbers = Array.from({ length: 50 }, (_, i) => `7${stamp}${String(i).padStart(3, '0')}`);
    for (const id of numbers) tracker.parcel(CJ, id, { events: [ev('2026-11-20T10:00:00+09:00', 'IN_TRANSIT', '간선상차', '곤지암Hub')] });
    const before = await remaining();
    slept = [];

    const answers = await Promise.all(numbers.map((id) => app.post(PATH, { carrier_id: CJ, track_id: id }, user.apiKey)));
    const ok = answers.filter((a) => a.status === 200);
    const busy = answers.filter((a) => a.status === 429);
    expect(ok.length + busy.length).toBe(50);
    // All 50 arrive at one instant: slots at 0, 100, …, 1000 ms are within the 1 s a caller may wait.
    expect(ok.length).toBe(MAX_WAIT_MS / INTERVAL_MS + 1);
    for (const answer of busy) {
      expect(answer.body).toMatchObject({ success: false, code: 429, error_code: 'TRACKER_BUSY' });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    expect(await remaining()).toBe(before - ok.length);

    // The upstream saw one call per success, each in its own slot, never faster than the limit.
    expect(tracker.requests).toHaveLength(ok.length);
    const starts = [0, ...slept].sort((a, b) => a - b);
    expect(starts).toEqual(Array.from({ length: ok.length }, (_, i) => i * INTERVAL_MS));
  });

  it('is shared by every instance through the database', async () => {
    // Two limiters (two instances); on PostgreSQL they use separate connection pools.
    const url = process.env.TEST_DB === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
    const second: DatabaseHandle | undefined = url ? await openDatabase({ databaseUrl: url, dataDir: '' }) : undefined;
    try {
      const bucket = `test-shared-${process.pid}-${Date.now()}`;
      const options = { perSecond: 10, maxWaitMs: 350, bucket, clock, sleep };
      const a = createRateLimiter(app.runtime.db, options);
      const b = createRateLimiter(second?.db ?? app.runtime.db, options);
      const outcomes = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          (i % 2 ? a : b).acquire().then(
            () => 'ok',
            (error: unknown) => (error instanceof AppError ? error.code : 'other'),
          ),
        ),
      );
      // Slots at 0, 100, 200, 300 ms fit in 350 ms: four in all, whichever instance asked.
      expect(outcomes.filter((o) => o === 'ok')).toHaveLength(4);
      expect(outcomes.filter((o) => o === 'TRACKER_BUSY')).toHaveLength(8);
    } finally {
      await second?.close();
    }
  });
});

// This file's service has no LLM configured (no OPENAI_*): the AI fields still come, from the rules.
describe('ai on without an LLM', () => {
  it('answers the rule-based analysis and the template instead of a 503', async () => {
    now = new Date(now.getTime() + 60_000); // past the slots the burst above took
    const id = `8${Date.now() % 1_000_000_000}`;
    tracker.parcel(CJ, id, { events: [ev('2026-11-16T09:00:00+09:00', 'IN_TRANSIT', '간선하차', '곤지암Hub')] });
    const res = await app.post(PATH, { carrier_id: CJ, track_id: id, ai: true, situation: 'call', tone: 'polite' }, user.apiKey);
    expect(res.status).toBe(200);
    expect(res.body.ai_analysis).toMatch(/^오늘은 \d+월 \d+일\([일월화수목금토]\)입니다\. /);
    expect(res.body.ai_analysis).toContain('곤지암Hub');
    expect(res.body.recommend_message).toBe('안녕하세요, 기사님. 도착하시기 전에 전화 한 통 주시면 감사하겠습니다. 늘 수고 많으십니다.');

    const messageOnly = await app.post(PATH, { ai: 1, tone: 'short' }, user.apiKey);
    expect(messageOnly.body).toMatchObject({
      carrier: null,
      state: null,
      progresses: [],
      ai_analysis: null,
      recommend_message: '문 앞에 놓아 주세요.',
    });
  });
});
