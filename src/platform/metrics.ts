import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { UpstreamObserver } from '../providers/upstream-observer.js';
import type { LearnedModelInfo } from './learned-models.js';
import { METRICS, type MetricDefinition, type MetricKey, type OperationObserver } from './metric-definitions.js';

/** A feed as the harmful-URL lists in use know it (in memory: a scrape never queries the database). */
export interface FeedGauge {
  name: string;
  entries: number;
  fetchedAt: Date | null;
}

/** What is read at scrape time, from memory: the runtime hands these in once the parts exist. */
export interface MetricSources {
  feeds(): readonly FeedGauge[];
  learnedModels(): readonly LearnedModelInfo[];
  guardQueueDepth(): number;
}

/**
 * The service's metrics (issue 48): one registry per runtime (never prom-client's global one, so
 * runtimes built side by side in one process keep apart), filled by the parts through the small
 * functions below, and read by `GET /metrics` (`scrape`). Label values are bounded by contract
 * (src/platform/metric-definitions.ts).
 */
export interface Metrics {
  readonly contentType: string;
  scrape(): Promise<string>;
  /** One answered HTTP request; `route` is the declared template (or `UNMATCHED_ROUTE`). */
  request(method: string, route: string, status: number, seconds: number): void;
  operation: OperationObserver;
  upstream: UpstreamObserver;
  ocr(pool: 'id' | 'message', seconds: number): void;
  messageCheck(input: 'text' | 'image', seconds: number): void;
  guardDropped(): void;
  /** A poll cycle: how late its oldest due watch was when it started, and when it ended. */
  watchCycle(lagSeconds: number, endedAt: Date): void;
  /** The parts read at scrape (set once by the composition root). */
  readFrom(sources: MetricSources): void;
  /** Stops the event-loop monitor. */
  close(): void;
}

type Instrument = Counter<string> | Gauge<string> | Histogram<string>;

function build(definition: MetricDefinition, registry: Registry, collect?: (this: Gauge<string>) => void): Instrument {
  const common = { name: definition.name, help: definition.help, labelNames: [...definition.labels], registers: [registry] };
  if (definition.type === 'counter') return new Counter(common);
  if (definition.type === 'histogram') return new Histogram({ ...common, buckets: [...(definition.buckets ?? [])] });
  return new Gauge({ ...common, ...(collect ? { collect } : {}) });
}

export function createMetrics(options: { now?: () => Date } = {}): Metrics {
  const now = options.now ?? (() => new Date());
  const registry = new Registry();
  let sources: MetricSources | undefined;
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();

  // Gauges read at scrape time from memory: each sets its series afresh (a feed removed from
  // the configuration disappears with the next reload).
  const collectors: Partial<Record<MetricKey, (gauge: Gauge<string>) => void>> = {
    feedAge(gauge) {
      gauge.reset();
      const at = now().getTime();
      for (const feed of sources?.feeds() ?? [])
        if (feed.fetchedAt) gauge.set({ feed: feed.name }, Math.max(0, (at - feed.fetchedAt.getTime()) / 1000));
    },
    feedEntries(gauge) {
      gauge.reset();
      for (const feed of sources?.feeds() ?? []) gauge.set({ feed: feed.name }, feed.entries);
    },
    learnedModel(gauge) {
      gauge.reset();
      for (const model of sources?.learnedModels() ?? []) gauge.set({ model: model.name }, model.trained ? 1 : 0);
    },
    learnedModelExamples(gauge) {
      gauge.reset();
      for (const model of sources?.learnedModels() ?? []) gauge.set({ model: model.name }, model.examples);
    },
    guardQueueDepth(gauge) {
      gauge.set(sources?.guardQueueDepth() ?? 0);
    },
    memory(gauge) {
      const memory = process.memoryUsage();
      gauge.set({ kind: 'rss' }, memory.rss);
      gauge.set({ kind: 'heap_used' }, memory.heapUsed);
      gauge.set({ kind: 'heap_total' }, memory.heapTotal);
      gauge.set({ kind: 'external' }, memory.external);
    },
    eventLoopDelay(gauge) {
      // Nanoseconds since the previous scrape; nothing measured yet reads as 0, not as NaN.
      const seconds = (ns: number) => (Number.isFinite(ns) && loop.count > 0 ? ns / 1e9 : 0);
      gauge.set({ quantile: '0.5' }, seconds(loop.percentile(50)));
      gauge.set({ quantile: '0.99' }, seconds(loop.percentile(99)));
      gauge.set({ quantile: '1' }, seconds(loop.max));
      loop.reset();
    },
  };
  const instruments = Object.fromEntries(
    (Object.keys(METRICS) as MetricKey[]).map((key) => {
      const collector = collectors[key];
      return [
        key,
        build(
          METRICS[key],
          registry,
          collector &&
            function (this: Gauge<string>) {
              collector(this);
            },
        ),
      ];
    }),
  ) as Record<MetricKey, Instrument>;
  const counter = (key: MetricKey) => instruments[key] as Counter<string>;
  const histogram = (key: MetricKey) => instruments[key] as Histogram<string>;
  const gauge = (key: MetricKey) => instruments[key] as Gauge<string>;

  // The request path's cost: one map lookup and two bound children per answered request.
  const requestSeries = new Map<string, { count: Counter.Internal; time: Histogram.Internal<string> }>();
  const httpRequests = counter('httpRequests');
  const httpDuration = histogram('httpDuration');
  const operationCalls = counter('operationCalls');
  const upstreamCalls = counter('upstreamCalls');
  const upstreamDuration = histogram('upstreamDuration');

  return {
    contentType: registry.contentType,
    scrape: () => registry.metrics(),
    request(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let series = requestSeries.get(key);
      if (!series) {
        const labels = { method, route, status: String(status) };
        series = { count: httpRequests.labels(labels), time: httpDuration.labels(labels) };
        requestSeries.set(key, series);
      }
      series.count.inc();
      series.time.observe(seconds);
    },
    operation: (operation, outcome) => operationCalls.inc({ operation, outcome }),
    upstream(provider, call, seconds, outcome) {
      upstreamCalls.inc({ provider, call, outcome });
      upstreamDuration.observe({ provider, call }, seconds);
    },
    ocr: (pool, seconds) => histogram('ocrDuration').observe({ pool }, seconds),
    messageCheck: (input, seconds) => histogram('messageCheckDuration').observe({ input }, seconds),
    guardDropped: () => counter('guardDropped').inc(),
    watchCycle(lagSeconds, endedAt) {
      gauge('watchLag').set(lagSeconds);
      gauge('watchLastCycle').set(endedAt.getTime() / 1000);
    },
    readFrom(given) {
      sources = given;
    },
    close: () => loop.disable(),
  };
}
