/**
 * Whether the database can be reached, as the doors need to know it: a query that failed
 * because PostgreSQL is away (restart, failover, network) is a 503 with `Retry-After`, not a
 * 500; while it is away, requests are refused at once instead of each waiting on a connection;
 * a probe notices the return and the service carries on by itself.
 */

/** Connection-level failures: socket errors, postgres.js's own codes, SQLSTATE class 08 and shutdowns. */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  '57P01', // admin_shutdown ("terminating connection due to administrator command")
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now ("the database system is starting up")
  '53300', // too_many_connections
]);

/**
 * A full disk: SQLSTATE 53100 `disk_full` (PostgreSQL, and PGlite, whose embedded server turns
 * its file system's ENOSPC into the same error: "could not extend file …: No space left on
 * device"), or ENOSPC itself from a driver that reports the file system's error raw.
 */
const DISK_FULL_CODES = new Set(['53100', 'ENOSPC']);

/** SQLSTATE 57014: the statement ran past `statement_timeout` (or was cancelled). */
const STATEMENT_TIMEOUT = '57014';

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    current = (current as { cause?: unknown }).cause;
  }
  return codes;
}

/** True when the error (or its cause, as drizzle wraps it) means the database could not be reached. */
export function isDatabaseOutage(error: unknown): boolean {
  return codesOf(error).some((code) => OUTAGE_CODES.has(code) || code.startsWith('08'));
}

/** True when a write failed because the database's disk is full. */
export function isDiskFull(error: unknown): boolean {
  return codesOf(error).some((code) => DISK_FULL_CODES.has(code));
}

export function isStatementTimeout(error: unknown): boolean {
  return codesOf(error).includes(STATEMENT_TIMEOUT);
}

export interface DatabaseMonitorOptions {
  /** A cheap query (`select 1`); rejects while the database is away. */
  probe: () => Promise<unknown>;
  /** How often the probe runs while the database is away. */
  probeIntervalMs?: number;
  /** A probe that has not answered by then counts as failed (a wedged connection must not stall recovery). */
  probeTimeoutMs?: number;
  onChange?: (available: boolean, error?: unknown) => void;
  /** A small committed write; after a disk-full error it decides when storage is writable again. */
  writeProbe?: () => Promise<unknown>;
  onStorageChange?: (writable: boolean, error?: unknown) => void;
}

export interface DatabaseMonitor {
  /** False from the first outage error until a probe succeeds. */
  available(): boolean;
  /**
   * False from a disk-full error until a write succeeds again: true at once while no such error
   * was seen, else runs the write probe (reads keep working meanwhile; writes answer 503).
   */
  writable(): Promise<boolean>;
  /** Feeds a failure seen anywhere; an outage error marks the database away, a disk-full error storage full. */
  observe(error: unknown): void;
  stop(): void;
}

export function createDatabaseMonitor(options: DatabaseMonitorOptions): DatabaseMonitor {
  const interval = options.probeIntervalMs ?? 1000;
  const probeTimeout = options.probeTimeoutMs ?? 3000;
  let up = true;
  let checking = false;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let full = false;
  let writeCheck: Promise<boolean> | undefined;

  /** One write probe at a time, however many readiness checks ask. */
  function checkWritable(): Promise<boolean> {
    writeCheck ??= withTimeout((options.writeProbe ?? options.probe)(), probeTimeout)
      .then(
        () => {
          full = false;
          options.onStorageChange?.(true);
          return true;
        },
        () => false,
      )
      .finally(() => (writeCheck = undefined));
    return writeCheck;
  }

  /** Probes now; while it fails the database is away and the probe repeats every `interval`. */
  function check(): void {
    if (stopped || checking) return;
    checking = true;
    withTimeout(options.probe(), probeTimeout).then(
      () => {
        checking = false;
        if (!up) options.onChange?.(true);
        up = true;
      },
      (error: unknown) => {
        checking = false;
        if (up) options.onChange?.(false, error);
        up = false;
        if (stopped) return;
        timer = setTimeout(check, interval);
        timer.unref();
      },
    );
  }

  return {
    available: () => up,
    writable: () => (full ? checkWritable() : Promise.resolve(true)),
    observe(error) {
      if (!full && isDiskFull(error)) {
        full = true;
        options.onStorageChange?.(false, error);
      }
      // One failed query is a suspicion (a single backend may have been terminated): the probe confirms.
      if (up && isDatabaseOutage(error)) check();
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error('database probe timed out'), { code: 'CONNECT_TIMEOUT' })), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
