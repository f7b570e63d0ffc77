import { sentenceSpans, type Span } from './chunk.js';
import type { RetrievedChunk } from './retrieve.js';
import { tokenize } from './tokenize.js';

/** Weight of the best sentence's share of the question against the chunk's BM25 (scaled to the best). */
const SENTENCE_WEIGHT = 1;

export interface RankedChunk extends RetrievedChunk {
  /** The chunk's sentence that covers most of the question. */
  focus: Span;
  /** That sentence's share of the question's weight, 0–1. */
  focusCoverage: number;
}

/**
 * Ranks BM25's best chunks again by how much of the question one of their sentences covers:
 * sibling paragraphs of one article share most words, and the one that answers usually holds
 * them together in one sentence. Each question word counts once, by its best alternative.
 */
export function rerank(
  chunks: RetrievedChunk[],
  contents: Map<number, string>,
  words: string[][],
  idf: Map<string, number>,
): RankedChunk[] {
  const weightOf = (word: string[], has: (term: string) => boolean) => Math.max(0, ...word.filter(has).map((term) => idf.get(term) ?? 0));
  const total = words.reduce((sum, word) => sum + weightOf(word, () => true), 0) || 1;
  const maxBm25 = Math.max(...chunks.map((chunk) => chunk.bm25), 1e-9);
  return chunks
    .map((chunk) => {
      const text = contents.get(chunk.entryId)?.slice(chunk.start, chunk.end) ?? '';
      let focus: Span = { start: chunk.start, end: chunk.end };
      let focusCoverage = 0;
      for (const span of sentenceSpans(text)) {
        const tokens = new Set(tokenize(text.slice(span.start, span.end)));
        const covered = words.reduce((sum, word) => sum + weightOf(word, (term) => tokens.has(term)), 0) / total;
        if (covered > focusCoverage) {
          focusCoverage = covered;
          focus = { start: chunk.start + span.start, end: chunk.start + span.end };
        }
      }
      return { ...chunk, focus, focusCoverage, score: chunk.bm25 / maxBm25 + SENTENCE_WEIGHT * focusCoverage };
    })
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId);
}
