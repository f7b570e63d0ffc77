import { describe, expect, it } from 'vitest';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { ListIndex } from '../src/operations/url-detect/list-index.js';
import { teamEntries } from '../src/operations/url-detect/detection-lists.js';
import { evaluate, type Figures } from './data/url-evaluate.js';
import { FRESH, HOLDOUT, TUNE, type LabelledUrl } from './data/url-labelled.js';

/** Offline engine: team lists and rules, no feeds, no LLM. */
const engine = createUrlEngine({ index: ListIndex.build(teamEntries()) });

function figures(set: readonly LabelledUrl[]): Figures {
  const result = evaluate(set, (url) => engine.classifyRules(url));
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  console.log(
    `malicious ${result.malicious}, clean ${result.clean}: recall ${pct(result.recall)}, false positives ${pct(result.falsePositiveRate)}, ` +
      `right category ${pct(result.categoryAccuracy)}, decided by a list ${result.byList}\n  misses: ${result.misses.join('; ') || '-'}`,
  );
  return result;
}

describe('labelled URL set (issue 4 targets)', () => {
  it('is big enough: ≥ 40 per category and ≥ 80 clean', () => {
    const all = [...TUNE, ...HOLDOUT, ...FRESH];
    for (const label of ['spam', 'gambling', 'adult', 'phishing', 'malware']) {
      expect(all.filter((item) => item.label === label).length).toBeGreaterThanOrEqual(40);
    }
    expect(all.filter((item) => item.label === 'clean').length).toBeGreaterThanOrEqual(80);
    expect(new Set(all.map((item) => item.url)).size).toBe(all.length);
  });

  it.each([
    ['tuning part', TUNE],
    ['held-out part', HOLDOUT],
    ['fresh held-out part', FRESH],
  ])('%s: recall ≥ 90%%, false positives ≤ 1%%, right category ≥ 85%%', (_name, set) => {
    const result = figures(set);
    expect(result.recall).toBeGreaterThanOrEqual(0.9);
    expect(result.falsePositives).toEqual([]);
    expect(result.categoryAccuracy).toBeGreaterThanOrEqual(0.85);
  });

  it('needs the rules, not only the lists: most detections come from the score', () => {
    const result = evaluate([...TUNE, ...HOLDOUT, ...FRESH], (url) => engine.classifyRules(url));
    expect(result.byList / (result.recall * result.malicious)).toBeLessThan(0.1);
  });
});
