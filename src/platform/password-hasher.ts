import { AppError } from '../errors.js';
import { hashPassword, verifyPassword } from './secrets.js';

export interface PasswordHasherOptions {
  /** Hashes running at once: each holds a libuv thread (~430 ms, 32 MiB), which image decoding and DNS share. */
  concurrency: number;
  /** Hashes waiting for a slot (default 8); beyond it the log-in is refused before hashing (429 + Retry-After). */
  maxWaiting?: number;
  hash?: (password: string) => Promise<string>;
  verify?: (password: string, stored: string) => Promise<boolean>;
}

/**
 * scrypt in a lane of its own: a small semaphore (PASSWORD_HASH_CONCURRENCY, default 1) and a
 * short queue. A flood of log-ins waits here instead of filling the libuv pool (4 threads by
 * default, shared with image decoding and DNS) and the CPU, and past the queue it is refused
 * at once, before any hashing, so paying calls keep their threads and cores (issue 33 item 8:
 * an OCR call went from 1.1 s to 3.5 s under 32 connections of wrong log-ins).
 */
/** A queue of 8 hashes of ~0.4 s each drains in a few seconds. */
const BUSY_RETRY_AFTER_SECONDS = 2;

export function createPasswordHasher(options: PasswordHasherOptions) {
  const maxWaiting = options.maxWaiting ?? 8;
  const hash = options.hash ?? hashPassword;
  const verify = options.verify ?? verifyPassword;
  let running = 0;
  const waiting: Array<() => void> = [];

  /** 429 when the lane and its queue are full: a refused log-in costs neither a hash nor a write. */
  function refuseIfFull(): void {
    if (running >= options.concurrency && waiting.length >= maxWaiting) {
      throw new AppError(
        'RATE_LIMITED',
        '로그인 요청이 몰려 지금은 처리하지 못했습니다. 잠시 후 다시 시도하세요.',
        {},
        BUSY_RETRY_AFTER_SECONDS,
      ).en('Too many log-ins are being processed right now. Please try again shortly.');
    }
  }

  async function withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (running >= options.concurrency) {
      refuseIfFull();
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running++;
    }
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next)
        next(); // the slot passes on: `running` stays the same
      else running--;
    }
  }

  return {
    hash: (password: string) => withSlot(() => hash(password)),
    verify: (password: string, stored: string) => withSlot(() => verify(password, stored)),
    refuseIfFull,
    stats: () => ({ running, waiting: waiting.length }),
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
