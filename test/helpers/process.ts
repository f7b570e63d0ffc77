import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  output(): string;
  /** Resolves with the port once the "ready" log line appears; rejects if the process exits first. */
  ready: Promise<number>;
  exited: Promise<number | null>;
  /** Resolves once the output matches `pattern` (an event to wait for instead of a time); rejects if the process exits first. */
  waitForOutput(pattern: RegExp): Promise<void>;
}

/**
 * A new PGlite data directory holding the run's migrated database (test/global-setup.ts): a
 * server process started on it opens an existing database, as after a restart, instead of
 * creating a cluster (~10 s of CPU). The first start on an empty directory is `watch.e2e`'s.
 */
export function migratedDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const template = inject('pgliteTemplate');
  if (template) execFileSync('tar', ['-xf', template, '-C', dir], { stdio: 'pipe' }); // names start with /: tar strips it and says so
  return dir;
}

/**
 * Runs the server with the given environment: from the run's transpiled copy of the service
 * (test/build-server-setup.ts) in the end-to-end tiers, through tsx where a tier has none, or
 * with `npm start` itself (build, then `node dist/api/server.js`) for the production-path tests.
 */
export function startServerProcess(env: Record<string, string>, options: { npmStart?: boolean } = {}): ServerProcess {
  const build = inject('serverBuild');
  const [command, args] = options.npmStart
    ? ['npm', ['start', '--silent']]
    : [process.execPath, build ? [join(build, 'api', 'server.js')] : ['--import', 'tsx', 'api/server.ts']];
  const child = spawn(command, args, {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      // Every test signs up from 127.0.0.1 (counted in the database across runs): limits raised unless a test sets them.
      SIGNUP_MAX_PER_ADDRESS: '1000000',
      LOGIN_MAX_PER_ADDRESS: '1000000',
      ...env,
    },
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const ready = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(/"port":(\d+)[^\n]*AI Utility Hub ready/);
      if (match) resolve(Number(match[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  ready.catch(() => {});
  function waitForOutput(pattern: RegExp): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output)) return;
        child.stdout.off('data', check);
        child.stderr.off('data', check);
        resolve();
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      void exited.then(() => reject(new Error(`server exited before printing ${pattern}: ${output}`)));
      check();
    });
  }
  return { child, output: () => output, ready, exited, waitForOutput };
}

/** Stops a server process with SIGTERM, if it still runs, and waits for it to exit. */
export async function stopServerProcess(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null) return;
  server.child.kill('SIGTERM');
  await server.exited;
}

/** A JSON request to a server process over real HTTP: its status and parsed body. */
export async function callJson(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** A new account on a server process, through its own API: registered, logged in, one key (`e2e`). */
export async function signUpOver(base: string, prefix: string): Promise<{ accountId: number; token: string; apiKey: string }> {
  const credentials = { email: `${prefix}-${process.pid}-${Date.now()}@example.com`, password: 'long enough pw' };
  const registered = await callJson(base, 'POST', '/api/v1/auth/register', credentials);
  if (registered.status !== 201) throw new Error(`sign-up answered ${registered.status}: ${JSON.stringify(registered.body)}`);
  const { token } = (await callJson(base, 'POST', '/api/v1/auth/login', credentials)).body;
  const key = await callJson(base, 'POST', '/api/v1/keys', { name: 'e2e' }, { authorization: `Bearer ${token}` });
  return { accountId: registered.body.user.id, token, apiKey: key.body.api_key };
}
