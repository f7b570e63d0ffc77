import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpMigratedPglite, migrationsFolder } from '../db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A `dumpDataDir` tarball of a migrated PGlite database: every test app starts from it. */
    pgliteTemplate: string;
  }
}

const TEMPLATE_PREFIX = 'aih-pglite-template-';
const UNUSED_TEMPLATE_MS = 24 * 3600_000;

/**
 * Provides one migrated PGlite database for the whole run: the ~40 apps and databases the tests
 * open load this copy (`pgliteTemplate`) instead of creating a cluster and applying the
 * migrations each time. Making it costs ~4 s of CPU before any test can start, so it is kept in
 * the temporary directory under a name that changes with the migrations and the PGlite version.
 */
export default async function setup(project: TestProject): Promise<void> {
  const file = join(tmpdir(), `${TEMPLATE_PREFIX}${await templateKey()}.tar`);
  if (existsSync(file)) await utimes(file, new Date(), new Date());
  else await writeTemplate(file);
  project.provide('pgliteTemplate', file);
}

/** Digest of every migration file, of the PGlite version and of how the copy is made: what the template's contents depend on. */
async function templateKey(): Promise<string> {
  const hash = createHash('sha256').update(dumpMigratedPglite.toString());
  // The package does not export its package.json: it lies one folder above the entry point.
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  hash.update(await readFile(join(dirname(pgliteEntry), '..', 'package.json')));
  const files = await readdir(migrationsFolder, { recursive: true, withFileTypes: true });
  const paths = files.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
  for (const path of paths.sort()) hash.update(path.slice(migrationsFolder.length)).update(await readFile(path));
  return hash.digest('hex').slice(0, 16);
}

/** Written beside its final name and renamed: a run starting meanwhile never reads half a file. */
async function writeTemplate(file: string): Promise<void> {
  await removeOutdatedTemplates();
  const partial = `${file}.${process.pid}.partial`;
  const template = await dumpMigratedPglite();
  await writeFile(partial, Buffer.from(await template.arrayBuffer()));
  await rename(partial, file);
}

/**
 * Templates (40 MB each) no run has used for a day go: one another checkout is using right now
 * (other migrations, a run in progress) is touched at each start and stays.
 */
async function removeOutdatedTemplates(): Promise<void> {
  const names = (await readdir(tmpdir())).filter((name) => name.startsWith(TEMPLATE_PREFIX) && name.endsWith('.tar'));
  for (const path of names.map((name) => join(tmpdir(), name))) {
    const unused = Date.now() - (await stat(path)).mtimeMs > UNUSED_TEMPLATE_MS;
    if (unused) await rm(path, { force: true });
  }
}
