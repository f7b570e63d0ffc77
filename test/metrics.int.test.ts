import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetricsServer } from '../api/metrics-server.js';
import { METRICS } from '../src/platform/metric-definitions.js';
import { startFakeOpenAI, type FakeOpenAI } from './fakes/openai-server.js';
import { startTestApp, type TestApp, type TestUser } from './helpers/app.js';
import { parsePrometheusText } from './helpers/prometheus-text.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Issue 48 part 3: `GET /metrics` refused without its token, its names, values that move, and no user data in it. */
describe('GET /metrics', () => {
  let llm: FakeOpenAI;
  let app: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    llm = await startFakeOpenAI();
    app = await startTestApp({ METRICS_TOKEN: TOKEN, DEFAULT_QUOTA: '2', OPENAI_BASE_URL: llm.url }, { llm: { retryBaseDelayMs: 1 } });
    user = await app.signUp();
  });
  afterAll(async () => {
    await app?.close();
    await llm?.close();
  });

  const scrape = async () => {
    const res = await app.get('/metrics', bearer(TOKEN));
    expect(res.status).toBe(200);
    return parsePrometheusText(res.body as string);
  };

  it('is refused without the token, or with another, in the contract error shape', async () => {
    for (const headers of [{}, bearer('wrong-token-0123456789abcdef'), bearer(`${TOKEN}x`), { authorization: TOKEN }]) {
      const res = await app.get('/metrics', headers);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ success: false, code: 401, error: expect.stringContaining('METRICS_TOKEN'), error_code: 'UNAUTHORIZED' });
      expect(res.body.error).toMatch(/[가-힣]/);
    }
  });

  it('answers the Prometheus text format with the token: every declared metric, all named aihub_', async () => {
    const res = await app.get('/metrics', bearer(TOKEN));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const text = parsePrometheusText(res.body as string);
    expect(Object.fromEntries(text.types)).toEqual(Object.fromEntries(Object.values(METRICS).map((metric) => [metric.name, metric.type])));
    for (const sample of text.samples) expect(sample.name).toMatch(/^aihub_/);
    // Read at the scrape from memory: process memory, the event loop, the learned models.
    expect(text.value('aihub_process_memory_bytes', { kind: 'rss' })).toBeGreaterThan(0);
    expect(text.samples.filter((sample) => sample.name === 'aihub_event_loop_delay_seconds').map((s) => s.labels.quantile)).toEqual([
      '0.5',
      '0.99',
      '1',
    ]);
    const models = app.runtime.learnedModels.list();
    expect(models.length).toBeGreaterThan(0);
    for (const model of models) {
      expect(text.samples).toContainEqual({
        name: 'aihub_learned_model_in_use',
        labels: { model: model.name },
        value: model.trained ? 1 : 0,
      });
      expect(text.value('aihub_learned_model_examples', { model: model.name })).toBe(model.examples);
    }
    for (const feed of app.runtime.urlDetection.loadedFeeds())
      expect(text.value('aihub_url_feed_entries', { feed: feed.name })).toBe(feed.entries);
    expect(text.value('aihub_link_guard_queue_depth')).toBe(0);
  });

  it('counts requests by route template and status, with their latency', async () => {
    const before = await scrape();
    const series = { method: 'DELETE', route: '/api/v1/keys/:id', status: '404' };
    const gone = await fetch(`${app.url}/api/v1/keys/987654`, { method: 'DELETE', headers: bearer(user.token) });
    expect(gone.status).toBe(404);
    const after = await scrape();
    expect(after.value('aihub_http_requests_total', series) - before.value('aihub_http_requests_total', series)).toBe(1);
    expect(
      after.value('aihub_http_request_duration_seconds_count', series) - before.value('aihub_http_request_duration_seconds_count', series),
    ).toBe(1);
    // The scrape before this one was counted too, under its own template.
    expect(after.value('aihub_http_requests_total', { method: 'GET', route: '/metrics', status: '200' })).toBeGreaterThan(0);
  });

  it('counts operation calls by outcome: ok, quota, auth, validation; and the LLM calls behind them', async () => {
    const tone = { text: '내일 회의 몇 시야?' };
    const op = 'tone-transformation';
    llm.onChat(() => ({ content: '내일 회의는 몇 시입니까?' }));
    const before = await scrape();
    expect((await app.post('/api/v1/tone/transform', tone, user.apiKey)).status).toBe(200);
    expect((await app.post('/api/v1/tone/transform', tone, user.apiKey)).status).toBe(200);
    expect((await app.post('/api/v1/tone/transform', tone, user.apiKey)).status).toBe(429);
    expect((await app.post('/api/v1/tone/transform', tone)).status).toBe(401);
    expect((await app.post('/api/v1/tone/transform', { text: 7 }, user.apiKey)).status).toBe(400);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) => after.value(name, labels) - before.value(name, labels);
    expect(moved('aihub_operation_calls_total', { operation: op, outcome: 'ok' })).toBe(2);
    expect(moved('aihub_operation_calls_total', { operation: op, outcome: 'quota' })).toBe(1);
    expect(moved('aihub_operation_calls_total', { operation: op, outcome: 'auth' })).toBe(1);
    expect(moved('aihub_operation_calls_total', { operation: op, outcome: 'validation' })).toBe(1);
    expect(moved('aihub_http_requests_total', { route: '/api/v1/tone/transform', status: '429' })).toBe(1);
    const chats = llm.requestsTo('chat').length;
    expect(chats).toBeGreaterThanOrEqual(2);
    expect(moved('aihub_upstream_calls_total', { provider: 'llm', call: 'chat', outcome: 'ok' })).toBe(chats);
    expect(moved('aihub_upstream_call_duration_seconds_count', { provider: 'llm', call: 'chat' })).toBe(chats);
  });

  it('counts a failed LLM call by its kind of failure', async () => {
    const other = await app.signUp();
    llm.onChat(() => ({ status: 400, error: { message: 'bad request', type: 'invalid_request_error' } }));
    const before = await scrape();
    const res = await app.post('/api/v1/tone/transform', { text: '안녕하세요' }, other.apiKey);
    expect(res.status).toBeGreaterThanOrEqual(400);
    const after = await scrape();
    const failed = ['refused', 'failed', 'timeout', 'rate_limited'].map(
      (outcome) =>
        after.value('aihub_upstream_calls_total', { provider: 'llm', outcome }) -
        before.value('aihub_upstream_calls_total', { provider: 'llm', outcome }),
    );
    expect(failed.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it('says the watch poller ran, and how late it was', async () => {
    await app.runtime.watchPoller.runCycle({ accountIds: [user.accountId] });
    const text = await scrape();
    expect(text.value('aihub_watch_poll_last_cycle_timestamp_seconds')).toBeGreaterThan(0);
    expect(text.value('aihub_watch_poll_lag_seconds')).toBe(0);
  });

  it('never carries a key, an e-mail, a URL, a token or a message in a label', async () => {
    const someone = await app.signUp();
    await app.post('/api/v1/subscriptions', { api: 'harmful-url-detection' }, someone.apiKey);
    const url = 'https://phish-secret-host.xyz/login?user=victim-marker';
    const message = '엄마 나 폰 액정 깨져서 수리 맡겼어 비밀표식문구';
    expect((await app.post('/api/v1/url/detect', { url }, someone.apiKey)).status).toBe(200);
    expect((await app.post('/api/v1/url/scan', { text: message }, someone.apiKey)).status).toBe(200);
    await app.post('/api/v1/url/detect', { url }, 'aik_invalidkeymarker0000000000000000');
    await app.get('/nope/secret-path-segment');
    await app.get('/api/v1/keys', bearer(someone.token));
    const text = (await app.get('/metrics', bearer(TOKEN))).body as string;
    for (const secret of [
      someone.apiKey,
      someone.token,
      'aik_invalidkeymarker',
      someone.email,
      '@example.com',
      'phish-secret-host',
      'victim-marker',
      '비밀표식문구',
      'secret-path-segment',
      TOKEN,
    ])
      expect(text, secret).not.toContain(secret);
    expect(parsePrometheusText(text).value('aihub_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThan(0);
    expect(parsePrometheusText(text).value('aihub_message_check_duration_seconds_count', { input: 'text' })).toBeGreaterThan(0);
  });
});

describe('GET /metrics switched off, or on METRICS_PORT', () => {
  it('is a 404 without METRICS_TOKEN and METRICS_PORT', async () => {
    const app = await startTestApp();
    try {
      const res = await app.get('/metrics', bearer(TOKEN));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 404, error_code: 'NOT_FOUND' });
    } finally {
      await app.close();
    }
  });

  it('with METRICS_PORT: served there alone (token asked when set), a 404 on the main port', async () => {
    const app = await startTestApp({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
    const server = createMetricsServer(app.runtime).listen(0, '127.0.0.1');
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await app.get('/metrics', bearer(TOKEN))).status).toBe(404);
      const refused = await fetch(`${base}/metrics`);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ success: false, code: 401, error_code: 'UNAUTHORIZED' });
      const served = await fetch(`${base}/metrics`, { headers: bearer(TOKEN) });
      expect(served.status).toBe(200);
      expect(parsePrometheusText(await served.text()).types.get('aihub_http_requests_total')).toBe('counter');
      const elsewhere = await fetch(`${base}/api/v1/catalog`, { headers: bearer(TOKEN) });
      expect(elsewhere.status).toBe(404);
      expect(await elsewhere.json()).toMatchObject({ success: false, code: 404, error_code: 'NOT_FOUND' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    }
  });
});
