import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { dumpMigratedPglite } from '../db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A `dumpDataDir` tarball of a migrated PGlite database: every test app starts from it. */
    pgliteTemplate: string;
  }
}

/**
 * Creates and migrates one PGlite database for the whole run: the ~40 apps and databases the
 * tests open load this copy (`pgliteTemplate`) instead of creating a cluster and applying the
 * migrations each time.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'aih-pglite-template-'));
  const file = join(dir, 'migrated.tar');
  const template = await dumpMigratedPglite();
  await writeFile(file, Buffer.from(await template.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return () => rm(dir, { recursive: true, force: true });
}
