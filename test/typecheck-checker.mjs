#!/usr/bin/env node
// The `types` tier's checker (vitest.config.ts): Vitest runs it as it would run `tsc`, once every
// other file has finished. The check itself started with the run (test/typecheck-setup.ts); this
// waits for it and prints its output, which Vitest reads as tsc's. In watch mode, or when no check
// was started, it is plain `tsc` with Vitest's arguments.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const dir = process.env.AIH_TYPECHECK_DIR;
const args = process.argv.slice(2);

if (!dir || args.includes('--watch')) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const child = spawn(process.execPath, [tsc, ...args], { stdio: 'inherit' });
  child.once('exit', (code) => process.exit(code ?? 1));
} else {
  const exitFile = join(dir, 'exit-code');
  const finish = () => {
    process.stdout.write(readFileSync(join(dir, 'output'), 'utf8'));
    process.exitCode = Number(readFileSync(exitFile, 'utf8'));
  };
  if (existsSync(exitFile)) finish();
  else {
    const poll = setInterval(() => {
      if (!existsSync(exitFile)) return;
      clearInterval(poll);
      finish();
    }, 100);
  }
}
