/**
 * Splits an entry into overlapping chunks on paragraph and sentence boundaries, so a long
 * manual is searched (and quoted) piece by piece while a fact that straddles two chunks
 * still appears whole in one of them.
 */

export interface ChunkOptions {
  /** Aim for chunks of about this many characters. */
  targetChars?: number;
  /** Sentences carried over from the end of one chunk to the start of the next, up to this many characters. */
  overlapChars?: number;
}

const segmenter = new Intl.Segmenter('ko', { granularity: 'sentence' });

/** The sentences of a text, trimmed, in order; paragraphs (line breaks) always end a sentence. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\n+/)) {
    for (const { segment } of segmenter.segment(line)) {
      const sentence = segment.trim();
      if (sentence) sentences.push(...splitLong(sentence, 600));
    }
  }
  return sentences;
}

/** A "sentence" without punctuation can be a whole page: cut it on spaces near the limit. */
function splitLong(sentence: string, max: number): string[] {
  if (sentence.length <= max) return [sentence];
  const pieces: string[] = [];
  let rest = sentence;
  while (rest.length > max) {
    const space = rest.lastIndexOf(' ', max);
    const cut = space > max / 2 ? space : max;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

export function chunkText(text: string, options: ChunkOptions = {}): string[] {
  const target = options.targetChars ?? 350;
  const overlap = options.overlapChars ?? 120;
  const trimmed = text.trim();
  if (trimmed.length <= target) return [trimmed];

  const sentences = splitSentences(trimmed);
  const chunks: string[] = [];
  let current: string[] = [];
  let length = 0;
  let fresh = 0; // sentences in `current` not already in the previous chunk
  for (const sentence of sentences) {
    if (length > 0 && length + sentence.length > target && fresh > 0) {
      chunks.push(current.join(' '));
      // Carry the last sentences (within the overlap budget) into the next chunk.
      const carried: string[] = [];
      let carriedLength = 0;
      for (let i = current.length - 1; i >= 0; i--) {
        const s = current[i]!;
        if (carriedLength + s.length > overlap) break;
        carried.unshift(s);
        carriedLength += s.length + 1;
      }
      current = carried;
      length = carriedLength;
      fresh = 0;
    }
    current.push(sentence);
    length += sentence.length + 1;
    fresh++;
  }
  if (fresh > 0) chunks.push(current.join(' '));
  return chunks;
}
