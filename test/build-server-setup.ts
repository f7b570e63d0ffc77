import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The service transpiled to JavaScript for this run: server processes run `<serverBuild>/api/server.js`. */
    serverBuild: string;
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));
/** One folder deep in the project, as `dist/` is: the code finds the project root and `db/migrations` from there. */
const OUT_DIR = join(root, '.test-build');
/** Names the Vitest process (all tiers' setups run in it) that made the copy. */
const RUN_FILE = 'built-by-run';

/**
 * Transpiles the service file by file, as `npm run build` does, once for the run (~0.5 s). A
 * server process started from this copy needs 1.7 s of CPU to be ready, against 3.0 s through tsx,
 * which transforms and resolves every module again in each process. `npm start` itself stays
 * tested by the production-path test (watch.e2e).
 */
export default async function setup(project: TestProject): Promise<void> {
  // In watch mode an edit must reach the next run's processes without a new setup: they run the sources through tsx.
  if (project.config.watch) return;
  if (!(await builtByThisRun())) await transpile();
  project.provide('serverBuild', OUT_DIR);
}

/** Each end-to-end tier asks in its setup: the second must not remove the copy the first's processes may use. */
async function builtByThisRun(): Promise<boolean> {
  return (await readFile(join(OUT_DIR, RUN_FILE), 'utf8').catch(() => '')) === String(process.pid);
}

/** `npm run build`'s transpile, into `.test-build/`. */
async function transpile(): Promise<void> {
  await promisify(execFile)(process.execPath, [join(root, 'scripts', 'build.mjs'), OUT_DIR]);
  await writeFile(join(OUT_DIR, RUN_FILE), String(process.pid));
}
