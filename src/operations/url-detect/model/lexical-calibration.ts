import { HARM_CATEGORIES, type HarmCategory } from '../lists/list-index.js';

/** A held-back example as the trained model sees it. */
export interface ScoredExample {
  harm: number;
  /** The harm category the model leans to. */
  category: HarmCategory;
  /** The list it came from; `clean` for the top-sites examples. */
  label: HarmCategory | 'clean';
}

/** Steps of one false positive looked ahead: a category whose next hit is two clean sites away still gets its turn. */
const LOOKAHEAD = 4;

/**
 * One decision threshold per harm category, spending a false-positive budget where it buys
 * the most recall. A single harm threshold spends it blindly: random-looking malware names and
 * word-glued scam shops crowd the clean sites' top scores differently, so the same cut is too
 * strict for one category and too loose for another. Greedy on held-back examples: each step
 * lets the category whose next clean false positive(s) bring in the largest share of its own
 * list's examples (categories count alike, whatever their size) take them, until
 * `budget` × clean sites are spent. No category drops below `floor`.
 */
export function categoryThresholds(examples: readonly ScoredExample[], budget: number, floor: number): Record<HarmCategory, number> {
  const clean = examples.filter((e) => e.label === 'clean');
  const sizes = new Map<string, number>();
  for (const e of examples) if (e.label !== 'clean') sizes.set(e.label, (sizes.get(e.label) ?? 0) + 1);
  const lanes = HARM_CATEGORIES.map((category) => ({
    category,
    // Clean harms of this category, highest first: allowing n false positives puts the cut just above the n-th.
    clean: clean
      .filter((e) => e.category === category && e.harm >= floor)
      .map((e) => e.harm)
      .sort((a, b) => b - a),
    harmful: examples
      .filter((e) => e.label !== 'clean' && e.category === category && e.harm >= floor)
      .map((e) => ({ harm: e.harm, weight: 1 / (sizes.get(e.label) ?? 1) }))
      .sort((a, b) => b.harm - a.harm),
    allowed: 0,
  }));
  const cut = (lane: (typeof lanes)[number], allowed: number) => (allowed < lane.clean.length ? nextUp(lane.clean[allowed]!) : floor);
  const caught = (lane: (typeof lanes)[number], threshold: number) =>
    lane.harmful.reduce((total, e) => total + (e.harm >= threshold ? e.weight : 0), 0);
  let spent = 0;
  const total = Math.floor(budget * clean.length);
  while (spent < total) {
    let best: { lane: (typeof lanes)[number]; steps: number; rate: number } | undefined;
    for (const lane of lanes) {
      if (lane.allowed >= lane.clean.length) continue;
      const now = caught(lane, cut(lane, lane.allowed));
      for (let steps = 1; steps <= Math.min(LOOKAHEAD, total - spent); steps++) {
        const rate = (caught(lane, cut(lane, lane.allowed + steps)) - now) / steps;
        if (!best || rate > best.rate) best = { lane, steps, rate };
      }
    }
    if (!best || best.rate <= 0) break;
    best.lane.allowed += best.steps;
    spent += best.steps;
  }
  return Object.fromEntries(lanes.map((lane) => [lane.category, Math.max(floor, cut(lane, lane.allowed))])) as Record<HarmCategory, number>;
}

/** The smallest double above `value`, so the clean example at the cut stays below it. */
function nextUp(value: number): number {
  return value + Math.max(Number.EPSILON, Math.abs(value) * Number.EPSILON);
}
