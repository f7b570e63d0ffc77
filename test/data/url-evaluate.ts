import type { Classification } from '../../src/operations/url-detect/engine.js';
import type { LabelledUrl } from './url-labelled.js';

export interface Figures {
  malicious: number;
  clean: number;
  /** Share of malicious URLs judged malicious. */
  recall: number;
  /** Share of clean URLs judged malicious. */
  falsePositiveRate: number;
  /** Among malicious URLs detected, share given the right category. */
  categoryAccuracy: number;
  /** Malicious URLs decided by a list rather than the rules. */
  byList: number;
  misses: string[];
  falsePositives: string[];
  wrongCategory: string[];
}

/** Accuracy figures of a classifier over a labelled set. */
export function evaluate(set: readonly LabelledUrl[], classify: (url: string) => Classification): Figures {
  let malicious = 0, clean = 0, detected = 0, rightCategory = 0, flagged = 0, byList = 0;
  const misses: string[] = [], falsePositives: string[] = [], wrongCategory: string[] = [];
  for (const { url, label } of set) {
    const verdict = classify(url);
    if (label === 'clean') {
      clean++;
      if (verdict.isMalicious) {
        flagged++;
        falsePositives.push(`${url} → ${verdict.category} (${verdict.reason})`);
      }
      continue;
    }
    malicious++;
    if (!verdict.isMalicious) {
      misses.push(`${url} [${label}] score ${verdict.score}`);
      continue;
    }
    detected++;
    if (verdict.source === 'list') byList++;
    if (verdict.category === label) rightCategory++;
    else wrongCategory.push(`${url} [${label}] → ${verdict.category}`);
  }
  return {
    malicious,
    clean,
    recall: detected / malicious,
    falsePositiveRate: flagged / clean,
    categoryAccuracy: detected === 0 ? 0 : rightCategory / detected,
    byList,
    misses,
    falsePositives,
    wrongCategory,
  };
}
