import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `npm run build` (scripts/build.mjs) runs at every `npm start`, while another start or a running
 * server may be reading the same folder: no module may ever be missing or empty there.
 */
const run = promisify(execFile);
const build = (outDir: string) => run(process.execPath, ['scripts/build.mjs', outDir]);
let outDir: string;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'aih-build-'));
  await build(outDir);
});
afterAll(() => rm(outDir, { recursive: true, force: true }));

async function builtFiles(): Promise<string[]> {
  const entries = await readdir(outDir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('the build', () => {
  it('writes the service as JavaScript with source maps', async () => {
    const files = await builtFiles();
    expect(files).toContain(join(outDir, 'api', 'server.js'));
    expect(files).toContain(join(outDir, 'api', 'server.js.map'));
    expect(files.filter((file) => file.endsWith('.ts'))).toEqual([]);
  });

  it('never leaves a module missing or empty while builds run again, two at once', async () => {
    const modules = (await builtFiles()).filter((file) => file.endsWith('.js'));
    const rebuilds = Promise.all([build(outDir), build(outDir)]);
    let done = false;
    void rebuilds.finally(() => (done = true));
    const seen: string[] = [];
    while (!done) {
      for (const file of modules) {
        const size = await stat(file).then(
          (info) => info.size,
          () => -1,
        );
        if (size <= 0) seen.push(`${file}: ${size < 0 ? 'missing' : 'empty'}`);
      }
    }
    await rebuilds;
    expect(seen).toEqual([]);
  });

  it('removes what a removed source had built, and nothing a build in progress is writing', async () => {
    const gone = join(outDir, 'src', 'removed-long-ago.js');
    const partial = join(outDir, 'src', `paths.js.${process.pid}.partial`);
    await writeFile(gone, 'export {};\n');
    await writeFile(partial, 'export {};\n');
    await build(outDir);
    const files = await builtFiles();
    expect(files).not.toContain(gone);
    expect(files).toContain(partial);
  });
});
