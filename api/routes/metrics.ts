import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Config } from '../../src/config.js';
import { AppError } from '../../src/errors.js';
import { constantTimeEqual } from '../../src/platform/secrets.js';
import type { Runtime } from '../../src/runtime.js';
import { defineRoute, type Route } from '../route.js';

/** The 401 of `/metrics`: no `Authorization: Bearer $METRICS_TOKEN`, or another token. */
export const metricsTokenRequired = () =>
  new AppError('UNAUTHORIZED', '지표를 보려면 METRICS_TOKEN을 Authorization: Bearer 헤더로 보내야 합니다.').en(
    'Send METRICS_TOKEN as an Authorization: Bearer header to read the metrics.',
  );

/** `/metrics` where it is off: the same 404 as any unknown path. */
export const metricsOff = () => new AppError('NOT_FOUND', '요청한 경로를 찾을 수 없습니다: GET /metrics');

/** Where `/metrics` is answered: the main port only with a token and no METRICS_PORT; the metrics port always. */
export function metricsServedOn(config: Pick<Config, 'METRICS_TOKEN' | 'METRICS_PORT'>, door: 'main' | 'metrics-port'): boolean {
  return door === 'metrics-port' || (config.METRICS_PORT === undefined && config.METRICS_TOKEN !== undefined);
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The scrape: refused (401) unless the request carries METRICS_TOKEN as a bearer token, when one
 * is set; compared in constant time (over digests, so not even the length shows). Throws the
 * contract's errors; the caller renders them.
 */
export async function scrapeFor(runtime: Runtime, req: IncomingMessage, door: 'main' | 'metrics-port'): Promise<string> {
  const { config } = runtime;
  if (!metricsServedOn(config, door)) throw metricsOff();
  if (config.METRICS_TOKEN !== undefined) {
    const given = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!given || !constantTimeEqual(digest(given), digest(config.METRICS_TOKEN))) throw metricsTokenRequired();
  }
  return runtime.metrics.scrape();
}

const EXAMPLE = `# HELP aihub_http_requests_total HTTP requests answered, by method, route template and status.
# TYPE aihub_http_requests_total counter
aihub_http_requests_total{method="POST",route="/api/v1/url/detect",status="200"} 1520
`;

/** `GET /metrics` on the main port (docs/operating.md); the METRICS_PORT listener serves the same (api/metrics-server.ts). */
export function metricsRoutes(runtime: Runtime): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/metrics',
      tag: '상태 확인',
      operationId: 'getMetrics',
      summary: 'Prometheus 지표',
      description:
        '이 인스턴스의 지표(Prometheus 텍스트 형식, 이름은 모두 `aihub_`로 시작). `METRICS_TOKEN`을 `Authorization: Bearer` 헤더로 보내야 하고, ' +
        '`METRICS_TOKEN`이 없거나 `METRICS_PORT`가 설정되면 이 포트에서는 꺼져 있습니다(404). 지표 목록과 알림 규칙은 docs/operating.md에 있습니다.',
      auth: 'none',
      answers: { 200: { description: 'Prometheus 텍스트 형식의 지표', media: 'text/plain', example: EXAMPLE } },
      errors: [metricsTokenRequired(), metricsOff()],
      async handler(_input, req, res) {
        const text = await scrapeFor(runtime, req, 'main');
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('Content-Type', runtime.metrics.contentType);
        res.send(text);
      },
    }),
  ];
}
