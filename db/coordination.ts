import { randomInt } from 'node:crypto';
import { EventEmitter } from 'node:events';
import postgres from 'postgres';

/**
 * What instances sharing one database tell each other, and how one knows another is gone.
 * On PostgreSQL: LISTEN/NOTIFY, and a session advisory lock on the instance id held for the
 * life of the process (a `kill -9` closes the socket, PostgreSQL releases the lock at once).
 * On PGlite there is one process (the data directory is locked), so both are in-process.
 */
export interface Coordination {
  /** Random per process start; `pg_try_advisory_xact_lock(INSTANCE_LOCK_CLASS, id)` fails while it lives. */
  instanceId: number;
  /**
   * Calls `onMessage` with each payload sent on `channel` by any instance (this one included),
   * and `onReady` once listening and again after each reconnection: notifications sent while
   * the connection was down are lost, so whoever caches must forget everything there.
   */
  listen(channel: string, onMessage: (payload: string) => void, onReady: () => void): Promise<void>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/** First key of the two-key advisory locks naming live instances (an arbitrary constant). */
export const INSTANCE_LOCK_CLASS = 1_720_17;

function newInstanceId(): number {
  return randomInt(1, 2 ** 31 - 1);
}

export function createLocalCoordination(): Coordination {
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    instanceId: newInstanceId(),
    async listen(channel, onMessage, onReady) {
      events.on(channel, onMessage);
      onReady();
    },
    async notify(channel, payload) {
      events.emit(channel, payload);
    },
    async close() {
      events.removeAllListeners();
    },
  };
}

/**
 * PostgreSQL coordination: a listener connection (postgres.js re-listens after a drop) and one
 * connection that only holds this instance's advisory lock, taken again after a reconnection.
 */
export async function createPostgresCoordination(client: postgres.Sql, url: string): Promise<Coordination> {
  const instanceId = newInstanceId();
  let ended = false;
  const lockSession = postgres(url, {
    max: 1,
    max_lifetime: null, // never recycled: closing it would release the lock
    onnotice: () => {},
    connection: { application_name: `ai-utility-hub instance ${instanceId}` },
    onclose: () => {
      if (!ended) void takeLock().catch(() => retryLock());
    },
  });
  const takeLock = () => lockSession`select pg_advisory_lock(${INSTANCE_LOCK_CLASS}::int, ${instanceId}::int)`;
  let retry: NodeJS.Timeout | undefined;
  function retryLock(): void {
    retry = setTimeout(() => void takeLock().catch(() => !ended && retryLock()), 1000);
    retry.unref();
  }
  await takeLock();

  return {
    instanceId,
    async listen(channel, onMessage, onReady) {
      await client.listen(channel, onMessage, onReady);
    },
    async notify(channel, payload) {
      await client.notify(channel, payload);
    },
    async close() {
      ended = true;
      clearTimeout(retry);
      await lockSession.end({ timeout: 5 });
    },
  };
}
