import { sentenceSpans, type Span } from './chunk.js';
import { hasTypeSign, hasTypeSigns, numbersIn, type QuestionAnalysis } from './question.js';
import type { RetrievedChunk } from './retrieve.js';
import { normalizeText, tokenize } from './tokenize.js';
import { pairEvidence } from './word-pairs.js';

/**
 * Weights of the second ranking (BM25's best chunks ranked again in memory). Chosen by hit@1 on
 * the KorQuAD tuning seeds 1–3 (checked on 4–6) and on the customer-support evaluation set; the
 * single-sentence evidence (`sentence`, `pairs`) was added with 0.5 each on seeds 1–5 and checked
 * on 6–10 (a gain of a few questions in a thousand: the window features already carry most of it).
 */
const RANK_WEIGHTS = { bm25: 1, window: 1, stemsInWindow: 0.5, stemsInChunk: 0.5, sentence: 0.5, pairs: 0.5 };

/** Sentences read together as one passage: a fact and the sentence that completes it. */
const WINDOW_SENTENCES = 2;

/**
 * The relevance gate: a logistic model over signs that the best chunk answers the question
 * rather than sharing some of its words, fitted on the KorQuAD tuning seeds 1–3 (answerable
 * questions whose best chunk is right vs questions about articles not stored) and the
 * customer-support evaluation set, and checked on seeds 4–6. Its output is a log-odds.
 * `numbersMissing` was added later (seeds 1–5, checked on 6–10): a question about another
 * article often shares a topic's words with a stored chunk but not its year or number.
 */
const RELEVANCE_WEIGHTS = {
  coverage: 8.02,
  window: 2.78,
  stems: 2.67,
  bm25: 4.21,
  margin: 1.38,
  type: 0.63,
  unknown: -0.57,
  words: 1.32,
  numbersMissing: -2,
  bias: -12.2,
};
/**
 * Log-odds a best chunk must reach to be answered from. On the tuning seeds 1–6 it declines 96%
 * of the questions about articles not stored and answers 91% from the right paragraph; raising
 * it to 0.3 declines 96.7% but answers 89.6% (every point of the first costs two of the second).
 */
export const DEFAULT_MIN_RELEVANCE = -0.25;
/** BM25's best possible contribution of a term (tf → ∞), to express a score as a share of the best possible. */
const BM25_CEILING = 2.2;

export interface RankFeatures {
  /** The chunk's BM25 score relative to the best candidate's (0–1). */
  bm25: number;
  /** Share of the question's IDF weight the chunk covers (from retrieval). */
  coverage: number;
  /** Share covered by the chunk's best window of WINDOW_SENTENCES sentences. */
  window: number;
  /** IDF-weighted share of the question's whole words (stems) found verbatim in that window / in the chunk. */
  stemsInWindow: number;
  stemsInChunk: number;
  /** BM25 as a share of the best score the question's terms could reach. */
  bm25OfBest: number;
  /** 1 when the best window holds the asked kind of answer (a date for "when"…), 0 when not, 0.5 when the kind has no sign (a person) or none is asked. */
  type: number;
  /** Share of the question's weight in words the chunk lacks and the knowledge holds at most once (unknown topics). */
  unknown: number;
  /** Share of the numbers the question names that the chunk does not (a year, an ordinal, "2.26"). */
  numbersMissing: number;
  /** Share of the question's weight covered by the chunk's best single sentence. */
  sentence: number;
  /** Share of the question's neighbouring whole-word pairs found close together, in order, in one sentence (IDF-weighted). */
  pairs: number;
}

export interface RankedChunk extends RetrievedChunk {
  /** The chunk's window (one or two sentences) that covers most of the question, in the entry's text. */
  focus: Span;
  /** That window's share of the question's weight, 0–1. */
  focusCoverage: number;
  features: RankFeatures;
}

export interface RerankInput {
  question: Pick<QuestionAnalysis, 'words' | 'stems' | 'type' | 'numbers'>;
  idf: Map<string, number>;
  /** Document frequency of each question term in the account's chunks. */
  df: Map<string, number>;
}

/**
 * Ranks BM25's best chunks again by how much of the question one passage of theirs covers:
 * sibling paragraphs of one article share most words, and the one that answers usually holds
 * them together in one or two sentences, often as the same whole words ("딸의" → 딸). Each
 * question word counts once, by its best alternative.
 */
