/**
 * Splits an entry into overlapping chunks on paragraph and sentence boundaries, so a long
 * manual is searched piece by piece while a fact that straddles two chunks still appears
 * whole in one of them. Chunks and sentences are spans (start, end) of the entry's own text:
 * the store keeps only the positions (not a second copy of the text), and a bot can quote
 * the exact place an answer comes from.
 */

export interface Span {
  /** JavaScript string index of the first character in the entry's content. */
  start: number;
  /** Index just past the last character. */
  end: number;
}

export interface ChunkOptions {
  /** Aim for chunks of about this many characters. */
  targetChars?: number;
  /** Sentences carried over from the end of one chunk to the start of the next, up to this many characters. */
  overlapChars?: number;
}

const segmenter = new Intl.Segmenter('ko', { granularity: 'sentence' });
const MAX_SENTENCE_CHARS = 600;

/** The sentences of a text as spans, trimmed, in order; line breaks always end a sentence. */
export function sentenceSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (const line of text.matchAll(/[^\n]+/g)) {
    for (const { segment, index } of segmenter.segment(line[0])) {
      const lead = segment.length - segment.trimStart().length;
      const trimmed = segment.trim();
      if (!trimmed) continue;
      const start = line.index + index + lead;
      spans.push(...splitLong(text, { start, end: start + trimmed.length }));
    }
  }
  return spans;
}

/** The sentences of a text, trimmed, in order. */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map((span) => text.slice(span.start, span.end));
}

/** A "sentence" without punctuation can be a whole page: cut it on spaces near the limit. */
function splitLong(text: string, span: Span): Span[] {
  const pieces: Span[] = [];
  let { start } = span;
  while (span.end - start > MAX_SENTENCE_CHARS) {
    const space = text.lastIndexOf(' ', start + MAX_SENTENCE_CHARS);
    const cut = space > start + MAX_SENTENCE_CHARS / 2 ? space : start + MAX_SENTENCE_CHARS;
    pieces.push({ start, end: cut });
    start = cut;
    while (text[start] === ' ') start++;
  }
  if (start < span.end) pieces.push({ start, end: span.end });
  return pieces;
}

/** Chunks of the text as spans of whole sentences; a short text is one chunk. */
export function chunkSpans(text: string, options: ChunkOptions = {}): Span[] {
  const target = options.targetChars ?? 700;
  const overlap = options.overlapChars ?? 120;
  const sentences = sentenceSpans(text);
  if (sentences.length === 0) return [];
  const whole = { start: sentences[0]!.start, end: sentences.at(-1)!.end };
  if (whole.end - whole.start <= target) return [whole];

  const chunks: Span[] = [];
  let first = 0; // index of the chunk's first sentence
  let fresh = 0; // sentences of the chunk not already in the previous one
  for (let i = 0; i < sentences.length; i++) {
    const length = sentences[i]!.end - sentences[first]!.start;
    if (i > first && length > target && fresh > 0) {
      chunks.push({ start: sentences[first]!.start, end: sentences[i - 1]!.end });
      // Carry the last sentences (within the overlap budget, never the whole chunk) into the next one.
      const previousFirst = first;
      first = i;
      while (first - 1 > previousFirst && sentences[i - 1]!.end - sentences[first - 1]!.start <= overlap) first--;
      fresh = 0;
    }
    fresh++;
  }
  if (fresh > 0) chunks.push({ start: sentences[first]!.start, end: sentences.at(-1)!.end });
  return chunks;
}

/** The chunks' texts (verbatim slices of the text). */
export function chunkText(text: string, options: ChunkOptions = {}): string[] {
  return chunkSpans(text, options).map((span) => text.slice(span.start, span.end));
}
