import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '../src/errors.js';
import { METRICS, OPERATION_OUTCOMES, outcomeOfCode } from '../src/platform/metric-definitions.js';
import { createMetrics } from '../src/platform/metrics.js';
import { parsePrometheusText } from './helpers/prometheus-text.js';

/**
 * The metric names are an interface (dashboards and alert rules in docs/operating.md name them):
 * written out here in full, so a rename, a new label or a changed type fails this test and is
 * made on purpose, with the docs.
 */
const PINNED = [
  ['aihub_http_requests_total', 'counter', ['method', 'route', 'status']],
  ['aihub_http_request_duration_seconds', 'histogram', ['method', 'route', 'status']],
  ['aihub_operation_calls_total', 'counter', ['operation', 'outcome']],
  ['aihub_upstream_calls_total', 'counter', ['provider', 'call', 'outcome']],
  ['aihub_upstream_call_duration_seconds', 'histogram', ['provider', 'call']],
  ['aihub_url_feed_age_seconds', 'gauge', ['feed']],
  ['aihub_url_feed_entries', 'gauge', ['feed']],
  ['aihub_learned_model_in_use', 'gauge', ['model']],
  ['aihub_learned_model_examples', 'gauge', ['model']],
  ['aihub_ocr_duration_seconds', 'histogram', ['pool']],
  ['aihub_message_check_duration_seconds', 'histogram', ['input']],
  ['aihub_link_guard_queue_depth', 'gauge', []],
  ['aihub_link_guard_dropped_total', 'counter', []],
  ['aihub_watch_poll_lag_seconds', 'gauge', []],
  ['aihub_watch_poll_last_cycle_timestamp_seconds', 'gauge', []],
  ['aihub_process_memory_bytes', 'gauge', ['kind']],
  ['aihub_event_loop_delay_seconds', 'gauge', ['quantile']],
];

describe('the metric set', () => {
  it('is the pinned list of names, types and label names', () => {
    expect(Object.values(METRICS).map((metric) => [metric.name, metric.type, [...metric.labels]])).toEqual(PINNED);
  });

  it('is what a registry exports, and nothing else (no prom-client defaults)', async () => {
    const metrics = createMetrics({ now: () => new Date('2026-11-28T00:00:00Z') });
    try {
      metrics.request('GET', '/healthz', 200, 0.001);
      const text = parsePrometheusText(await metrics.scrape());
      expect([...text.types]).toEqual(PINNED.map(([name, type]) => [name, type]));
      expect(text.value('aihub_http_requests_total', { method: 'GET', route: '/healthz', status: '200' })).toBe(1);
    } finally {
      metrics.close();
    }
  });

  it('reads the feeds, models and guard queue at scrape time, from what it is handed', async () => {
    const now = new Date('2026-11-28T12:00:00Z');
    const metrics = createMetrics({ now: () => now });
    try {
      let depth = 3;
      metrics.readFrom({
        feeds: () => [
          { name: 'kisa', entries: 1200, fetchedAt: new Date('2026-11-28T11:00:00Z') },
          { name: 'never', entries: 0, fetchedAt: null },
        ],
        learnedModels: () => [{ name: 'url-host-model', trained: false, examples: 0, trained_at: null }],
        guardQueueDepth: () => depth,
      });
      let text = parsePrometheusText(await metrics.scrape());
      expect(text.value('aihub_url_feed_age_seconds', { feed: 'kisa' })).toBe(3600);
      expect(text.samples.filter((sample) => sample.name === 'aihub_url_feed_age_seconds')).toHaveLength(1);
      expect(text.value('aihub_url_feed_entries', { feed: 'kisa' })).toBe(1200);
      expect(text.samples).toContainEqual({ name: 'aihub_learned_model_in_use', labels: { model: 'url-host-model' }, value: 0 });
      expect(text.value('aihub_link_guard_queue_depth')).toBe(3);
      depth = 0;
      text = parsePrometheusText(await metrics.scrape());
      expect(text.value('aihub_link_guard_queue_depth')).toBe(0);
    } finally {
      metrics.close();
    }
  });

  it('gives every error code an outcome from the fixed set', () => {
    for (const code of Object.keys(ERROR_STATUS) as ErrorCode[]) expect(OPERATION_OUTCOMES).toContain(outcomeOfCode(code));
    expect(outcomeOfCode('QUOTA_EXCEEDED')).toBe('quota');
    expect(outcomeOfCode('UNAUTHORIZED')).toBe('auth');
    expect(outcomeOfCode('INVALID_REQUEST')).toBe('validation');
    expect(outcomeOfCode('UPSTREAM_TIMEOUT')).toBe('upstream');
    expect(outcomeOfCode(undefined)).toBe('error');
  });
});
