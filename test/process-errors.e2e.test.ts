import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A process with the service's logger and exitOnUncaughtErrors that lets an error escape twice. */
const SCRIPT = `
import { createLogger } from './src/logger.ts';
import { exitOnUncaughtErrors } from './src/process-errors.ts';
exitOnUncaughtErrors(createLogger('info'));
setTimeout(() => { throw new Error('second, never logged'); }, 0);
Promise.reject(new Error('upstream said Bearer abcdefghijklmnop1234 for aik_0123456789abcdef'));
setInterval(() => {}, 1000);
`;

it('logs an uncaught error once, as one scrubbed JSON line, and exits with 1 (issue 46)', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '' },
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(1);
  const lines = stdout.trim().split('\n').filter(Boolean);
  expect(lines).toHaveLength(1);
  const line = JSON.parse(lines[0]!);
  expect(line).toMatchObject({ level: 60, kind: 'unhandledRejection', err: { type: 'Error' } });
  expect(line.err.message).toBe('upstream said Bearer [REDACTED] for aik_[REDACTED]');
  expect(lines[0]).not.toMatch(/abcdefghijklmnop1234|0123456789abcdef/);
}, 60_000);
