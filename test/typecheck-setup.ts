import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Kept between runs, so that a second local run checks only what changed (a fresh clone has none). */
const BUILD_INFO = join(root, 'node_modules', '.cache', 'typecheck', 'tsconfig.tsbuildinfo');

/**
 * Starts the `types` tier's type check with the run instead of after it. Vitest runs type tests in
 * a group of their own once every other file has finished, so `tsc` over the whole project (7–20 s
 * on one core) ran with the other core idle at the end of every `npm test`. Here it runs beside the
 * first files; the checker Vitest then starts (test/typecheck-checker.mjs) hands over its output.
 */
export default function setup(project: TestProject): (() => void) | undefined {
  if (project.config.watch) return undefined; // the checker runs `tsc --watch` itself
  const dir = mkdtempSync(join(tmpdir(), 'aih-typecheck-'));
  mkdirSync(dirname(BUILD_INFO), { recursive: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const args = ['--noEmit', '--pretty', 'false', '-p', join(root, 'tsconfig.json'), '--incremental', '--tsBuildInfoFile', BUILD_INFO];
  // A larger young generation: a full check (a fresh clone) spent a fifth of its time collecting
  // garbage; with 32 MB semi-spaces it took 17–18 s instead of 20–21 s, at the same peak memory.
  const gc = '--max-semi-space-size=32';
  const child: ChildProcess = spawn(process.execPath, [gc, tsc, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const finish = (code: number) => {
    writeFileSync(join(dir, 'output'), output);
    // The exit code last, by rename: the checker reads the output once this file exists.
    writeFileSync(join(dir, 'exit-code.partial'), String(code));
    renameSync(join(dir, 'exit-code.partial'), join(dir, 'exit-code'));
  };
  child.once('exit', (code) => finish(code ?? 1));
  child.once('error', (error) => {
    output += `tsc could not run: ${error.message}\n`;
    finish(1);
  });
  process.env.AIH_TYPECHECK_DIR = dir;
  return () => {
    child.kill();
    delete process.env.AIH_TYPECHECK_DIR;
    rmSync(dir, { recursive: true, force: true });
  };
}
