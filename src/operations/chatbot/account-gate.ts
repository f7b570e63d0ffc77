import { AppError } from '../../errors.js';

export interface AccountGateOptions {
  /** Expensive calls of one account running at once. */
  concurrent: number;
  /** Calls of one account waiting for a turn; more are refused with 429. */
  queued: number;
  /** Longest wait for a turn, past which the caller is refused with 429 too (a deadline on the whole answer). */
  maxWaitMs?: number;
}

/**
 * Per-account concurrency for the chatbot's expensive actions (search, indexing): one tenant
 * sending many at once waits for its own turns, and past a short queue is told to retry,
 * instead of filling the database pool (or PGlite's single connection) ahead of every other
 * tenant. In process: each instance bounds its own share of the work.
 */
const tooMany = () =>
  new AppError('RATE_LIMITED', '이 계정의 지식 검색·저장 요청이 너무 많이 동시에 들어왔습니다. 잠시 후 다시 시도하세요.', {}, 1);

export function createAccountGate(options: AccountGateOptions) {
  const running = new Map<number, number>();
  const waiting = new Map<number, Array<() => void>>();

  async function acquire(accountId: number): Promise<void> {
    const active = running.get(accountId) ?? 0;
    if (active < options.concurrent) {
      running.set(accountId, active + 1);
      return;
    }
    const queue = waiting.get(accountId) ?? [];
    if (queue.length >= options.queued) throw tooMany();
    await new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer =
        options.maxWaitMs === undefined
          ? undefined
          : setTimeout(() => {
              queue.splice(queue.indexOf(turn), 1);
              if (queue.length === 0 && waiting.get(accountId) === queue) waiting.delete(accountId);
              reject(tooMany());
            }, options.maxWaitMs);
      queue.push(turn);
      waiting.set(accountId, queue);
    });
  }

  function release(accountId: number): void {
    const next = waiting.get(accountId)?.shift();
    if (next) return next(); // the turn passes on: the running count stays
    if (waiting.get(accountId)?.length === 0) waiting.delete(accountId);
    const active = (running.get(accountId) ?? 1) - 1;
    if (active > 0) running.set(accountId, active);
    else running.delete(accountId);
  }

  return {
    /** Runs `work` in one of the account's turns. */
    async run<T>(accountId: number, work: () => Promise<T>): Promise<T> {
      await acquire(accountId);
      try {
        return await work();
      } finally {
        release(accountId);
      }
    },
    /** Calls of the account running now (for tests). */
    running: (accountId: number) => running.get(accountId) ?? 0,
  };
}

export type AccountGate = ReturnType<typeof createAccountGate>;
