/**
 * The service started as a user starts it, for evaluations that measure it through its door
 * (`npm run eval:urls`, `eval:messages`): `npm start` (build, then `node dist/api/server.js`) as
 * a child process with the environment only — no code of the service imported here.
 *
 * ```ts
 * const service = await startService({ DATA_DIR: dir, URL_LIST_FEEDS: feeds, URL_LIST_REFRESH: 'off' });
 * try {
 *   const { apiKey } = await service.signUp({ subscribe: ['harmful-url-detection'] });
 *   const { status, body } = await service.post('/api/v1/url/detect', { url }, apiKey);
 *   const ready = await service.get('/healthz/ready'); // { status: 'ok', models: [...] }
 * } finally {
 *   await service.stop();
 * }
 * ```
 *
 * - `startService(env, options)` picks a free loopback port (`PORT`, `HOST=127.0.0.1`), starts
 *   `npm start` in its own process group, and resolves once `GET /healthz/ready` answers 200
 *   (the lists are loaded and the models trained by then). It rejects with the last lines of the
 *   service's output when the process exits first or `readyTimeoutMs` (default 10 minutes: a
 *   first start trains the URL models) passes; the process is stopped in both cases.
 * - The child inherits only `PATH`, `HOME` and what `env` gives (nothing of this shell's `.env`
 *   is read unless `env` says so); sign-up and log-in throttles and the quota are raised unless
 *   `env` sets them, since an evaluation makes thousands of calls from one address.
 * - `signUp({ subscribe })` registers a fresh account, logs in, makes an API key and subscribes it
 *   to the given catalogue ids; it resolves with `{ email, token, apiKey }`.
 * - `get`/`post(path, body?, apiKey?)` answer `{ status, body }` (JSON parsed, else the text);
 *   they reuse connections (Node's fetch keeps them alive).
 * - `runNpmScript('lists:update', env)` runs `npm run <script>` with the same kind of environment
 *   and resolves with its output (rejects with it on a non-zero exit): the lists a user downloads
 *   before the first start.
 * - `stop()` sends SIGTERM to the process group (the service drains and exits), SIGKILL after
 *   `stopTimeoutMs` (default 15 s); it is idempotent. `output()` gives the service's output so far.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KEEP_OUTPUT_CHARS = 64 * 1024;

export interface ServiceOptions {
  /** Longest wait for `/healthz/ready` (ms). */
  readyTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** The project folder `npm start` runs in (default: this repository). */
  cwd?: string;
}

export interface HttpAnswer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON of any route
}

export interface ServiceProcess {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  get(path: string, apiKey?: string): Promise<HttpAnswer>;
  post(path: string, body: unknown, apiKey?: string, token?: string): Promise<HttpAnswer>;
  signUp(options?: { subscribe?: readonly string[] }): Promise<{ email: string; token: string; apiKey: string }>;
  output(): string;
  stop(): Promise<void>;
}

/** A port nobody listens on now (the kernel's choice, released at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

export async function startService(env: Record<string, string>, options: ServiceOptions = {}): Promise<ServiceProcess> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn('npm', ['start', '--silent'], {
    cwd: options.cwd ?? ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SIGNUP_MAX_PER_ADDRESS: '1000000',
      LOGIN_MAX_PER_ADDRESS: '1000000',
      DEFAULT_QUOTA: '100000000',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-KEEP_OUTPUT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exitCode = code;
      resolve();
    }),
  );

  async function request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) };
    } catch {
      return { status: res.status, body: text };
    }
  }
  const auth = (apiKey?: string, token?: string): Record<string, string> => ({
    ...(apiKey ? { 'x-api-key': apiKey } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });

  let stopping: Promise<void> | undefined;
  function stop(): Promise<void> {
    stopping ??= (async () => {
      if (exitCode !== undefined || child.pid === undefined) return;
      signal(child.pid, 'SIGTERM');
      const timer = setTimeout(() => child.pid && signal(child.pid, 'SIGKILL'), options.stopTimeoutMs ?? 15_000);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  }

  const service: ServiceProcess = {
    baseUrl,
    port,
    child,
    get: (path, apiKey) => request('GET', path, undefined, auth(apiKey)),
    post: (path, body, apiKey, token) => request('POST', path, body, auth(apiKey, token)),
    async signUp({ subscribe = [] } = {}) {
      const email = `eval-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
      const password = `pw-${Math.random().toString(36).slice(2)}-eval`;
      await expectStatus(await request('POST', '/api/v1/auth/register', { email, password }), 201, 'sign-up');
      const login = await expectStatus(await request('POST', '/api/v1/auth/login', { email, password }), 200, 'log-in');
      const token = String(login.body.token);
      const key = await expectStatus(await request('POST', '/api/v1/keys', { name: 'evaluation' }, auth(undefined, token)), 201, 'key');
      const apiKey = String(key.body.api_key);
      for (const api of subscribe)
        await expectStatus(await request('POST', '/api/v1/subscriptions', { api }, auth(apiKey)), 201, 'subscribe');
      return { email, token, apiKey };
    },
    output: () => output,
    stop,
  };

  try {
    await waitUntilReady(service, () => exitCode !== undefined, options.readyTimeoutMs ?? 600_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- service output (last lines) ---\n${output.split('\n').slice(-30).join('\n')}`);
  }
  return service;
}

/** `npm run <script>` with the environment only; its output, or an error holding it. */
export function runNpmScript(script: string, env: Record<string, string>, options: { cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script], {
      cwd: options.cwd ?? ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-KEEP_OUTPUT_CHARS);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`npm run ${script} exited with ${code}:\n${output}`))));
  });
}

/** Polls `/healthz/ready` (fast at first, then every half second) until it answers 200. */
async function waitUntilReady(service: ServiceProcess, hasExited: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    if (hasExited()) throw new Error('the service exited before it was ready');
    try {
      if ((await service.get('/healthz/ready')).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`the service was not ready within ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, attempt < 20 ? 100 : 500));
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    // The process group: npm and the node server under it.
    process.kill(-pid, name);
  } catch {
    // Already gone.
  }
}

async function expectStatus(answer: HttpAnswer, status: number, step: string): Promise<HttpAnswer> {
  if (answer.status !== status) throw new Error(`${step}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  return answer;
}
