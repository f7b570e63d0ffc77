import type { AddressInfo } from 'node:net';
import { DataDirLockedError } from '../db/lock.js';
import type { WatchCron } from '../src/jobs/watch-cron.js';
import { ConfigError, loadConfig, loadDotEnv } from '../src/config.js';
import { createLogger, wantsPrettyLog } from '../src/logger.js';
import { exitOnUncaughtErrors } from '../src/process-errors.js';
import type { AppState } from './app.js';
import { listenOrExplain, StartupError } from './listen.js';
import { createStartingServer } from './starting-server.js';

const DRAIN_TIMEOUT_MS = 10_000;

/**
 * `npm start`, and the one place the service is wired: configuration, runtime (database and
 * migrations), the chat doors over the runtime, the HTTP app with their routers, the cron job;
 * drains on SIGTERM. The only file of api/ that knows bots/.
 */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  // Readable lines at a terminal in development, JSON otherwise (a file, a pipe, production).
  const logger = createLogger(config.LOG_LEVEL, undefined, { pretty: wantsPrettyLog(process.stdout.isTTY, config.NODE_ENV) });
  exitOnUncaughtErrors(logger);
  // The port first: a taken port is reported at once, not after the database start-up.
  const { server, serve } = createStartingServer(config);
  await listenOrExplain(server, config.PORT, config.HOST);
  const { port } = server.address() as AddressInfo;
  logger.info({ port }, `starting: port ${port} open (it answers 503 until ready); ${databaseStep(config)}`);
  // The service itself (express, the bots, the OCR and PDF engines …) is loaded only now: a
  // mistake in the configuration and a taken port are reported at once, not after its imports.
  const [
    { createBotDoors, startBotDoors, stopBotDoors },
    { createChannelNotifier },
    { cronScheduler, startWatchCron },
    { createRuntime },
    { createRequestListener },
    { startMetricsServer },
  ] = await Promise.all([
    import('../bots/index.js'),
    import('../bots/notifier.js'),
    import('../src/jobs/watch-cron.js'),
    import('../src/runtime.js'),
    import('./http-server.js'),
    import('./metrics-server.js'),
  ]);
  const runtime = await createRuntime(config, {
    logger,
    watches: { notifier: createChannelNotifier(config) },
    lock: { onWait: (message) => logger.warn(message) },
  });
  const state: AppState = { draining: false };
  const doors = await createBotDoors(runtime);
  const botRouters = doors.flatMap((door) => (door.router ? [door.router] : []));
  serve(createRequestListener(runtime, { state, botRouters }));
  // METRICS_PORT: `/metrics` alone on its own listener (a taken port stops the start, as PORT's does).
  const metricsServer = await startMetricsServer(runtime);
  if (metricsServer) runtime.logger.info({ metricsPort: (metricsServer.address() as AddressInfo).port }, 'metrics listener open');
  // The address to open: PUBLIC_BASE_URL, or this machine at the port it listens on (PORT=0 picks one).
  const portal = config.PUBLIC_BASE_URL === `http://localhost:${config.PORT}` ? `http://localhost:${port}` : config.PUBLIC_BASE_URL;
  runtime.logger.info(
    { port, database: runtime.databaseKind, publicBaseUrl: config.PUBLIC_BASE_URL, shortUrlBase: config.SHORT_URL_BASE },
    `AI Utility Hub ready: open ${portal}/ (portal; API docs at ${portal}/docs)`,
  );
  // Lines are written in blocks (src/logger.ts): whoever waits for this one gets it now.
  runtime.logger.flush();
  // Socket Mode and the Discord gateway connect out; a failure leaves the HTTP doors serving.
  await startBotDoors(doors, runtime.logger);
  // The parcel-watch poller; WATCH_CRON=off leaves it to other instances.
  const watchCron: WatchCron | undefined =
    config.WATCH_CRON === 'off' ? undefined : startWatchCron(runtime.watchPoller, config.WATCH_CRON, runtime.logger);

  // Harmful-URL feeds refresh in-process (URL_LIST_REFRESH=off only reloads what others store).
  runtime.urlDetection.start(config.URL_LIST_REFRESH, cronScheduler);

  // Live short links re-checked on URL_RESCAN (Asia/Seoul); `off` leaves it to other instances.
  const rescanPeriod = config.URL_RESCAN === 'off' ? 0 : cronScheduler.periodMs(config.URL_RESCAN);
  const linkRescan =
    config.URL_RESCAN === 'off'
      ? undefined
      : cronScheduler.schedule(
          config.URL_RESCAN,
          () =>
            runtime.linkRescan
              .runOnce(rescanPeriod)
              .catch((error: unknown) => runtime.logger.error({ err: error }, 'short link rescan failed')),
          'Asia/Seoul',
        );
  runtime.logger.info(
    { schedule: config.URL_RESCAN },
    linkRescan ? 'short-link rescan scheduled (URL_RESCAN, Asia/Seoul)' : 'short-link rescan off in this instance (URL_RESCAN=off)',
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
    metricsServer?.closeAllConnections();
    await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(undefined)));
    await stopBotDoors(doors);
    await watchCron?.stop();
    await linkRescan?.stop();
    await runtime.close();
    runtime.logger.info('stopped');
    runtime.logger.flush();
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** What the slow part of the start is doing, so a first `npm start` is not silent. */
function databaseStep(config: ReturnType<typeof loadConfig>): string {
  if (config.DATABASE_URL) return 'connecting to PostgreSQL (DATABASE_URL) and applying migrations';
  return `opening the embedded database (PGlite) in ${config.DATA_DIR} and applying migrations; the very first start creates it, which takes 15-40 s`;
}

/** Errors whose message says everything the user needs: printed without a stack trace. */
const EXPLAINED = [ConfigError, StartupError, DataDirLockedError];

main().catch((error: unknown) => {
  const explained = EXPLAINED.some((type) => error instanceof type);
  const message = explained ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  // A configuration error is already written in full in Korean and then in English.
  const head = error instanceof ConfigError ? 'AI Utility Hub: 시작하지 못했습니다 / failed to start' : 'AI Utility Hub failed to start:';
  process.stderr.write(`${head}${error instanceof ConfigError ? '\n' : ' '}${message}\n`);
  process.exit(1);
});
