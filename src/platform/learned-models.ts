import { z } from 'zod';

/**
 * The learned models in use (CONTRACT §5): what `GET /api/v1/url/lists` and `/healthz/ready`
 * list, so that a model switched off by configuration (no clean feed, too few examples) shows
 * as `trained: false` instead of going unnoticed.
 */
export interface LearnedModelInfo {
  /** Stable name: `url-host-model`, `url-smishing-model`, `url-shorteners`… */
  name: string;
  /** Whether the model is trained and used now. */
  trained: boolean;
  /** Examples it learned from (0 when untrained). */
  examples: number;
  /** When it was trained (ISO 8601), null when untrained. */
  trained_at: string | null;
}

/** One operation's models, read at the moment of the call (a reload may swap them). */
export type LearnedModelProvider = () => LearnedModelInfo[];

/** The answer's shape, for the routes' declarations. */
export const learnedModelSchema = z.object({
  name: z.string(),
  trained: z.boolean(),
  examples: z.number().int(),
  trained_at: z.string().nullable(),
});

export const LEARNED_MODELS_EXAMPLE: LearnedModelInfo[] = [
  { name: 'url-host-model', trained: true, examples: 190_000, trained_at: '2026-11-28T06:00:31.000Z' },
  { name: 'url-smishing-model', trained: true, examples: 101_500, trained_at: '2026-11-28T06:00:33.000Z' },
  { name: 'url-shorteners', trained: true, examples: 31, trained_at: '2026-11-28T06:00:30.000Z' },
];

/** The runtime's list: every provider's models, in the order the providers were given. */
export function learnedModelRegistry(providers: readonly LearnedModelProvider[]): { list(): LearnedModelInfo[] } {
  return { list: () => providers.flatMap((provider) => provider()) };
}
