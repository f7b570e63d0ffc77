import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import postgres from 'postgres';
import { createRequestListener } from '../../api/http-server.js';
import { createBotDoors, stopBotDoors, type BotDoor } from '../../bots/index.js';
import { loadConfig } from '../../src/config.js';
import type { ApiId } from '../../src/platform/catalog.js';
import { createLogger } from '../../src/logger.js';
import { hashPassword } from '../../src/platform/secrets.js';
import { createRuntime, type Runtime, type RuntimeOptions } from '../../src/runtime.js';
import { testMemoryPglite } from './memory-pglite.js';

export interface TestUser {
  email: string;
  password: string;
  accountId: number;
  token: string;
  apiKey: string;
}

export interface TestApp {
  url: string;
  runtime: Runtime;
  /** The bot doors built over the runtime (their outbound side, e.g. the Discord gateway, starts only when a test calls `start`). */
  doors: BotDoor[];
  /** A new account with a login token and an API key. */
  signUp(): Promise<TestUser>;
  /** POST JSON with an optional API key; returns status, headers and parsed body. */
  post(path: string, body: unknown, apiKey?: string): Promise<TestResponse>;
  get(path: string, headers?: Record<string, string>): Promise<TestResponse>;
  /** The account's remaining calls of one API, from GET /api/v1/usage. */
  remaining(apiKey: string, api: ApiId): Promise<number | null>;
  close(): Promise<void>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** Which database the integration tests use: PGlite in memory, or TEST_DATABASE_URL. */
export function testDatabaseEnv(): Record<string, string> {
  if (process.env.TEST_DB === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
    return { DATABASE_URL: url };
  }
  return { DATA_DIR: 'memory://' };
}

/**
 * On the PostgreSQL pass, a database of the file's own on TEST_DATABASE_URL's server (`env` for
 * startTestApp; `drop` removes it): for files whose jobs take every row they find, such as a
 * rescan of every live link, which on the shared database would check other files' links on
 * another clock while those files run. On PGlite every app has a database of its own anyway.
 */
export async function ownTestDatabase(prefix: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const shared = testDatabaseEnv().DATABASE_URL;
  if (!shared) return { env: {}, drop: async () => {} };
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const admin = postgres(shared, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const own = new URL(shared);
  own.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: own.href },
    async drop() {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end({ timeout: 1 });
    },
  };
}

let counter = 0;

/**
 * Passwords hashed by the real scrypt code at a cost 32 times lower (N=2^10): the suite signs up
 * a few hundred accounts, and one hash at the production cost takes ~0.4 s of CPU. Verification
 * is the production function (it reads the cost from the stored hash). The process tests keep
 * the production cost.
 */
/** A 32 times cheaper hash, so a test's burst of sign-ups may wait in a longer queue than production's 8. */
export const testPasswords = {
  hash: (password: string) => hashPassword(password, { N: 2 ** 10, r: 8, p: 3, keyLength: 32 }),
  maxWaiting: 64,
};

/** Starts the real express app over a real runtime on a free port. */
export async function startTestApp(env: Record<string, string> = {}, options: RuntimeOptions = {}): Promise<TestApp> {
  // Listen first, so that the links the service prints (PUBLIC_BASE_URL) carry the real port.
  // Idle connections kept a minute: with node's 5 s, a test's next request on a pooled connection
  // could meet the server closing it (ECONNRESET) when a loaded machine delays both timers.
  const server: Server = createServer({ keepAliveTimeout: 60_000 }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Every test signs up from 127.0.0.1: the per-address limits are raised unless a test sets them.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: url,
    SIGNUP_MAX_PER_ADDRESS: '1000000',
    LOGIN_MAX_PER_ADDRESS: '1000000',
    ...testDatabaseEnv(),
    ...env,
  });
  const inMemory = !config.DATABASE_URL && config.DATA_DIR.startsWith('memory://');
  const runtime = await createRuntime(config, {
    logger: createLogger(config.LOG_LEVEL),
    memoryPglite: inMemory ? testMemoryPglite() : undefined,
    passwords: testPasswords,
    ...options,
  });
  // Composed as api/server.ts does: runtime, then the bot doors, then the HTTP app with their routers.
  const doors = await createBotDoors(runtime);
  const botRouters = doors.flatMap((door) => (door.router ? [door.router] : []));
  server.on('request', createRequestListener(runtime, { botRouters }));

  async function request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(url + path, {
      method,
      headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      redirect: 'manual',
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (HTML page, redirect): keep the text
    }
    return { status: res.status, headers: res.headers, body: parsed as any };
  }

  const app: TestApp = {
    url,
    runtime,
    doors,
    async signUp() {
      const email = `user${process.pid}-${Date.now()}-${++counter}@example.com`;
      const password = 'correct horse battery';
      const registered = await request('POST', '/api/v1/auth/register', { email, password });
      if (registered.status !== 201) throw new Error(`sign-up failed: ${JSON.stringify(registered.body)}`);
      const login = await request('POST', '/api/v1/auth/login', { email, password });
      const key = await request('POST', '/api/v1/keys', { name: 'test' }, { authorization: `Bearer ${login.body.token}` });
      return { email, password, accountId: registered.body.user.id, token: login.body.token, apiKey: key.body.api_key };
    },
    post: (path, body, apiKey) => request('POST', path, body, apiKey ? { 'x-api-key': apiKey } : {}),
    get: (path, headers) => request('GET', path, undefined, headers),
    async remaining(apiKey, api) {
      const usage = await request('GET', '/api/v1/usage', undefined, { 'x-api-key': apiKey });
      return usage.body.usage.find((row: { api: string }) => row.api === api).remaining;
    },
    async close() {
      await stopBotDoors(doors);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await runtime.close();
    },
  };
  return app;
}
