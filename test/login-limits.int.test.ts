import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressKey } from '../src/platform/login-guard.js';
import { createPasswordHasher } from '../src/platform/password-hasher.js';
import { startTestApp, type TestApp } from './helpers/app.js';

/** #18 item 3: log-in and sign-up limits, with an injected clock instead of sleeps. */
let now = new Date('2026-05-04T09:00:00Z');
let app: TestApp;
let run = 0;
beforeAll(async () => {
  app = await startTestApp({ LOGIN_MAX_FAILURES: '4', LOGIN_MAX_PER_ADDRESS: '8', SIGNUP_MAX_PER_ADDRESS: '3' }, { clock: () => now });
});
afterAll(() => app.close());

/** Each test speaks from its own documentation address (X-Forwarded-For from loopback is trusted). */
const from = (address: string) => ({ 'x-forwarded-for': address, 'content-type': 'application/json' });
async function call(path: string, body: unknown, address: string) {
  const res = await fetch(app.url + path, { method: 'POST', headers: from(address), body: JSON.stringify(body) });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any };
}
/** Addresses unique to this run (the throttle windows of earlier runs may still live in a PostgreSQL database). */
const tag = ((process.pid * 7919) ^ Date.now()).toString(16).slice(-4);
const address = (subnet: number, host = 1) => `2001:db8:${tag}:${subnet.toString(16)}::${host.toString(16)}`;
const unique = (name: string) => `${name}-${process.pid}-${Date.now()}-${++run}@example.com`;

describe('log-in limits', () => {
  it('refuses an account after repeated wrong passwords, the same way for unknown e-mails, until the window ends', async () => {
    const email = unique('victim');
    const password = 'correct horse battery';
    expect((await call('/api/v1/auth/register', { email, password }, address(1))).status).toBe(201);
    const ghost = unique('nobody');
    // Four wrong passwords from four addresses (a distributed guess): 401 each.
    for (let i = 0; i < 4; i++) {
      expect((await call('/api/v1/auth/login', { email, password: `wrong guess ${i}` }, address(10 + i))).status).toBe(401);
      expect((await call('/api/v1/auth/login', { email: ghost, password: `wrong guess ${i}` }, address(10 + i))).status).toBe(401);
    }
    const locked = await call('/api/v1/auth/login', { email, password }, address(20));
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ success: false, code: 429, error_code: 'RATE_LIMITED' });
    expect(Number(locked.retryAfter)).toBeGreaterThan(0);
    expect(Number(locked.retryAfter)).toBeLessThanOrEqual(15 * 60);
    const lockedGhost = await call('/api/v1/auth/login', { email: ghost, password }, address(20));
    expect(lockedGhost.status).toBe(429);
    expect(lockedGhost.body.error).toBe(locked.body.error); // no account enumeration

    now = new Date(now.getTime() + 15 * 60 * 1000 + 1000);
    const after = await call('/api/v1/auth/login', { email, password }, address(20));
    expect(after.status).toBe(200);
    expect(after.body.token).toEqual(expect.any(String));
  });

  it('limits log-in attempts per address, whatever the accounts', async () => {
    for (let i = 0; i < 8; i++) {
      expect((await call('/api/v1/auth/login', { email: unique('spray'), password: 'password123' }, address(30))).status).toBe(401);
    }
    const ninth = await call('/api/v1/auth/login', { email: unique('spray'), password: 'password123' }, address(30));
    expect(ninth.status).toBe(429);
    expect(Number(ninth.retryAfter)).toBeGreaterThan(0);
    // Another address is not affected.
    expect((await call('/api/v1/auth/login', { email: unique('spray'), password: 'password123' }, address(31))).status).toBe(401);
  }, 120_000); // each unknown e-mail still costs a production-cost hash (no enumeration by timing): slow on a busy machine

  it('limits sign-ups per address per hour', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await call('/api/v1/auth/register', { email: unique('farm'), password: 'long enough' }, address(40))).status).toBe(201);
    }
    // The same /64 is the same subscriber.
    const fourth = await call('/api/v1/auth/register', { email: unique('farm'), password: 'long enough' }, address(40, 0x99));
    expect(fourth.status).toBe(429);
    expect(fourth.body.error).toContain('가입');
    expect((await call('/api/v1/auth/register', { email: unique('farm'), password: 'long enough' }, address(41))).status).toBe(201);
    now = new Date(now.getTime() + 61 * 60 * 1000);
    expect((await call('/api/v1/auth/register', { email: unique('farm'), password: 'long enough' }, address(40))).status).toBe(201);
  });
});

describe('password hashing', () => {
  it('runs at most `concurrency` hashes at once, queues a bounded number, and refuses the rest with 429 before hashing (#33 item 8)', async () => {
    const gates: Array<() => void> = [];
    let inFlight = 0;
    let peak = 0;
    const hasher = createPasswordHasher({
      concurrency: 2,
      maxWaiting: 3,
      hash: () =>
        new Promise<string>((resolve) => {
          peak = Math.max(peak, ++inFlight);
          gates.push(() => {
            inFlight--;
            resolve('hashed');
          });
        }),
    });
    const accepted = Array.from({ length: 5 }, () => hasher.hash('pw'));
    await expect(hasher.hash('pw')).rejects.toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 2 });
    await expect(hasher.verify('pw', 'stored')).rejects.toMatchObject({ status: 429 });
    expect(hasher.stats()).toEqual({ running: 2, waiting: 3 });
    expect(peak).toBe(2); // the refused ones never started a hash
    while (gates.length > 0 || inFlight > 0) {
      gates.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(accepted)).toEqual(Array(5).fill('hashed'));
    expect(peak).toBe(2);
    expect(hasher.stats()).toEqual({ running: 0, waiting: 0 });
  });

  it('a log-in flood past the queue is answered 429 with Retry-After in the contract shape, before hashing (#33 item 8)', async () => {
    const gates: Array<() => void> = [];
    let started = 0;
    let signalStarted = () => {};
    const hashStarted = new Promise<void>((resolve) => (signalStarted = resolve));
    const flooded = await startTestApp(
      {},
      {
        passwords: {
          concurrency: 1,
          maxWaiting: 0,
          verify: () =>
            new Promise<boolean>((resolve) => {
              started++;
              signalStarted();
              gates.push(() => resolve(false));
            }),
        },
      },
    );
    try {
      const login = (i: number) =>
        fetch(`${flooded.url}/api/v1/auth/login`, {
          method: 'POST',
          headers: from(address(90, i + 1)),
          body: JSON.stringify({ email: unique('flood'), password: 'wrong password' }),
        });
      const held = login(0);
      // One hashing and no room to wait: wait for the hash to start (an event, not a time).
      await hashStarted;
      const refused = await login(1);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(await refused.json()).toMatchObject({
        success: false,
        code: 429,
        error_code: 'RATE_LIMITED',
        error: expect.stringContaining('로그인'),
      });
      expect(started).toBe(1); // refused before hashing
      gates.shift()!();
      expect((await held).status).toBe(401);
    } finally {
      await flooded.close();
    }
  });

  it('keys IPv6 addresses by their /64', () => {
    expect(addressKey('2001:db8:7:1::99')).toBe('2001:db8:7:1::/64');
    expect(addressKey('2001:0db8:0007:0001:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:7:1::/64');
    expect(addressKey('::ffff:192.0.2.4')).toBe('192.0.2.4');
    expect(addressKey('192.0.2.4')).toBe('192.0.2.4');
  });
});
