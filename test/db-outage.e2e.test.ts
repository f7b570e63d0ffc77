import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownTestDatabase } from './helpers/app.js';
import { startServerProcess, type ServerProcess } from './helpers/process.js';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.js';

/**
 * #18 item 1: PostgreSQL restarts under write load. The service runs as its own process on
 * DATABASE_URL through a TCP proxy; "restart" = the server terminates the proxy's backends
 * (what a fast shutdown sends) and the proxy refuses connections until it is started again.
 * PostgreSQL only (PGlite is embedded and cannot go away).
 */
const url = process.env.TEST_DATABASE_URL;
const onPostgres = process.env.TEST_DB === 'postgres' && url !== undefined;

describe.skipIf(!onPostgres)('PostgreSQL restarts', () => {
  let proxy: TcpProxy;
  let admin: postgres.Sql;
  let server: ServerProcess;
  let base: string;

  // A database of its own: the server's poller claims every due watch it finds, and other test
  // files' watches (created on a fake clock in the past) are due on the shared one.
  let database: Awaited<ReturnType<typeof ownTestDatabase>>;

  beforeAll(async () => {
    const target = new URL(url!);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    admin = postgres(url!, { max: 1, onnotice: () => {} });
    database = await ownTestDatabase('aih_outage');
    const viaProxy = new URL(database.env.DATABASE_URL!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    server = startServerProcess({
      DATABASE_URL: viaProxy.href,
      WATCH_CRON: '* * * * * *', // the poller queries every second: background work outside any request
      URL_LIST_REFRESH: 'off',
      // Twelve writers for ten seconds and more: the default 1,000 calls ran out (429) once shortening got faster.
      DEFAULT_QUOTA: '1000000',
      // fetch reuses an idle pooled connection until a second before the server's keep-alive
      // timeout: on a loaded machine the server's timer won that race once, and a check got
      // "other side closed" instead of its 503. Restarts are the subject here, not keep-alive.
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '120000',
    });
    base = `http://127.0.0.1:${await server.ready}`;
  }, 90_000);

  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await proxy?.close();
    await database?.drop();
    await admin?.end({ timeout: 1 });
  });

  async function restartDatabase(downMs: number, whileDown: () => Promise<void>): Promise<void> {
    await proxy.stop(async (ports) => {
      await admin`select pg_terminate_backend(pid) from pg_stat_activity where client_port = any(${ports}::int[])`;
    });
    const [checked] = await Promise.all([whileDown(), new Promise((resolve) => setTimeout(resolve, downMs))]);
    void checked;
    await proxy.start();
  }

  it('survives repeated restarts under 12 writers: 503 + Retry-After while down, health tells, recovers alone', async () => {
    const email = `outage-${Date.now()}@example.com`;
    const password = 'correct horse battery';
    await fetch(`${base}/api/v1/auth/register`, { method: 'POST', body: JSON.stringify({ email, password }) });
    const login: any = await (
      await fetch(`${base}/api/v1/auth/login`, { method: 'POST', body: JSON.stringify({ email, password }) })
    ).json();
    const created: any = await (
      await fetch(`${base}/api/v1/keys`, { method: 'POST', headers: { authorization: `Bearer ${login.token}` } })
    ).json();
    const key = created.api_key as string;

    const statuses = new Map<number, number>();
    let slowest = 0;
    let writing = true;
    let n = 0;
    const writer = async (w: number) => {
      while (writing) {
        const started = performance.now();
        const res = await fetch(`${base}/api/v1/url/shorten`, {
          method: 'POST',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: JSON.stringify({ url: `https://example.com/${w}/${n++}` }),
        }).catch(() => undefined);
        await res?.arrayBuffer();
        slowest = Math.max(slowest, performance.now() - started);
        const status = res?.status ?? 0;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const writers = Array.from({ length: 12 }, (_, w) => writer(w));

    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 700));
      await restartDatabase(2500, async () => {
        // The database stays away until this check ends (restartDatabase waits for it): an
        // answer at all proves the service refused at once instead of waiting for it, with no
        // wall-clock bound to miss on a busy machine (issue 33 item 9).
        const res = await fetch(`${base}/api/v1/url/shorten`, {
          method: 'POST',
          headers: { 'x-api-key': key },
          body: JSON.stringify({ url: 'https://example.com/during-outage' }),
        });
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await res.json()).toMatchObject({ success: false, code: 503, error_code: 'DATABASE_UNAVAILABLE' });
        const ready = await fetch(`${base}/healthz`);
        expect(ready.status, 'readiness while down').toBe(503);
        expect(await ready.json()).toMatchObject({ status: 'unavailable', database: 'down' });
        expect((await fetch(`${base}/healthz/live`)).status).toBe(200);
      });
      // Recovers by itself: ready again within a few seconds.
      let ready = 0;
      for (let i = 0; i < 40 && ready !== 200; i++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        ready = (await fetch(`${base}/healthz`)).status;
      }
      expect(ready, `not ready again after round ${round}`).toBe(200);
    }
    writing = false;
    await Promise.all(writers);

    expect(server.child.exitCode, server.output().slice(-3000)).toBeNull();
    const after = await fetch(`${base}/api/v1/url/shorten`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: JSON.stringify({ url: 'https://example.com/after' }),
    });
    expect(after.status, 'a call after the restarts').toBe(200);
    expect(
      [...statuses.keys()].filter((status) => status !== 200 && status !== 503),
      JSON.stringify([...statuses]),
    ).toEqual([]);
    expect(slowest).toBeLessThan(8000);
  }, 120_000);
});
