/**
 * Splits a long text for translation on sentence boundaries (and line breaks, which are
 * sentence breaks to Intl.Segmenter), so that each piece fits comfortably in one call.
 * Joining the pieces gives back the text exactly; each piece keeps its surrounding
 * whitespace aside so that line breaks survive a model that trims its answer.
 */

export interface Piece {
  lead: string;
  core: string;
  trail: string;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'sentence' });

/** Cuts a single over-long sentence at the last whitespace before the limit (or at the limit). */
function cutLong(sentence: string, maxChars: number): string[] {
  const parts: string[] = [];
  let rest = sentence;
  while (rest.length > maxChars) {
    const space = rest.lastIndexOf(' ', maxChars);
    const at = space > maxChars / 2 ? space + 1 : maxChars;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  if (rest) parts.push(rest);
  return parts;
}

export function splitText(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const sentences = [...segmenter.segment(text)].flatMap(({ segment }) => cutLong(segment, maxChars));
  const chunks: string[] = [];
  let current = '';
  for (const sentence of sentences) {
    if (current && current.length + sentence.length > maxChars) {
      chunks.push(current);
      current = '';
    }
    current += sentence;
  }
  if (current) chunks.push(current);
  return chunks;
}

export function toPiece(chunk: string): Piece {
  const lead = /^\s*/.exec(chunk)?.[0] ?? '';
  const trail = chunk.length > lead.length ? (/\s*$/.exec(chunk)?.[0] ?? '') : '';
  return { lead, core: chunk.slice(lead.length, chunk.length - trail.length), trail };
}
