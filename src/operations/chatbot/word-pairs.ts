import { normalizeText, tokenize } from './tokenize.js';

/** Characters allowed between two neighbouring question words for them to count as a pair (a particle, a space, a short word). */
const PAIR_GAP = 8;

/**
 * How much of the question's word order a sentence repeats: the question's neighbouring whole
 * words ("대통령 선거", "출마를 선언") found in the same order and close together, each pair
 * weighted by its words' IDF. A question usually restates one sentence of its source with the
 * answer replaced by a question word, and keeps its phrases; an unrelated sentence may share
 * the words but rarely their order.
 */
export function pairEvidence(stems: string[], idf: Map<string, number>): (sentence: string) => number {
  const weights = stems.map((stem) => {
    const tokens = tokenize(stem);
    return tokens.reduce((sum, token) => sum + (idf.get(token) ?? 0), 0) / Math.max(1, tokens.length);
  });
  const pairs = stems.slice(1).map((b, i) => ({ a: stems[i]!, b, w: (weights[i]! + weights[i + 1]!) / 2 }));
  const total = pairs.reduce((sum, pair) => sum + pair.w, 0);
  return (sentence) => {
    if (total === 0) return 0;
    const lower = normalizeText(sentence);
    let found = 0;
    for (const { a, b, w } of pairs) {
      for (let i = lower.indexOf(a); i >= 0; i = lower.indexOf(a, i + 1)) {
        const j = lower.indexOf(b, i + a.length);
        if (j >= 0 && j - (i + a.length) <= PAIR_GAP) {
          found += w;
          break;
        }
      }
    }
    return found / total;
  };
}
