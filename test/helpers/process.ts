import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  output(): string;
  /** Resolves with the port once the "ready" log line appears; rejects if the process exits first. */
  ready: Promise<number>;
  exited: Promise<number | null>;
}

/**
 * Runs `api/server.ts` with the given environment: through tsx by default (no build), or with
 * `npm start` itself (build, then `node dist/api/server.js`) for the production-path tests.
 */
export function startServerProcess(env: Record<string, string>, options: { npmStart?: boolean } = {}): ServerProcess {
  const [command, args] = options.npmStart ? ['npm', ['start', '--silent']] : [process.execPath, ['--import', 'tsx', 'api/server.ts']];
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
  return { child, output: () => output, ready, exited };
}
