import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';

/**
 * Issue 33 item 5: a full disk is an outage, told as one. The failing write is injected as the
 * database itself raises it: a trigger that fails with SQLSTATE 53100 `disk_full` and the
 * message PGlite gives on a real full file system ("could not extend file …: No space left on
 * device", reproduced on a 64 MB tmpfs: docs/evaluations/2026-11-27-hardening.md). The trigger
 * only fires for this file's marker, so other tests sharing the PostgreSQL database are untouched.
 */
const MARKER = `disk-full-${process.pid}`;
const TRIGGER = `disk_full_${process.pid}`;
let app: TestApp;
let user: TestUser;

async function fillDisk(): Promise<void> {
  await app.runtime.db.execute(
    sql.raw(`create or replace function ${TRIGGER}() returns trigger language plpgsql as $$
      begin
        if to_jsonb(new)->>'url' like '%${MARKER}%' or to_jsonb(new)->>'key' = 'storage-probe' then
          raise exception 'could not extend file "base/5/16385": No space left on device' using errcode = 'disk_full';
        end if;
        return new;
      end $$`),
  );
  for (const table of ['short_links', 'throttle_windows']) {
    await app.runtime.db.execute(
      sql.raw(`create trigger ${TRIGGER} before insert or update on ${table} for each row execute function ${TRIGGER}()`),
    );
  }
}

async function freeDisk(): Promise<void> {
  for (const table of ['short_links', 'throttle_windows'])
    await app.runtime.db.execute(sql.raw(`drop trigger if exists ${TRIGGER} on ${table}`));
  await app.runtime.db.execute(sql.raw(`drop function if exists ${TRIGGER}()`));
}

beforeAll(async () => {
  app = await startTestApp();
  user = await app.signUp();
  expect((await app.post('/api/v1/subscriptions', { api: 'url-shortener' }, user.apiKey)).status).toBe(201);
});
afterAll(async () => {
  await freeDisk().catch(() => {});
  await app?.close();
});

describe('a full disk (#33 item 5)', () => {
  it('answers 503 STORAGE_FULL with Retry-After, refunds the call, fails readiness until a write succeeds again', async () => {
    expect((await app.get('/healthz/ready')).status).toBe(200);
    const kept = await app.post('/api/v1/url/shorten', { url: 'https://example.com/stored-before' }, user.apiKey);
    expect(kept.status).toBe(200);
    const before = await app.remaining(user.apiKey, 'url-shortener');
    await fillDisk();
    try {
      const refused = await app.post('/api/v1/url/shorten', { url: `https://example.com/${MARKER}/a` }, user.apiKey);
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({
        success: false,
        code: 503,
        error_code: 'STORAGE_FULL',
        error: expect.stringContaining('저장 공간'),
      });
      expect(refused.headers.get('retry-after')).toBe('30');
      expect(await app.remaining(user.apiKey, 'url-shortener')).toBe(before);

      const ready = await app.get('/healthz/ready');
      expect([ready.status, ready.body]).toEqual([503, { status: 'unavailable', database: 'full' }]);
      expect(ready.headers.get('retry-after')).toBe('30');
      // Reads still work while the disk is full.
      expect((await app.get('/healthz/live')).status).toBe(200);
    } finally {
      await freeDisk();
    }
    expect((await app.get('/healthz/ready')).status).toBe(200);
    const stored = await app.post('/api/v1/url/shorten', { url: `https://example.com/${MARKER}/a` }, user.apiKey);
    expect(stored.status).toBe(200);
    expect(await app.remaining(user.apiKey, 'url-shortener')).toBe(before! - 1);
    // What was acknowledged before the disk filled is still there.
    const code = String(kept.body.short_url).split('/').at(-1)!;
    const followed = await app.get(`/s/${code}`);
    expect([followed.status, followed.headers.get('location')]).toEqual([302, 'https://example.com/stored-before']);
  });
});
