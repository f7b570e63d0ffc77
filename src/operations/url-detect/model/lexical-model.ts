import { getDomain } from 'tldts';
import { FEATURE_BITS, FEATURE_VERSION, hostFeatures } from './lexical-features.js';
import { categoryThresholds, type ScoredExample } from './lexical-calibration.js';
import { CLASSES, pause, sampleExamples, stableHash, type Row } from './lexical-examples.js';
import type { HarmCategory } from '../lists/list-index.js';

export { stableHash } from './lexical-examples.js';

const K = CLASSES.length;
const ADAGRAD_START = 0.1;
const L2 = 1e-6;

export interface TrainingOptions {
  /** Examples kept per harm category (sampled by hash, so the same feeds give the same model). */
  maxPerCategory?: number;
  maxClean?: number;
  epochs?: number;
  /** Share of clean validation sites allowed above the category thresholds together (default 0.12%: the rules spend the rest of 1%). */
  targetFalsePositiveRate?: number;
  /** Share of clean validation hosts allowed above the `suspicious` level. */
  suspiciousFalsePositiveRate?: number;
  /** Yield to the event loop every this many examples, so requests are answered meanwhile. */
  yieldEvery?: number;
  /** AdaGrad's base step. */
  learningRate?: number;
  /**
   * Weight of a clean registrable domain (a site users open) against a clean service host
   * (api.x.com): false positives are counted on sites, and hosts far outnumber them.
   */
  siteWeight?: number;
  /** The clock the training time is read from (`trainedAt`). */
  now?: () => Date;
}

export interface LexicalPrediction {
  /** Probability that the host is not clean. */
  harm: number;
  category: HarmCategory;
  /** Model's own decision at its calibrated threshold. */
  flagged: boolean;
  /** Up to three host fragments that pushed hardest toward `category`. */
  evidence: string[];
}

export interface LexicalModelInfo {
  examples: Record<(typeof CLASSES)[number], number>;
  /** Harm at or above which the model decides alone (clean validation names above it: `targetFalsePositiveRate`). */
  threshold: number;
  /** The same decision per leading category, the budget spent where it buys most recall (`categoryThresholds`). */
  thresholds?: Record<HarmCategory, number>;
  /**
   * A lower level (`suspiciousFalsePositiveRate` of clean names above it): there the model is
   * one signal among others and needs the rules to agree.
   */
  suspicious?: number;
  /** The feature set the weights were trained on: weights of another version are not loaded. */
  features?: number;
  trainedMs: number;
  /** When it was trained (ISO 8601; a model saved before this existed has the time it was saved). */
  trainedAt?: string;
}

/**
 * Multinomial logistic regression over hashed character n-grams of the host, trained when
 * the feeds are (re)loaded: the harm feeds are the positive examples, the top-sites feed the
 * clean ones, so the model learns what today's lists look like. Its decision threshold is set
 * on held-back clean hosts to keep false positives near `targetFalsePositiveRate`.
 */
export class LexicalModel {
  private constructor(
    private readonly weights: Float32Array,
    private readonly bias: Float32Array,
    readonly info: LexicalModelInfo,
  ) {}

