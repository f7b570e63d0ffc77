import { mkdirSync, readFileSync, readlinkSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

/**
 * PGlite is a single-process database: a second process opening the same directory would
 * corrupt it. The directory is guarded by proper-lockfile: an atomic `mkdir` lock whose mtime
 * the holder refreshes every few seconds. A lock nobody refreshes any more is stale and taken
 * over, whoever's pid is written beside it — after a container restart that pid may well belong
 * to a live, unrelated process, which is why a live pid never proves a holder alive here. A dead
 * one can prove it gone: when the owner wrote its pid on this host, in this boot and this pid
 * namespace, and no process has that pid any more, its lock is taken over as soon as it has
 * missed a refresh, instead of after the whole stale period (a restart after a crash).
 */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface DirLock {
  release(): Promise<void>;
}

export interface DirLockOptions {
  /** A lock not refreshed for this long is stale (ms). The holder refreshes it every stale/5. */
  staleMs?: number;
  /** How long to wait for a held lock to be released or go stale before giving up (ms). */
  waitMs?: number;
  /** Told once when a held lock is found and we start waiting. */
  onWait?: (message: string) => void;
  /** The lock was lost (its directory removed, or not refreshed in time); default: stop the process. */
  onCompromised?: (error: Error) => void;
}

/** The lock directory and, beside it, who holds it (for the message only). */
export const LOCK_NAME = 'ai-utility-hub.lock';
export const OWNER_NAME = 'ai-utility-hub.owner';
const DEFAULT_STALE_MS = 10_000;

export async function lockDataDir(dir: string, options: DirLockOptions = {}): Promise<DirLock> {
  mkdirSync(dir, { recursive: true });
  const lockPath = join(dir, LOCK_NAME);
  removeLegacyPidFile(lockPath);
  const stale = options.staleMs ?? DEFAULT_STALE_MS;
  const waitMs = options.waitMs ?? stale + 2_000;
  const settings = {
    realpath: false,
    lockfilePath: lockPath,
    stale,
    update: Math.max(1_000, Math.floor(stale / 5)),
    onCompromised: options.onCompromised ?? stopOnLostLock(dir),
  };
  const deadline = Date.now() + waitMs;
  let told = false;
  let markedStale = false;
  for (;;) {
    try {
      const release = await lockfile.lock(dir, settings);
      writeOwner(dir);
      return { release: () => release().catch(() => undefined) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      // A lock refreshed within the last interval may have a new holder whose owner file is not written yet.
      if (!markedStale && lockAgeMs(lockPath) > settings.update + 1_000 && ownerIsGone(dir)) {
        markedStale = true;
        markStale(lockPath);
        continue;
      }
      if (Date.now() >= deadline) throw new DataDirLockedError(heldMessage(dir));
      if (!told) options.onWait?.(waitingMessage(dir, stale));
      told = true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(500, Math.max(50, deadline - Date.now()))));
    }
  }
}

interface Owner {
  pid?: number;
  host?: string;
  /** The kernel's boot id and the pid namespace: where a pid names one process. */
  boot?: string;
  pidns?: string;
  started_at?: string;
}

function writeOwner(dir: string): void {
  const owner: Owner = { pid: process.pid, host: hostname(), ...whereAPidHolds(), started_at: new Date().toISOString() };
  writeFileSync(join(dir, OWNER_NAME), JSON.stringify(owner));
}

/** Linux only; elsewhere a dead pid proves nothing and the lock waits to go stale. */
function whereAPidHolds(): { boot?: string; pidns?: string } {
  try {
    return { boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), pidns: readlinkSync('/proc/self/ns/pid') };
  } catch {
    return {};
  }
}

/** True only when the owner provably runs no more: same host, boot and pid namespace, and its pid is free. */
function ownerIsGone(dir: string): boolean {
  const owner = ownerOf(dir);
  const here = whereAPidHolds();
  if (!owner?.pid || owner.host !== hostname() || !here.boot || owner.boot !== here.boot || owner.pidns !== here.pidns) return false;
  try {
    process.kill(owner.pid, 0);
    return false; // alive, or its pid reused: wait for the lock to go stale
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function lockAgeMs(lockPath: string): number {
  try {
    return Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return 0;
  }
}

/** Dates the lock back, so that proper-lockfile takes it over as it takes over any stale lock. */
function markStale(lockPath: string): void {
  try {
    utimesSync(lockPath, new Date(0), new Date(0));
  } catch {
    // released meanwhile: the next attempt takes it
  }
}

/** The owner file beside the lock; undefined while a new holder has not written it yet, or when it is unreadable. */
function ownerOf(dir: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, OWNER_NAME), 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

function readOwner(dir: string): string {
  const owner = ownerOf(dir);
  return owner ? `process ${owner.pid ?? '?'} on ${owner.host ?? '?'}` : 'another process';
}

function heldMessage(dir: string): string {
  return (
    `DATA_DIR ${dir} is already in use by ${readOwner(dir)}. ` +
    'Stop that process, point DATA_DIR elsewhere, or set DATABASE_URL to share one PostgreSQL.\n' +
    `데이터 디렉터리(${dir})를 다른 프로세스가 쓰고 있습니다. 그 프로세스를 멈추거나, ` +
    'DATA_DIR를 다른 곳으로 지정하거나, 여러 프로세스가 함께 쓰려면 DATABASE_URL로 PostgreSQL을 지정하세요.'
  );
}

function waitingMessage(dir: string, staleMs: number): string {
  return `DATA_DIR ${dir} is locked by ${readOwner(dir)}; waiting up to ${Math.round(staleMs / 1000)} s in case it has just stopped`;
}

function stopOnLostLock(dir: string): (error: Error) => void {
  return (error) => {
    process.stderr.write(
      `AI Utility Hub stops: the lock on DATA_DIR ${dir} was lost (${error.message}); ` + 'another process may be using the directory.\n',
    );
    process.exit(1);
  };
}

/** Earlier versions kept a pid file where the lock directory now lives; it proves nothing. */
function removeLegacyPidFile(lockPath: string): void {
  try {
    if (statSync(lockPath).isFile()) unlinkSync(lockPath);
  } catch {
    // absent
  }
}
