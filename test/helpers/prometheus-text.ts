/** One sample of a Prometheus text exposition: the series name, its labels, its value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  /** `# TYPE` lines: metric name → type. */
  types: Map<string, string>;
  samples: Sample[];
  /** The sum of the samples of `name` whose labels include `labels` (0 when none). */
  value(name: string, labels?: Record<string, string>): number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/**
 * Parses the text format (version 0.0.4) strictly enough for the tests: every line is a
 * comment (`# HELP`, `# TYPE`) or a sample with a numeric value; anything else throws.
 */
export function parsePrometheusText(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a Prometheus text line: ${line}`);
    const value = Number(match[3] === '+Inf' ? Infinity : match[3] === '-Inf' ? -Infinity : match[3]);
    if (Number.isNaN(value) && match[3] !== 'NaN') throw new Error(`not a number: ${line}`);
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map((label) => [label[1]!, label[2]!]));
    samples.push({ name: match[1]!, labels, value });
  }
  return {
    types,
    samples,
    value(name, labels = {}) {
      return samples
        .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
        .reduce((sum, sample) => sum + sample.value, 0);
    },
  };
}
