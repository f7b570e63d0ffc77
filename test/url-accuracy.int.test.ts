import { describe, expect, it } from 'vitest';
import { getDomain } from 'tldts';
import { createUrlEngine, type UrlEngine } from '../src/operations/url-detect/engine.js';
import { ListIndex } from '../src/operations/url-detect/lists/list-index.js';
import { buildDetectionLists, expressionHost, teamEntries } from '../src/operations/url-detect/lists/detection-lists.js';
import { evaluate, type Figures } from './data/url-evaluate.js';
import { FRESH, HOLDOUT, TUNE, type LabelledUrl } from './data/url-labelled.js';
import { CLEAN, LATEST, partOf, readReal, urlOf } from './data/url-real.js';
import { sharedDataPresent } from './helpers/shared-data.js';

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

/**
 * Zero-hour detection on the real public lists in ../shared/data/url-lists (issue 19), read in
 * place and skipped when absent. Only the gambling, adult and phishing lists and small samples
 * are read and the model is small, so this stays within seconds. The floors sit well above what
 * the detector reached before this change (no feeds: gambling 54%, adult 31%, phishing 3%) and a
 * margin below what it reaches now (68%, 36%, 9%), so they catch a regression without pinning the lists' exact
 * contents. `npm run eval:urls` gives the full figures.
 */
describe.skipIf(!sharedDataPresent('url-lists/README.md'))('zero-hour detection on real public lists (dev part only)', () => {
  const every = <T>(items: readonly T[], max: number) =>
    items.length <= max ? [...items] : Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)]!);
  const files = () => LATEST.filter((spec) => ['gambling', 'adult', 'phishing'].includes(spec.category)).map(readReal);
  const harmUrls = (category: string, max: number) =>
    every(
      files()
        .filter((feed) => feed.category === category)
        .flatMap((feed) => feed.entries.filter((e) => partOf(e) === 'dev').map(urlOf)),
      max,
    );
  const cleanSites = () => {
    const listed = new Set(files().flatMap((feed) => feed.entries.map(expressionHost)));
    const domains = readReal(CLEAN)
      .entries.filter((e) => partOf(e) === 'dev')
      .map((e) => getDomain(expressionHost(e)) ?? expressionHost(e))
      .filter((d) => !listed.has(d));
    return every([...new Set(domains)], 1500).map((d) => `https://${d}/`);
  };
  const rate = (engine: UrlEngine, urls: string[]) => {
    let n = 0;
    let hit = 0;
    for (const url of urls) {
      try {
        if (engine.listCheck(url)) continue;
        n++;
        if (engine.classifyRules(url).isMalicious) hit++;
      } catch {
        // A few list names are no valid URL host.
      }
    }
    return hit / Math.max(1, n);
  };

  it('no feeds: hand-written rules catch English and Korean gambling and adult names and phishing kits, clean sites stay clean', async () => {
    const bare = createUrlEngine(await buildDetectionLists([], { model: false }));
    const figures = {
      gambling: rate(bare, harmUrls('gambling', 400)),
      adult: rate(bare, harmUrls('adult', 1000)),
      phishing: rate(bare, harmUrls('phishing', 1000)),
      clean: rate(bare, cleanSites()),
    };
    console.log('no feeds, dev sample:', figures);
    expect(figures.gambling).toBeGreaterThanOrEqual(0.62);
    expect(figures.adult).toBeGreaterThanOrEqual(0.33);
    expect(figures.phishing).toBeGreaterThanOrEqual(0.07);
    expect(figures.clean).toBeLessThanOrEqual(0.01);
  }, 120_000);

  it('with feeds of the train part: a small model and the rules catch URLs on no loaded list', async () => {
    const clean = readReal(CLEAN);
    const lists = await buildDetectionLists(
      [
        ...files().map((feed) => ({ ...feed, entries: feed.entries.filter((e) => partOf(e) === 'train'), exceptions: [] })),
        { ...clean, entries: clean.entries.filter((e) => partOf(e) === 'train') },
      ],
      { maxPerCategory: 3000, maxClean: 10_000, epochs: 3 },
    );
    const engine = createUrlEngine(lists);
    const harm = ['gambling', 'adult', 'phishing'].flatMap((category) => harmUrls(category, 400));
    const figures = { harm: rate(engine, harm), clean: rate(engine, cleanSites()) };
    console.log('zero-hour with a small model, dev sample:', figures, lists.model?.info);
    expect(lists.model?.info.suspicious).toBeLessThanOrEqual(lists.model?.info.threshold ?? 0);
    expect(figures.harm).toBeGreaterThanOrEqual(FLOOR_WITH_MODEL);
    expect(figures.clean).toBeLessThanOrEqual(0.03);
  }, 120_000);
});

/** Measured 49% (clean sites 1.1%) with this small model; the production-size model does better (`npm run eval:urls`). */
const FLOOR_WITH_MODEL = 0.42;
