// `npm run build` (and the first step of `npm start`): the service's TypeScript transpiled file by
// file into `dist/` by esbuild, in about a second. The type checks are `npm run typecheck`'s and
// CI's: tsc here took 9 s of wall and 14 s of CPU on a 2-core machine, at every first start.
// The end-to-end tests run the same build into `.test-build/` (node scripts/build.mjs .test-build).
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
/** One folder deep in the project: the code finds the project root and `db/migrations` from there (src/paths.ts). */
const outDir = resolve(root, process.argv[2] ?? 'dist');

const { outputFiles } = await build({
  entryPoints: await sourceFiles(),
  absWorkingDir: root,
  outbase: root,
  outdir: outDir,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  tsconfig: join(root, 'tsconfig.json'),
  loader: { '.json': 'copy' },
  sourcemap: true,
  logLevel: 'error',
  write: false,
});

// A service already running from `dist/` loads some modules later (OCR, bots), and two starts may
// build at once: each file is replaced whole by a rename, never emptied or removed under a reader.
await Promise.all(
  outputFiles.map(async (file) => {
    await mkdir(dirname(file.path), { recursive: true });
    const partial = `${file.path}.${process.pid}.partial`;
    await writeFile(partial, file.contents);
    await rename(partial, file.path);
  }),
);
await removeStale(new Set(outputFiles.map((file) => file.path)));

/** The service's TypeScript and the JSON tables it imports; not the migrations, read from `db/migrations`. */
async function sourceFiles() {
  const dirs = ['src', 'api', 'bots', 'db'];
  const listed = await Promise.all(
    dirs.map(async (dir) => (await readdir(join(root, dir), { recursive: true })).map((path) => join(dir, path))),
  );
  return listed.flat().filter((path) => /\.(ts|json)$/.test(path) && !path.startsWith(join('db', 'migrations')));
}

/** Output of a source file since removed (an older build's); not a concurrent build's file in progress. */
async function removeStale(built) {
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
  const stale = entries
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.partial'))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((path) => !built.has(path));
  await Promise.all(stale.map((path) => rm(path, { force: true })));
}
