import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { shuffle } from '../../url-detect/model/lexical-model.js';
import { readCues } from '../message-cues.js';
import { MESSAGE_FEATURE_BITS, MESSAGE_FEATURE_VERSION, messageFeatures, type MessageFeatures } from '../message-features.js';
import type { ScamScripts } from '../scam-scripts.js';

/** One labelled message for training: its text, whether it is a scam, and how much it counts. */
export interface TrainingMessage {
  text: string;
  scam: boolean;
  /** Relative weight (legitimate notifications, the hard negatives, count more). */
  weight?: number;
}

/**
 * The probability cuts of the model's levels, calibrated on scores of messages the model did not
 * train on (out-of-fold): `likely` is where a message is called smishing, `firm` where the link
 * guard may warn unasked, `uncertain` where an LLM (when configured) is asked.
 */
export const levelsSchema = z
  .object({ uncertain: z.number().min(0).max(1), likely: z.number().min(0).max(1), firm: z.number().min(0).max(1) })
  .refine((l) => l.uncertain <= l.likely && l.likely <= l.firm, '단계는 uncertain ≤ likely ≤ firm 순서여야 합니다');

export const messageModelMetaSchema = z.object({
  name: z.literal('message-model'),
  featureVersion: z.number().int(),
  featureBits: z.number().int().min(10).max(24),
  bias: z.number(),
  trainedAt: z.string(),
  examples: z.object({ scam: z.number().int(), ordinary: z.number().int(), notifications: z.number().int() }),
  levels: levelsSchema,
  /** Where the examples came from, and the citation their source asks for. */
  data: z.string(),
  citation: z.string(),
  /** How the levels were calibrated (out-of-fold rates at each cut). */
  calibration: z.record(z.string(), z.unknown()).optional(),
});
export type MessageModelMeta = z.output<typeof messageModelMetaSchema>;

export interface TrainOptions {
  epochs?: number;
  /** AdaGrad's base step. */
  learningRate?: number;
  /** L2 pull toward zero, per update. */
  l2?: number;
  scripts?: ScamScripts;
}

/**
 * Logistic regression over hashed character n-grams of a message and the rules' findings
 * (message-features.ts), trained with AdaGrad, classes weighted to balance: 300 scams against
 * 20,000 ordinary lines would otherwise teach "never a scam".
 */
export class MessageModel {
  private constructor(
    private readonly weights: Float32Array,
    readonly meta: MessageModelMeta,
  ) {}

  static train(
    messages: readonly TrainingMessage[],
    meta: Omit<MessageModelMeta, 'bias' | 'featureBits' | 'featureVersion'>,
    options: TrainOptions = {},
  ): MessageModel {
    const weights = new Float32Array(1 << MESSAGE_FEATURE_BITS);
    const squared = new Float32Array(weights.length).fill(0.1);
    const rows = messages.map((m) => ({
      x: messageFeatures(m.text, readCues(m.text, options.scripts)),
      y: m.scam ? 1 : 0,
      w: m.weight ?? 1,
    }));
    const total = (y: number) => rows.filter((r) => r.y === y).reduce((sum, r) => sum + r.w, 0);
    const scamWeight = rows.length / (2 * Math.max(1, total(1)));
    const cleanWeight = rows.length / (2 * Math.max(1, total(0)));
    const rate = options.learningRate ?? 0.2;
    const l2 = options.l2 ?? 1e-5;
    let bias = 0;
    let biasSquared = 0.1;
    const order = Uint32Array.from(rows.keys());
    for (let epoch = 0; epoch < (options.epochs ?? 10); epoch++) {
      shuffle(order, epoch + 1);
      for (const n of order) {
        const row = rows[n]!;
        const p = sigmoid(bias + linear(weights, row.x));
        const g = (p - row.y) * row.w * (row.y === 1 ? scamWeight : cleanWeight);
        biasSquared += g * g;
        bias -= (rate * g) / Math.sqrt(biasSquared);
        const step = (ids: Uint32Array, value: number) => {
          for (const id of ids) {
            const gi = g * value + l2 * weights[id]!;
            squared[id]! += gi * gi;
            weights[id]! -= (rate * gi) / Math.sqrt(squared[id]!);
          }
        };
        step(row.x.grams, gramValue(row.x));
        step(row.x.cues, 1);
      }
    }
    return new MessageModel(weights, { ...meta, bias, featureBits: MESSAGE_FEATURE_BITS, featureVersion: MESSAGE_FEATURE_VERSION });
  }

  /** Probability that the message is a scam (before calibration into levels). */
  predict(text: string, scripts?: ScamScripts): number {
    return this.predictFeatures(messageFeatures(text, readCues(text, scripts)));
  }

  predictFeatures(features: MessageFeatures): number {
    return sigmoid(this.meta.bias + linear(this.weights, features));
  }

  withLevels(levels: MessageModelMeta['levels'], calibration?: MessageModelMeta['calibration']): MessageModel {
    return new MessageModel(this.weights, { ...this.meta, levels, ...(calibration ? { calibration } : {}) });
  }

  /** The weights as little-endian Float32 bytes (the `.bin` beside the metadata). */
  weightBytes(): Buffer {
    return Buffer.from(this.weights.buffer, this.weights.byteOffset, this.weights.byteLength);
  }

  static fromParts(meta: unknown, bytes: Buffer): MessageModel {
    const parsed = messageModelMetaSchema.parse(meta);
    if (parsed.featureVersion !== MESSAGE_FEATURE_VERSION || parsed.featureBits !== MESSAGE_FEATURE_BITS) {
      throw new Error(
        `message model: features v${parsed.featureVersion}/${parsed.featureBits} bits, this code reads v${MESSAGE_FEATURE_VERSION}/${MESSAGE_FEATURE_BITS}: retrain it (npm run train:messages)`,
      );
    }
    if (bytes.length !== 4 << MESSAGE_FEATURE_BITS)
      throw new Error(`message model: ${bytes.length} bytes of weights, expected ${4 << MESSAGE_FEATURE_BITS}`);
    const weights = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    return new MessageModel(weights, parsed);
  }

  /** Loads `<path>` (the metadata JSON) and the `.bin` weights beside it. */
  static async load(metaPath: string): Promise<MessageModel> {
    const [meta, bytes] = await Promise.all([readFile(metaPath, 'utf8'), readFile(metaPath.replace(/\.json$/, '.bin'))]);
    return MessageModel.fromParts(JSON.parse(meta), bytes);
  }
}

/** Each n-gram weighs 1/√n, so a long message does not outvote a short one; each rule finding weighs 1. */
function gramValue(features: MessageFeatures): number {
  return 1 / Math.sqrt(Math.max(1, features.grams.length));
}

function linear(weights: Float32Array, features: MessageFeatures): number {
  let grams = 0;
  for (const id of features.grams) grams += weights[id]!;
  let cues = 0;
  for (const id of features.cues) cues += weights[id]!;
  return grams * gramValue(features) + cues;
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
