import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDataDir, startServerProcess, stopServerProcess, type ServerProcess } from './helpers/process.js';
import { parsePrometheusText } from './helpers/prometheus-text.js';

const dataDir = migratedDataDir('aih-metrics-');
const TOKEN = 'e2e-metrics-token-0123456789';
let server: ServerProcess | undefined;
afterAll(async () => {
  await stopServerProcess(server);
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Issue 48 part 3 through the production path: the built server, configured by environment
 * variables only, serves `/metrics` on METRICS_PORT (asking for METRICS_TOKEN), not on the main
 * port, counts what the main port answered, and closes the listener when it stops.
 */
describe('metrics on METRICS_PORT, as npm start runs the service', { timeout: 180_000 }, () => {
  it('serves /metrics there with the token, counts the main port, and stops cleanly', async () => {
    server = startServerProcess({ DATA_DIR: dataDir, METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
    const port = await server.ready;
    await server.waitForOutput(/"metricsPort":\d+/);
    const metricsPort = Number(/"metricsPort":(\d+)/.exec(server.output())![1]);
    expect(server.output()).toContain('metrics: GET /metrics on METRICS_PORT 0 (127.0.0.1) with the bearer token METRICS_TOKEN');
    expect(server.output()).not.toContain(TOKEN);

    const main = `http://127.0.0.1:${port}`;
    const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
    expect((await fetch(`${main}/healthz`)).status).toBe(200);
    expect((await fetch(`${main}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);

    const refused = await fetch(metrics);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ success: false, code: 401, error_code: 'UNAUTHORIZED' });

    const res = await fetch(metrics, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const text = parsePrometheusText(await res.text());
    expect(text.value('aihub_http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).toBe(1);
    expect(text.value('aihub_http_requests_total', { route: '/metrics', status: '404' })).toBe(1);
    expect(text.value('aihub_process_memory_bytes', { kind: 'rss' })).toBeGreaterThan(0);
    expect(text.samples.some((sample) => sample.name === 'aihub_learned_model_in_use')).toBe(true);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await expect(fetch(metrics)).rejects.toThrow();
  });
});
