import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { createLocalCoordination, createPostgresCoordination, type Coordination } from './coordination.js';
import { lockDataDir, type DirLockOptions } from './lock.js';
import { schema } from './schema.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
/** What runs a statement: the database, or a transaction of it (a change and its audit row commit together). */
export type Executor = Database | Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** A trivial query: resolves when the database answers (readiness probe). */
  ping(): Promise<unknown>;
  /** A small committed write: rejects while the disk is full (see db/availability.ts). */
  writeProbe(): Promise<unknown>;
  /** Notifications between instances and this instance's liveness (db/coordination.ts). */
  coordination: Coordination;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** PGlite directory, or `memory://` for a throw-away database (tests). */
  dataDir: string;
  /** How the PGlite directory lock waits and reports (api/server.ts tells the user). */
  lock?: DirLockOptions;
  /** PostgreSQL cancels any statement running longer (its `statement_timeout`). */
  statementTimeoutMs?: number;
  /** Where a `memory://` PGlite database comes from and goes back to on close (the tests). */
  memoryPglite?: MemoryPglite;
}

/**
 * Hands out `memory://` databases and takes them back. Without one, each is a new empty cluster
 * (seconds of CPU), closed with its handle. The tests' source hands out migrated copies (see
 * `dumpMigratedPglite`; pending migrations still apply) and reuses the ones given back.
 */
export interface MemoryPglite {
  take(): Promise<PGlite>;
  /** The handle is closed: the database is no longer used through it. */
  giveBack(client: PGlite): Promise<void>;
}

/** How long a new PostgreSQL connection may take before the query fails (a host that drops packets). */
const CONNECT_TIMEOUT_SECONDS = 3;

/** The committed drizzle-kit migrations, next to this file (tsx) or in the project when it runs from dist/db/. */
const here = dirname(fileURLToPath(import.meta.url));
export const migrationsFolder =
  [join(here, 'migrations'), join(here, '..', '..', 'db', 'migrations')].find((dir) => existsSync(dir)) ?? join(here, 'migrations');

/** Opens the database and applies pending migrations before anything uses it. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.statementTimeoutMs)
    : openPglite(options.dataDir, options.lock, options.memoryPglite);
}

/** A fresh in-memory PGlite database with every migration applied, as a `dumpDataDir` tarball: the tests' template (for `MemoryPglite` and their server processes). */
export async function dumpMigratedPglite(): Promise<Blob> {
  const client = new PGlite();
  try {
    await client.waitReady;
    await migratePglite(drizzlePglite({ client, schema }), { migrationsFolder });
    // The copies are test databases holding a few hundred rows: initdb's 128 MB of shared
    // buffers took ~0.4 s of CPU to set up at every open of one (postgresql.auto.conf, copied along).
    await client.query("ALTER SYSTEM SET shared_buffers = '16MB'");
    // Written out before the copy: a copy taken mid-log replays the migrations' WAL at every
    // open (~0.4 s of CPU for each test database and server process started from it).
    await client.query('CHECKPOINT');
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}

async function openPglite(dataDir: string, lockOptions?: DirLockOptions, source?: MemoryPglite): Promise<DatabaseHandle> {
  const inMemory = dataDir.startsWith('memory://');
  if (source && !inMemory) throw new Error('memoryPglite is only for a memory:// database');
  const lock = inMemory ? undefined : await lockDataDir(resolve(dataDir), lockOptions);
  try {
    const client = source ? await source.take() : new PGlite(inMemory ? undefined : resolve(dataDir));
    await client.waitReady;
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder });
    const coordination = createLocalCoordination();
    return {
      db: db as unknown as Database,
      kind: 'pglite',
      ping: () => client.query('select 1'),
      writeProbe: () => client.query(WRITE_PROBE),
      coordination,
      close: async () => {
        await coordination.close();
        await (source ? source.giveBack(client) : client.close());
        await lock?.release();
      },
    };
  } catch (error) {
    await lock?.release();
    throw error;
  }
}

/**
 * Committed to a real table, as an already ended throttle window (housekeeping sweeps it): a
 * full disk refuses it like any other write.
 */
const WRITE_PROBE = `insert into throttle_windows (key, hits, window_ends_at) values ('storage-probe', 0, now())
  on conflict (key) do update set window_ends_at = excluded.window_ends_at`;

/** Arbitrary constant shared by every instance: serializes migrations across processes. */
const MIGRATION_LOCK_ID = 720_2026;

/**
 * postgres.js survives server restarts: it reconnects on the next query. The patched
 * `nextWrite` (patches/postgres+*.patch, porsager/postgres#1208) turns a write racing a closed
 * connection into a rejected query instead of an uncaught exception that ends the process.
 */
async function openPostgres(url: string, statementTimeoutMs = 10_000): Promise<DatabaseHandle> {
  await migrateWithLock(url);
  const client = postgres(url, {
    max: 10,
    onnotice: () => {},
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    // The default backoff grows to 20 s between reconnects, and queries wait in line meanwhile:
    // retry within a second, so a caller learns at once that the database is away (503).
    backoff: (retries: number) => Math.min(0.05 * retries, 1),
    // Idle connections are closed after a minute, so few stale ones meet a restarted server.
    idle_timeout: 60,
    connection: { application_name: 'ai-utility-hub', statement_timeout: statementTimeoutMs },
  });
  const db = drizzlePostgres({ client, schema });
  const coordination = await createPostgresCoordination(client, url);
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    ping: () => pingPostgres(url),
    writeProbe: () => client.unsafe(WRITE_PROBE),
    coordination,
    close: async () => {
      await coordination.close();
      await client.end({ timeout: 5 });
    },
  };
}

/**
 * One fresh connection per readiness probe: the pool may be full of work or mid-reconnect, and a
 * connection that lived through the outage must not decide whether the database is back.
 */
async function pingPostgres(url: string): Promise<void> {
  const probe = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 2, idle_timeout: 1, fetch_types: false });
  try {
    await probe`select 1`;
  } finally {
    void probe.end({ timeout: 0 }).catch(() => {});
  }
}

async function migrateWithLock(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
    await migratePostgres(drizzlePostgres({ client }), { migrationsFolder });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
