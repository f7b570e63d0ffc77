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
import { lockDataDir } from './lock.js';
import { schema } from './schema.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite database is used. */
  databaseUrl?: string;
  /** PGlite directory, or `memory://` for a throw-away database (tests). */
  dataDir: string;
}

/** The committed drizzle-kit migrations, next to this file (tsx) or in the project when it runs from dist/db/. */
const here = dirname(fileURLToPath(import.meta.url));
export const migrationsFolder = [join(here, 'migrations'), join(here, '..', '..', 'db', 'migrations')].find((dir) => existsSync(dir)) ?? join(here, 'migrations');

/** Opens the database and applies pending migrations before anything uses it. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.databaseUrl ? openPostgres(options.databaseUrl) : openPglite(options.dataDir);
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  const inMemory = dataDir.startsWith('memory://');
  const lock = inMemory ? undefined : lockDataDir(resolve(dataDir));
  try {
    const client = inMemory ? new PGlite() : new PGlite(resolve(dataDir));
    await client.waitReady;
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder });
    return {
      db: db as unknown as Database,
      kind: 'pglite',
      close: async () => {
        await client.close();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}

/** Arbitrary constant shared by every instance: serializes migrations across processes. */
const MIGRATION_LOCK_ID = 720_2026;

async function openPostgres(url: string): Promise<DatabaseHandle> {
  await migrateWithLock(url);
  const client = postgres(url, { max: 10, onnotice: () => {}, connection: { application_name: 'ai-utility-hub' } });
  const db = drizzlePostgres({ client, schema });
  return {
    db: db as unknown as Database,
    kind: 'postgres',
    close: () => client.end({ timeout: 5 }),
  };
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
