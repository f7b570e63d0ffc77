import { AppError } from '../errors.js';

/** The outside services the adapters here call. */
export type UpstreamProvider = 'llm' | 'tracker' | 'nts';

/** How an outside call ended: a fixed set (the metrics' label values). */
export type UpstreamOutcome = 'ok' | 'timeout' | 'rate_limited' | 'failed' | 'refused';

/**
 * Told of every outside call an adapter makes (the runtime hands in the metrics'; absent in unit
 * tests): provider, a fixed call kind (`chat`, `embed`, `track`, `status` …), its duration and
 * how it ended. Never the request, the answer or the address.
 */
export type UpstreamObserver = (provider: UpstreamProvider, call: string, seconds: number, outcome: UpstreamOutcome) => void;

/** An adapter's thrown error as an outcome: a timeout, the upstream's rate limit, its failure, or a refusal of the request (4xx). */
export function upstreamOutcome(error: unknown): UpstreamOutcome {
  const status = error instanceof AppError ? error.status : 500;
  if (status === 504) return 'timeout';
  if (status === 429) return 'rate_limited';
  return status >= 500 ? 'failed' : 'refused';
}
