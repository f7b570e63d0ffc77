import { rmSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.js';
import { quotaHolds, shortLinks, subscriptions } from '../db/schema.js';
import { callJson, migratedDataDir, signUpOver, startServerProcess, type ServerProcess } from './helpers/process.js';

// Room for three full rounds (below): a round that ran out of quota would look cut off.
const QUOTA = 5000;
// Large enough that the kill lands mid-burst: on PostgreSQL the service answered all of 100 before it did.
const BURST = 400;
const dataDir = migratedDataDir('aih-crash-');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The server as `npm start` runs it, on the test's database (a PGlite directory, or TEST_DATABASE_URL). */
function databaseEnv(): Record<string, string> {
  return process.env.TEST_DB === 'postgres' ? { DATABASE_URL: process.env.TEST_DATABASE_URL! } : { DATA_DIR: dataDir };
}

function start(): ServerProcess {
  return startServerProcess({ ...databaseEnv(), DEFAULT_QUOTA: String(QUOTA), WATCH_CRON: 'off', URL_LIST_REFRESH: 'off' });
}

/**
 * BURST concurrent shortens; kill -9 once ten have been answered. Returns how many were answered:
 * fewer than BURST when the kill cut calls off, all of them when the service answered the whole
 * burst before the test saw ten answers (a loaded machine delays the test's process, not the
 * service's).
 */
async function burstUntilKilled(server: ServerProcess, base: string, apiKey: string, round: number): Promise<number> {
  let answered = 0;
  const burst = Array.from({ length: BURST }, (_, i) =>
    callJson(base, 'POST', '/api/v1/url/shorten', { url: `https://example.com/crash/${round}/${i}` }, { 'x-api-key': apiKey }).then(
      (res) => {
        if (res.status === 200) answered++;
        if (answered === 10) server.child.kill('SIGKILL');
      },
      () => {}, // cut off by the kill
    ),
  );
  await Promise.all(burst);
  await server.exited;
  return answered;
}

describe('a process killed in the middle of a burst', () => {
  it('charges exactly the links that exist, and every answered call stays charged', async () => {
    const first = start();
    const { accountId, apiKey } = await signUpOver(`http://127.0.0.1:${await first.ready}`, 'crash');

    // Until a kill cuts calls off (at most three rounds): a round answered in full tested no crash.
    let answered = 0;
    let cutOff = 0;
    for (let round = 0; round < 3 && cutOff === 0; round++) {
      const server = round === 0 ? first : start();
      const inRound = await burstUntilKilled(server, `http://127.0.0.1:${await server.ready}`, apiKey, round);
      expect(inRound).toBeGreaterThan(0);
      answered += inRound;
      cutOff += BURST - inRound;
    }
    expect(cutOff).toBeGreaterThan(0);

    // The restarted service gives back what the dead one held (at start; on PostgreSQL also
    // every few seconds, once the dead session is gone).
    const second = start();
    await second.ready;
    const database =
      process.env.TEST_DB === 'postgres' ? await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir }) : undefined;
    if (database) {
      const deadline = Date.now() + 15_000;
      while ((await countHolds(database.db, accountId)) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      await database.close();
    }
    second.child.kill('SIGTERM');
    await second.exited;

    const { db, close } = await openDatabase({ databaseUrl: databaseEnv().DATABASE_URL, dataDir });
    try {
      expect(await countHolds(db, accountId)).toBe(0);
      const [links] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(shortLinks)
        .where(eq(shortLinks.accountId, accountId));
      const [row] = await db
        .select()
        .from(subscriptions)
        .where(and(eq(subscriptions.accountId, accountId), eq(subscriptions.api, 'url-shortener')));
      const used = QUOTA - row!.remaining;
      // Exactly once: every link made is charged, once, and nothing is charged without its link
      // (the insert counts its call off in the same statement); every answered call is among them.
      expect(used).toBe(links!.n);
      expect(used).toBeGreaterThanOrEqual(answered);
    } finally {
      await close();
    }
  }, 90_000);
});

async function countHolds(db: Awaited<ReturnType<typeof openDatabase>>['db'], accountId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(quotaHolds)
    .where(eq(quotaHolds.accountId, accountId));
  return row!.n;
}