  static async train(
    examples: Map<(typeof CLASSES)[number], Iterable<string>>,
    options: TrainingOptions = {},
  ): Promise<LexicalModel | undefined> {
    const started = performance.now();
    const yieldEvery = options.yieldEvery ?? 4000;
    const rows = await sampleExamples(examples, options.maxPerCategory ?? 40_000, options.maxClean ?? 100_000, yieldEvery);
    const counts = Object.fromEntries(CLASSES.map((c, i) => [c, rows.filter((r) => r.label === i).length])) as LexicalModelInfo['examples'];
    // Nothing to learn without clean examples or without any harmful one.
    if (counts.clean < 100 || rows.length - counts.clean < 100) return undefined;
    // Held back by registrable domain, not by host: with api.x.com in training, x.com would look
    // familiar and the threshold would promise fewer false positives than real sites give.
    // Clean domains are held back twice as often: the threshold is a quantile of their sites.
    const heldBack = (row: Row) => stableHash(getDomain(row.host) ?? row.host) % 10 < (row.label === 0 ? 2 : 1);
    const validation = rows.filter(heldBack);
    const training = rows.filter((row) => !heldBack(row));
    const classWeight = CLASSES.map((_, i) => {
      const n = training.filter((row) => row.label === i).length;
      return n === 0 ? 0 : training.length / (K * n);
    });
    const weights = new Float32Array((1 << FEATURE_BITS) * K);
    const bias = new Float32Array(K);
    const model = new LexicalModel(weights, bias, { examples: counts, threshold: 0.5, features: FEATURE_VERSION, trainedMs: 0 });
    const epochs = options.epochs ?? 8;
    // Features are extracted once into one flat array, then every epoch walks it.
    const offsets = new Uint32Array(training.length + 1);
    const parts: Uint32Array[] = [];
    for (let n = 0; n < training.length; n++) {
      const ids = hostFeatures(training[n]!.host).ids;
      parts.push(ids);
      offsets[n + 1] = offsets[n]! + ids.length;
      if (n % yieldEvery === yieldEvery - 1) await pause();
    }
    const flat = new Uint32Array(offsets[training.length]!);
    parts.forEach((ids, n) => flat.set(ids, offsets[n]!));
    parts.length = 0;
    const order = Uint32Array.from(training.keys());
    const siteBoost = options.siteWeight ?? 6;
    const rowWeight = Float32Array.from(
      training,
      (row) => (classWeight[row.label] ?? 1) * (row.label === 0 && getDomain(row.host) === row.host ? siteBoost : 1),
    );
    const probabilities = new Float64Array(K);
    // AdaGrad: each weight's step shrinks with its own history, so rare n-grams (most of them)
    // still learn while the common ones settle; a small L2 pull keeps one-off grams modest.
    const squared = new Float32Array(weights.length).fill(ADAGRAD_START);
    const rate = options.learningRate ?? 0.3;
    for (let epoch = 0; epoch < epochs; epoch++) {
      shuffle(order, epoch + 1);
      for (let step = 0; step < order.length; step++) {
        const n = order[step]!;
        const label = training[n]!.label;
        const ids = flat.subarray(offsets[n]!, offsets[n + 1]!);
        const value = 1 / Math.sqrt(ids.length);
        model.scores(ids, value, probabilities);
        for (let k = 0; k < K; k++) {
          const gradient = ((probabilities[k] ?? 0) - (k === label ? 1 : 0)) * rowWeight[n]!;
          bias[k] = (bias[k] ?? 0) - gradient * 0.02;
          for (let i = 0; i < ids.length; i++) {
            const at = ids[i]! * K + k;
            const g = gradient * value + L2 * weights[at]!;
            squared[at]! += g * g;
            weights[at]! -= (rate * g) / Math.sqrt(squared[at]!);
          }
        }
        if (step % yieldEvery === yieldEvery - 1) await pause();
      }
    }
    // Calibrated on held-back registrable domains (the sites users open), the harder clean case.
    const scored = validation
      .filter((row) => row.label !== 0 || getDomain(row.host) === row.host)
      .map((row): ScoredExample => ({ ...model.score(row.host), label: CLASSES[row.label]! }));
    const cleanHarm = scored
      .filter((e) => e.label === 'clean')
      .map((e) => e.harm)
      .sort((a, b) => a - b);
    const quantile = (rate: number) => cleanHarm[Math.floor(cleanHarm.length * (1 - rate))] ?? 0.5;
    // 0.12%, not the 0.15% that gave dev 0.98% of clean sites: with a margin below the 1% promise
    // for sites no tuning saw (dev 0.75% at 0.12%).
    const target = options.targetFalsePositiveRate ?? 0.0012;
    model.info.threshold = Math.max(0.5, quantile(target));
    model.info.suspicious = Math.min(model.info.threshold, Math.max(0.5, quantile(options.suspiciousFalsePositiveRate ?? 0.02)));
    // No category's cut falls below what one shared cut at twice the budget would be.
    model.info.thresholds = categoryThresholds(scored, target, Math.max(0.5, quantile(target * 2)));
    model.info.features = FEATURE_VERSION;
    model.info.trainedMs = Math.round(performance.now() - started);
    model.info.trainedAt = (options.now?.() ?? new Date()).toISOString();
    return model;
  }

