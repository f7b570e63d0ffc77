import { openAsBlob } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { inject } from 'vitest';
import type { MemoryPglite } from '../../db/client.js';

/** Emptied databases kept for the next test app of this worker; more would only hold memory. */
const MAX_IDLE = 4;

const idle: PGlite[] = [];
/** What each handed-out stand-in stands for, and how to retire it. */
const leases = new WeakMap<PGlite, { client: PGlite; retire(): void }>();

/**
 * The tests' `memory://` databases: copies of the run's migrated database (test/global-setup.ts),
 * each loaded once per worker and then reused. Loading a copy costs ~0.6 s of CPU, and the suite
 * opens about fifty; a database given back is emptied (every table truncated, identities
 * restarted: what a fresh copy holds) and handed to the next app. Undefined when the run has no
 * template (a test started without the global setup).
 */
export function testMemoryPglite(): MemoryPglite | undefined {
  const template = inject('pgliteTemplate');
  return template ? { take: () => take(template), giveBack } : undefined;
}

async function take(template: string): Promise<PGlite> {
  const client = idle.pop() ?? new PGlite({ loadDataDir: await openAsBlob(template) });
  const { stand, retire } = standIn(client);
  leases.set(stand, { client, retire });
  return stand;
}

async function giveBack(stand: PGlite): Promise<void> {
  const lease = leases.get(stand);
  if (!lease) throw new Error('not a database this pool handed out');
  leases.delete(stand);
  lease.retire();
  if (idle.length >= MAX_IDLE) return lease.client.close();
  await empty(lease.client);
  idle.push(lease.client);
}

/**
 * The database as its app sees it: once given back, every use fails as on a closed PGlite, so
 * that a late write of a stopped app can never land in the next test's database.
 */
function standIn(client: PGlite): { stand: PGlite; retire(): void } {
  let retired = false;
  const stand = new Proxy(client, {
    get(target, property) {
      if (property === 'closed') return retired || target.closed;
      if (retired) throw new Error('PGlite is closed');
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { stand, retire: () => (retired = true) };
}

/** Back to the migrated state: the migrations write no rows, so that is every table empty. */
async function empty(client: PGlite): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    "select format('%I', tablename) as name from pg_tables where schemaname = 'public'",
  );
  await client.exec(`truncate ${rows.map((row) => row.name).join(', ')} restart identity cascade`);
}
