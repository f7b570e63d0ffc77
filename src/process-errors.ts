import type { Logger } from './logger.js';

/**
 * What happens to an error nothing caught: it is logged once, as one JSON line through the
 * service's logger (its scrubbers and error serializer, so no key, token or query value gets
 * out), and the process exits with 1. Carrying on after an uncaught exception leaves state
 * nobody can vouch for; the supervisor (docs/running.md: systemd `Restart=always`, a container
 * `restart: unless-stopped`) starts a fresh one within seconds.
 */
export function exitOnUncaughtErrors(logger: Logger): void {
  let exiting = false;
  const fatal = (kind: 'uncaughtException' | 'unhandledRejection') => (error: unknown) => {
    // A second error while the first is being written is the same crash: one line, one exit.
    if (exiting) return;
    exiting = true;
    logger.fatal({ err: error, kind }, `${kind}: the process exits for its supervisor to restart it`);
    logger.flush();
    process.exit(1);
  };
  process.on('uncaughtException', fatal('uncaughtException'));
  process.on('unhandledRejection', fatal('unhandledRejection'));
}