  /** Weights and biases as bytes (Float32, little-endian), for the database. */
  toBytes(): Buffer {
    const out = Buffer.alloc((this.weights.length + K) * 4);
    out.set(new Uint8Array(this.weights.buffer, this.weights.byteOffset, this.weights.byteLength));
    out.set(new Uint8Array(this.bias.buffer, this.bias.byteOffset, this.bias.byteLength), this.weights.byteLength);
    return out;
  }

  /** A model saved with `toBytes`; undefined when the bytes do not fit this feature space. */
  static fromBytes(bytes: Buffer, info: LexicalModelInfo): LexicalModel | undefined {
    const size = (1 << FEATURE_BITS) * K;
    if (bytes.length !== (size + K) * 4 || info.features !== FEATURE_VERSION) return undefined;
    const floats = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    return new LexicalModel(floats.subarray(0, size), floats.slice(size), info);
  }

  predict(host: string): LexicalPrediction {
    const { ids, names } = hostFeatures(host);
    const { harm, best } = this.judge(ids);
    const category = CLASSES[best] as HarmCategory;
    return { harm, category, flagged: harm >= this.thresholdOf(category), evidence: this.evidence(ids, names, best) };
  }

  /** The category's own cut; a model saved before those existed has one for all. */
  thresholdOf(category: HarmCategory): number {
    return this.info.thresholds?.[category] ?? this.info.threshold;
  }

  /** Harm and leading category without the evidence (calibration scores thousands of hosts). */
  private score(host: string): { harm: number; category: HarmCategory } {
    const { harm, best } = this.judge(hostFeatures(host).ids);
    return { harm, category: CLASSES[best] as HarmCategory };
  }

  /** Probability that the host is not clean, and the class index of the harm category leading. */
  private judge(ids: Uint32Array): { harm: number; best: number } {
    const probabilities = new Float64Array(K);
    this.scores(ids, 1 / Math.sqrt(ids.length), probabilities);
    let best = 1;
    for (let k = 2; k < K; k++) if ((probabilities[k] ?? 0) > (probabilities[best] ?? 0)) best = k;
    return { harm: 1 - (probabilities[0] ?? 0), best };
  }

  private scores(ids: Uint32Array, value: number, out: Float64Array): void {
    for (let k = 0; k < K; k++) out[k] = this.bias[k]!;
    for (let i = 0; i < ids.length; i++) {
      const base = ids[i]! * K;
      for (let k = 0; k < K; k++) out[k]! += this.weights[base + k]! * value;
    }
    let max = -Infinity;
    for (let k = 0; k < K; k++) if (out[k]! > max) max = out[k]!;
    let sum = 0;
    for (let k = 0; k < K; k++) sum += out[k] = Math.exp(out[k]! - max);
    for (let k = 0; k < K; k++) out[k]! /= sum;
  }

  /** Readable fragments with the largest pull from clean toward the class. */
  private evidence(ids: Uint32Array, names: string[], k: number): string[] {
    const pulls = names
      .map((name, i) => ({ name: readable(name), pull: (this.weights[ids[i]! * K + k] ?? 0) - (this.weights[ids[i]! * K] ?? 0) }))
      .filter((item) => item.name && item.pull > 0)
      .sort((a, b) => b.pull - a.pull);
    const chosen: string[] = [];
    for (const { name } of pulls) {
      if (chosen.some((c) => c.includes(name) || name.includes(c))) continue;
      chosen.push(name);
      if (chosen.length === 3) break;
    }
    return chosen;
  }
}

/** A feature name as a user can read it; shape features are left out of reasons. */
function readable(name: string): string {
  if (name.startsWith('#')) return '';
  if (name.startsWith('w:')) return name.slice(2);
  if (name.startsWith('s:')) return name.slice(2).replace(/[<>]/g, '');
  return name.replace(/[\^$]/g, '');
}

/** Deterministic Fisher–Yates (mulberry32), so a refresh of the same feeds trains the same model. */
export function shuffle(items: Uint32Array, seed: number): void {
  let state = seed * 0x9e3779b9;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    const swap = items[i]!;
    items[i] = items[j]!;
    items[j] = swap;
  }
}
