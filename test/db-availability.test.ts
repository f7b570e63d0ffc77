import { describe, expect, it } from 'vitest';
import { createDatabaseMonitor, isDatabaseOutage, isDiskFull, isStatementTimeout } from '../db/availability.js';
import { fromDatabaseError } from '../src/errors.js';

const wrapped = (cause: object) => Object.assign(new Error('Failed query: select 1\nparams: '), { cause });

describe('database availability', () => {
  it('tells a full disk: SQLSTATE 53100 as PGlite and PostgreSQL raise it, and a raw ENOSPC (#33 item 5)', async () => {
    // The shape PGlite gave on a real full tmpfs (docs/evaluations/2026-11-27-hardening.md).
    const pglite = {
      name: 'error',
      severity: 'ERROR',
      code: '53100',
      message: 'could not extend file "base/5/16385": No space left on device',
    };
    expect(isDiskFull(wrapped(pglite))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }))).toBe(true);
    expect(isDiskFull(wrapped({ code: '53300' }))).toBe(false);
    expect(fromDatabaseError(wrapped(pglite))).toMatchObject({ status: 503, code: 'STORAGE_FULL', retryAfterSeconds: 30 });

    let diskFull = true;
    const changes: boolean[] = [];
    const monitor = createDatabaseMonitor({
      probe: async () => {},
      writeProbe: async () => {
        if (diskFull) throw wrapped(pglite);
      },
      onStorageChange: (writable) => changes.push(writable),
    });
    expect(await monitor.writable()).toBe(true);
    monitor.observe(wrapped(pglite));
    expect(await monitor.writable()).toBe(false);
    expect(monitor.available()).toBe(true); // reads still work: not an outage
    diskFull = false;
    expect(await monitor.writable()).toBe(true);
    expect(changes).toEqual([false, true]);
    monitor.stop();
  });

  it('tells an outage (also wrapped by drizzle) and a statement timeout from other failures', () => {
    expect(isDatabaseOutage(wrapped({ code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDatabaseOutage(wrapped({ code: '57P01' }))).toBe(true);
    expect(isDatabaseOutage(wrapped({ code: '08006' }))).toBe(true);
    expect(isDatabaseOutage({ code: 'CONNECTION_CLOSED' })).toBe(true);
    expect(isDatabaseOutage(wrapped({ code: '23505' }))).toBe(false);
    expect(isStatementTimeout(wrapped({ code: '57014' }))).toBe(true);
    expect(fromDatabaseError(wrapped({ code: 'ECONNRESET' }))).toMatchObject({
      status: 503,
      code: 'DATABASE_UNAVAILABLE',
      retryAfterSeconds: 5,
    });
    expect(fromDatabaseError(wrapped({ code: '57014' }))).toMatchObject({ status: 503, code: 'DATABASE_TIMEOUT' });
    expect(fromDatabaseError(new Error('bug'))).toBeUndefined();
  });

  it('confirms a suspected outage with a probe, and comes back by itself when the probe answers', async () => {
    let reachable = true;
    let probes = 0;
    const changes: boolean[] = [];
    const monitor = createDatabaseMonitor({
      probe: async () => {
        probes++;
        if (!reachable) throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
      },
      probeIntervalMs: 5,
      onChange: (available) => changes.push(available),
    });
    // A terminated backend while the database answers: one probe, still available.
    monitor.observe({ code: '57P01' });
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(monitor.available()).toBe(true);
    expect(probes).toBe(1);

    reachable = false;
    monitor.observe({ code: 'ECONNREFUSED' });
    await new Promise((resolve) => setTimeout(resolve, 1));
    expect(monitor.available()).toBe(false);
    monitor.observe(new Error('unrelated')); // not an outage: ignored
    reachable = true;
    await expect.poll(() => monitor.available(), { interval: 5, timeout: 1000 }).toBe(true);
    expect(changes).toEqual([false, true]);
    monitor.stop();
  });
});
