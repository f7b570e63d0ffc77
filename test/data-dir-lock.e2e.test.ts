import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_NAME, lockDataDir, OWNER_NAME } from '../db/lock.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'aih-lock-'));
  dirs.push(dir);
  return dir;
}

/** Another process that takes the lock (2 s stale) and keeps it until killed. */
function holder(dir: string) {
  const code = `const { lockDataDir } = await import('./db/lock.ts');
    await lockDataDir(${JSON.stringify(dir)}, { staleMs: 2000 });
    process.stdout.write('locked\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root });
  const locked = new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    child.once('exit', (status) => reject(new Error(`holder exited with ${status}`)));
  });
  return { child, locked };
}

/** A holder that took the lock and was then killed (`kill -9`), leaving its lock and owner file behind. */
async function killedHolder(dir: string) {
  const first = holder(dir);
  await first.locked;
  first.child.kill('SIGKILL');
  await new Promise((resolve) => first.child.once('exit', resolve));
  return first;
}

describe('the data directory lock', () => {
  it('takes over a lock left before a container restart, though its pid now belongs to a live unrelated process', async () => {
    const dir = freshDir();
    // What a killed container leaves on its volume: the lock directory, not refreshed since,
    // and an owner pid that the new container has handed to some other live process.
    const lockPath = join(dir, LOCK_NAME);
    mkdirSync(lockPath);
    writeFileSync(join(dir, OWNER_NAME), JSON.stringify({ pid: process.ppid, host: hostname() }));
    const then = new Date(Date.now() - 60_000);
    utimesSync(lockPath, then, then);

    const started = Date.now();
    const lock = await lockDataDir(dir, { waitMs: 0 });
    expect(Date.now() - started).toBeLessThan(2_000);
    await lock.release();
  });

  it('takes over from a holder killed a moment ago once its lock goes stale, saying that it waits', async () => {
    const dir = freshDir();
    const first = await killedHolder(dir);

    const told: string[] = [];
    const lock = await lockDataDir(dir, { staleMs: 2000, waitMs: 6000, onWait: (message) => told.push(message) });
    expect(told).toEqual([expect.stringMatching(new RegExp(`locked by process ${first.child.pid} .*waiting up to 2 s`))]);
    await lock.release();
  });

  it('takes over at once, not after the stale period, from a holder known dead on this machine', async () => {
    const dir = freshDir();
    const first = await killedHolder(dir);

    // The default stale period is 10 s; the dead holder's pid is free in this boot and namespace.
    const started = Date.now();
    const lock = await lockDataDir(dir, { waitMs: 8_000 });
    expect(Date.now() - started).toBeLessThan(6_000);
    await lock.release();
  });

  it('does not take a fresh lock over on the word of an owner file from another machine', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, LOCK_NAME));
    // A pid nobody has here, written by another host: it proves nothing about this lock.
    writeFileSync(join(dir, OWNER_NAME), JSON.stringify({ pid: 2 ** 22 + 7, host: `not-${hostname()}` }));
    const old = new Date(Date.now() - 5_000);
    utimesSync(join(dir, LOCK_NAME), old, old);
    const error = await lockDataDir(dir, { waitMs: 500 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DataDirLockedError);
  });

  it('keeps a second process out while the holder lives, naming it in English and Korean', async () => {
    const dir = freshDir();
    const first = holder(dir);
    await first.locked;
    try {
      // Longer than the stale period: a live holder keeps refreshing its lock.
      const error = await lockDataDir(dir, { staleMs: 2000, waitMs: 3000 }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as Error).message).toContain(`is already in use by process ${first.child.pid} on ${hostname()}`);
      expect((error as Error).message).toContain('DATA_DIR를 다른 곳으로 지정하거나');
    } finally {
      first.child.kill('SIGKILL');
    }
  });

  it('is free again after release', async () => {
    const dir = freshDir();
    await (await lockDataDir(dir)).release();
    await (await lockDataDir(dir, { waitMs: 0 })).release();
  });
});
