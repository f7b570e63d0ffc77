import { AppError } from '../errors.js';
import { hashPassword, verifyPassword } from './secrets.js';

export interface PasswordHasherOptions {
  /** Hashes running at once: each holds a libuv thread (~430 ms, 32 MiB), which image decoding and DNS share. */
  concurrency: number;
  /** Hashes waiting for a slot; beyond it the request is refused at once (503 + Retry-After). */
  maxWaiting?: number;
  hash?: (password: string) => Promise<string>;
  verify?: (password: string, stored: string) => Promise<boolean>;
}

/**
 * scrypt behind a small semaphore: a flood of log-ins queues here instead of filling the
 * libuv pool (4 threads by default), so the rest of the service keeps its threads.
 */
export function createPasswordHasher(options: PasswordHasherOptions) {
  const maxWaiting = options.maxWaiting ?? 64;
  const hash = options.hash ?? hashPassword;
  const verify = options.verify ?? verifyPassword;
  let running = 0;
  const waiting: Array<() => void> = [];

  async function withSlot<T>(work: () => Promise<T>): Promise<T> {
    if (running >= options.concurrency) {
      if (waiting.length >= maxWaiting) {
        throw new AppError('UNAVAILABLE', '로그인 요청이 몰려 처리하지 못했습니다. 잠시 후 다시 시도하세요.', {}, 1);
      }
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
    stats: () => ({ running, waiting: waiting.length }),
  };
}

export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
