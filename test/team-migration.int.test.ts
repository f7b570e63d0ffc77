import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from '../db/client.js';
import { schema } from '../db/schema.js';

/**
 * Issue 48: the accounts of before become teams of one. The database is migrated to the last
 * migration before teams (0021), given an account with a session and a key as the service made
 * them, then migrated on: the same e-mail and password hash are its owner's, the session and key
 * carry on.
 */
describe('migration 0022 (teams)', () => {
  it('makes every existing account a team whose owner is its user, keeping sessions and keys', async () => {
    const before = mkdtempSync(join(tmpdir(), 'aih-migrations-'));
    const client = new PGlite();
    try {
      cpSync(migrationsFolder, before, { recursive: true });
      const journalPath = join(before, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
      const teams = journal.entries.findIndex((entry) => entry.tag === '0022_teams');
      expect(teams).toBeGreaterThan(0);
      journal.entries = journal.entries.slice(0, teams);
      writeFileSync(journalPath, JSON.stringify(journal));
      const db = drizzle({ client, schema });
      await migrate(db, { migrationsFolder: before });

      await client.exec(`
        insert into accounts (email, password_hash) values ('kim@example.com', 'scrypt$kim'), ('lee@example.com', 'scrypt$lee');
        insert into sessions (account_id, token_hash, expires_at) values (1, 'session-of-kim', now() + interval '1 day');
        insert into api_keys (account_id, name, prefix, key_hash) values (2, 'lee key', 'aik_lee', 'hash-of-lee-key');
      `);
      await migrate(db, { migrationsFolder });

      const members = await db.execute(sql`select account_id, email, password_hash, role from team_members order by account_id`);
      expect(members.rows).toEqual([
        { account_id: 1, email: 'kim@example.com', password_hash: 'scrypt$kim', role: 'owner' },
        { account_id: 2, email: 'lee@example.com', password_hash: 'scrypt$lee', role: 'owner' },
      ]);
      const session = await db.execute(
        sql`select m.email from sessions s join team_members m on m.id = s.member_id where s.token_hash = 'session-of-kim'`,
      );
      expect(session.rows).toEqual([{ email: 'kim@example.com' }]);
      const key = await db.execute(sql`select account_id, created_by from api_keys where key_hash = 'hash-of-lee-key'`);
      expect(key.rows).toEqual([{ account_id: 2, created_by: null }]);
      // The password lives with the member alone now.
      const columns = await db.execute(sql`select column_name from information_schema.columns where table_name = 'accounts'`);
      expect(columns.rows.map((row) => (row as { column_name: string }).column_name).sort()).toEqual(['created_at', 'email', 'id']);
    } finally {
      await client.close();
      rmSync(before, { recursive: true, force: true });
    }
  });
});
