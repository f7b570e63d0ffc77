import type { AddressInfo } from 'node:net';
import { botsFor } from '../bots/index.js';
import { createChannelNotifier } from '../bots/notifier.js';
import { startWatchCron, type WatchCron } from '../src/jobs/watch-cron.js';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';
import { createRuntime } from '../src/runtime.js';
import type { AppState } from './app.js';
import { createHttpServer } from './http-server.js';

const DRAIN_TIMEOUT_MS = 10_000;

/** `npm start`: configuration, database and migrations, then the HTTP listener; drains on SIGTERM. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const runtime = await createRuntime(config, { watches: { notifier: createChannelNotifier(config) } });
  const state: AppState = { draining: false };
  const server = createHttpServer(runtime, state).listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  runtime.logger.info(
    { port, database: runtime.databaseKind, publicBaseUrl: config.PUBLIC_BASE_URL, shortUrlBase: config.SHORT_URL_BASE },
    'AI Utility Hub ready',
  );
  // Socket Mode and the Discord gateway connect out; a failure leaves the HTTP doors serving.
  const bots = botsFor(runtime);
  await bots.start().catch((error: unknown) => runtime.logger.error({ err: error }, 'bot connections failed to start'));
  // The parcel-watch poller; WATCH_CRON=off leaves it to other instances.
  const watchCron: WatchCron | undefined =
    config.WATCH_CRON === 'off' ? undefined : startWatchCron(runtime.watchPoller, config.WATCH_CRON, runtime.logger);

  // Harmful-URL feeds refresh in-process (URL_LIST_REFRESH=off only reloads what others store).
  runtime.urlDetection.start(config.URL_LIST_REFRESH);

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
    await bots.stop();
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
