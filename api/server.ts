import type { AddressInfo } from 'node:net';
import { createBotDoors, startBotDoors, stopBotDoors } from '../bots/index.js';
import { createChannelNotifier } from '../bots/notifier.js';
import { startWatchCron, type WatchCron } from '../src/jobs/watch-cron.js';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';
import { createRuntime } from '../src/runtime.js';
import type { AppState } from './app.js';
import { createHttpServer } from './http-server.js';

const DRAIN_TIMEOUT_MS = 10_000;

/**
 * `npm start`, and the one place the service is wired: configuration, runtime (database and
 * migrations), the chat doors over the runtime, the HTTP app with their routers, the cron job;
 * drains on SIGTERM. The only file of api/ that knows bots/.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const runtime = await createRuntime(config, { watches: { notifier: createChannelNotifier(config) } });
  const state: AppState = { draining: false };
  const doors = createBotDoors(runtime);
  const botRouters = doors.flatMap((door) => (door.router ? [door.router] : []));
  const server = createHttpServer(runtime, { state, botRouters }).listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  runtime.logger.info(
    { port, database: runtime.databaseKind, publicBaseUrl: config.PUBLIC_BASE_URL, shortUrlBase: config.SHORT_URL_BASE },
    'AI Utility Hub ready',
  );
  // Socket Mode and the Discord gateway connect out; a failure leaves the HTTP doors serving.
  await startBotDoors(doors, runtime.logger);
  // The parcel-watch poller; WATCH_CRON=off leaves it to other instances.
  const watchCron: WatchCron | undefined =
    config.WATCH_CRON === 'off' ? undefined : startWatchCron(runtime.watchPoller, config.WATCH_CRON, runtime.logger);

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
    await stopBotDoors(doors);
    await watchCron?.stop();
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
