import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * PGlite is a single-process database: a second process opening the same directory would
 * corrupt it. A lock file holding the owner's pid keeps the second one out with a clear error;
 * a lock left by a process that no longer runs is taken over.
 */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
}

export interface DirLock {
  release(): void;
}

export function lockDataDir(dir: string): DirLock {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'ai-utility-hub.lock');
  const owner = `${process.pid}@${hostname()}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, owner);
      closeSync(fd);
      return { release: () => releaseIfOwned(path, owner) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(path);
      if (holder && isAlive(holder)) {
        throw new DataDirLockedError(
          `DATA_DIR ${dir} is already in use by process ${holder.pid} on ${holder.host}. ` +
            'Stop that process, point DATA_DIR elsewhere, or set DATABASE_URL to share PostgreSQL.',
        );
      }
      unlinkSync(path); // stale: its owner is gone
    }
  }
  throw new DataDirLockedError(`Could not lock DATA_DIR ${dir}: another process is starting with it.`);
}

function readHolder(path: string): { pid: number; host: string } | undefined {
  try {
    const [pid, host] = readFileSync(path, 'utf8').trim().split('@');
    const parsed = Number(pid);
    return Number.isInteger(parsed) && parsed > 0 ? { pid: parsed, host: host ?? '' } : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(holder: { pid: number; host: string }): boolean {
  if (holder.host !== hostname()) return true; // another machine on a shared disk: assume alive
  if (holder.pid === process.pid) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function releaseIfOwned(path: string, owner: string): void {
  try {
    if (readFileSync(path, 'utf8') === owner) unlinkSync(path);
  } catch {
    // already gone
  }
}