export function rerank(chunks: RetrievedChunk[], contents: Map<number, string>, input: RerankInput): RankedChunk[] {
  const { idf, df } = input;
  const { words, stems } = input.question;
  const weightOf = (word: string[], has: (term: string) => boolean) => Math.max(0, ...word.filter(has).map((term) => idf.get(term) ?? 0));
  const total = words.reduce((sum, word) => sum + weightOf(word, () => true), 0) || 1;
  const idfSum = [...idf.values()].reduce((sum, value) => sum + value, 0) || 1;
  const stemWeights = stems.map((stem) => {
    const tokens = tokenize(stem);
    return tokens.reduce((sum, token) => sum + (idf.get(token) ?? 0), 0) / Math.max(1, tokens.length);
  });
  const stemTotal = stemWeights.reduce((sum, value) => sum + value, 0) || 1;
  const stemShare = (text: string) => {
    const lower = normalizeText(text);
    return stems.reduce((sum, stem, i) => sum + (lower.includes(stem) ? stemWeights[i]! : 0), 0) / stemTotal;
  };
  const maxBm25 = Math.max(...chunks.map((chunk) => chunk.bm25), 1e-9);
  const pairShare = pairEvidence(stems, idf);

  return chunks
    .map((chunk) => {
      const text = contents.get(chunk.entryId)?.slice(chunk.start, chunk.end) ?? '';
      const sentences = sentenceSpans(text);
      const tokens = sentences.map((span) => new Set(tokenize(text.slice(span.start, span.end))));
      let focus: Span = { start: chunk.start, end: chunk.end };
      let window = 0;
      let stemsInWindow = 0;
      let type = 0.5;
      let sentence = 0;
      let pairs = 0;
      for (let i = 0; i < sentences.length; i++) {
        const alone = words.reduce((sum, word) => sum + weightOf(word, (term) => tokens[i]!.has(term)), 0) / total;
        sentence = Math.max(sentence, alone);
        if (alone > 0) pairs = Math.max(pairs, pairShare(text.slice(sentences[i]!.start, sentences[i]!.end)));
        const last = Math.min(sentences.length, i + WINDOW_SENTENCES) - 1;
        const has = (term: string) => tokens.slice(i, last + 1).some((set) => set.has(term));
        const covered = words.reduce((sum, word) => sum + weightOf(word, has), 0) / total;
        const passage = text.slice(sentences[i]!.start, sentences[last]!.end);
        stemsInWindow = Math.max(stemsInWindow, stemShare(passage));
        if (covered > window) {
          window = covered;
          // The focus is the window's better sentence alone when it covers as much.
          const end = alone >= covered ? sentences[i]!.end : sentences[last]!.end;
          focus = { start: chunk.start + sentences[i]!.start, end: chunk.start + end };
          if (hasTypeSigns(input.question.type)) type = hasTypeSign(passage, input.question.type) ? 1 : 0;
        }
      }
      const matched = new Set(chunk.matched);
      const unknown =
        words
          .filter((word) => !word.some((term) => matched.has(term)) && Math.min(...word.map((term) => df.get(term) ?? 0)) <= 1)
          .reduce((sum, word) => sum + weightOf(word, () => true), 0) / total;
      const features: RankFeatures = {
        bm25: chunk.bm25 / maxBm25,
        coverage: chunk.coverage,
        window,
        stemsInWindow,
        stemsInChunk: stemShare(text),
        bm25OfBest: chunk.bm25 / (BM25_CEILING * idfSum),
        type,
        unknown,
        numbersMissing: missingShare(input.question.numbers, text),
        sentence,
        pairs,
      };
      const score =
        RANK_WEIGHTS.bm25 * features.bm25 +
        RANK_WEIGHTS.window * features.window +
        RANK_WEIGHTS.stemsInWindow * features.stemsInWindow +
        RANK_WEIGHTS.stemsInChunk * features.stemsInChunk +
        RANK_WEIGHTS.sentence * features.sentence +
        RANK_WEIGHTS.pairs * features.pairs;
      return { ...chunk, focus, focusCoverage: window, features, score };
    })
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
}

/**
 * How surely the best of the ranked chunks answers the question, as log-odds: its coverage of
 * the question (whole chunk and best passage), its BM25 against the best possible, its lead
 * over the next entry, how many of the question's whole words its passage repeats, whether that passage holds the asked kind of answer, and how much of the
 * question names things the knowledge never mentions.
 */
export function relevance(ranked: RankedChunk[], index: number, wordCount: number): number {
  const chunk = ranked[index];
  if (!chunk) return -Infinity;
  const next = ranked.find((other, i) => i > index && other.entryId !== chunk.entryId);
  const margin = index === 0 ? Math.min(1, next ? chunk.score - next.score : 1) : 0;
  const f = chunk.features;
  const w = RELEVANCE_WEIGHTS;
  return (
    w.coverage * f.coverage +
    w.window * f.window +
    w.stems * f.stemsInWindow +
    w.bm25 * f.bm25OfBest +
    w.margin * margin +
    w.type * f.type +
    w.unknown * f.unknown +
    w.numbersMissing * f.numbersMissing +
    w.words * Math.log(1 + wordCount) +
    w.bias
  );
}

/** A typed question (when, how many…) whose best passage covers at least half its weight and words, and holds that kind of answer. */
const TYPED_MATCH = { coverage: 0.5, stems: 0.5 };

/**
 * Whether the best ranked chunk answers the question: its relevance reaches `minRelevance`, or
 * (what IDF cannot tell in a knowledge base of a few entries, where every word is as rare)
 * it covers half of a typed question, mostly in the question's own words, next to the asked
 * kind of answer.
 */
export function isAnswerable(ranked: RankedChunk[], wordCount: number, minRelevance: number): boolean {
  const best = ranked[0];
  if (!best) return false;
  if (relevance(ranked, 0, wordCount) >= minRelevance) return true;
  const f = best.features;
  return f.type === 1 && best.coverage >= TYPED_MATCH.coverage && f.stemsInWindow >= TYPED_MATCH.stems;
}

/**
 * Share of `numbers` that `text` does not name as a whole number (15 is in "제15대", not in
 * "150"); a date's parts count alone ("2014.05.03" names 2014), leading zeros aside.
 */
function missingShare(numbers: string[], text: string): number {
  if (numbers.length === 0) return 0;
  const withoutZeros = (number: string) => number.replace(/^0+(?=\d)/, '');
  const named = new Set<string>();
  for (const number of numbersIn(text)) {
    named.add(number);
    for (const part of number.split(/[.:]/)) named.add(withoutZeros(part));
  }
  return numbers.filter((number) => !named.has(withoutZeros(number))).length / numbers.length;
}
