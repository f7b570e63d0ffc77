import { createServer, type Server } from 'node:http';
import { AppError } from '../src/errors.js';
import type { Runtime } from '../src/runtime.js';
import { internalError, requestIdOf, sendError } from './http-answer.js';
import { listenOrExplain } from './listen.js';
import { scrapeFor } from './routes/metrics.js';

/**
 * `METRICS_PORT`: a listener of its own that answers `GET /metrics` and nothing else (404 in
 * the contract's shape), on HOST, so the scrape can stay on a private network while the API
 * is public. It asks for METRICS_TOKEN too when one is set. Closed with the service.
 */
export function createMetricsServer(runtime: Runtime): Server {
  return createServer((req, res) => {
    const requestId = requestIdOf(req);
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return sendError(res, requestId, new AppError('NOT_FOUND', `요청한 경로를 찾을 수 없습니다: ${req.method ?? ''} ${path ?? ''}`));
    }
    scrapeFor(runtime, req, 'metrics-port').then(
      (text) => {
        res.writeHead(200, { 'Content-Type': runtime.metrics.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        if (!(error instanceof AppError)) runtime.logger.error({ err: error }, 'metrics scrape failed');
        sendError(res, requestId, error instanceof AppError ? error : internalError(requestId));
      },
    );
  });
}

/** Opens the metrics listener on METRICS_PORT at HOST (a taken port stops the start, as PORT's does); undefined when unset. */
export async function startMetricsServer(runtime: Runtime): Promise<Server | undefined> {
  const { METRICS_PORT: port, HOST: host } = runtime.config;
  if (port === undefined) return undefined;
  const server = createMetricsServer(runtime);
  await listenOrExplain(server, port, host, 'METRICS_PORT');
  return server;
}
