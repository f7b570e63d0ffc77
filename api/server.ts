import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';
import { createRuntime } from '../src/runtime.js';
import { createApp, type AppState } from './app.js';

const DRAIN_TIMEOUT_MS = 10_000;

/** `npm start`: configuration, database and migrations, then the HTTP listener; drains on SIGTERM. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const runtime = await createRuntime(config);
  const state: AppState = { draining: false };
  const server = createApp(runtime, state).listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  runtime.logger.info(
    { port, database: runtime.databaseKind, publicBaseUrl: config.PUBLIC_BASE_URL, shortUrlBase: config.SHORT_URL_BASE },
    'AI Utility Hub ready',
  );

  let stopping = false;
  async function shutdown(signal: string): Promise<void> {
    if (stopping) return;
    stopping = true;
    state.draining = true;
    runtime.logger.info({ signal }, 'draining in-flight requests');
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS);
    await closed;
    clearTimeout(timer);
    await runtime.close();
    runtime.logger.info('stopped');
    runtime.logger.flush();
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  const message = error instanceof ConfigError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`AI Utility Hub failed to start: ${message}\n`);
  process.exit(1);
});
