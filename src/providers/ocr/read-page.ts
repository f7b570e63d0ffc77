import { PSM, type Page, type Worker } from 'tesseract.js';

/** What the engine read: the text, its lines, and the skew it corrected. */
export interface OcrText {
  text: string;
  lines: OcrLine[];
  rotateRadians: number;
}

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface OcrLine {
  text: string;
  confidence: number;
  box: Box;
  /** The line's words and the engine's confidence in each (0–100): a misread syllable drags down its word, not the line. */
  words?: WordConfidence[];
}

export interface WordConfidence {
  text: string;
  confidence: number;
  /** Where the word stands on the page read (what `mask: true` covers in the image). */
  box?: Box;
}

const wordConfidences = (words: PlacedWord[]): WordConfidence[] =>
  words.map((word) => ({
    text: word.text.trim(),
    confidence: word.confidence,
    box: { left: word.bbox.x0, top: word.bbox.y0, width: word.bbox.x1 - word.bbox.x0, height: word.bbox.y1 - word.bbox.y0 },
  }));

const OUTPUT = { text: true, blocks: true } as const;

function linesOf(page: Page): OcrLine[] {
  return (page.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.flatMap((line) => {
        const whole = {
          text: line.text.trim(),
          confidence: line.confidence,
          box: { left: line.bbox.x0, top: line.bbox.y0, width: line.bbox.x1 - line.bbox.x0, height: line.bbox.y1 - line.bbox.y0 },
          words: wordConfidences(line.words),
        };
        return splitAtColumnGaps(line.words, whole);
      }),
    ),
  );
}

/** A word and its box, as tesseract.js gives it and as the binary's TSV is read. */
export interface PlacedWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}

/** One line of words, cut at column gaps (the binary's TSV has no line text or box of its own). */
export function linesFromWords(words: PlacedWord[]): OcrLine[] {
  const kept = words.filter((word) => word.text.trim().length > 0);
  if (kept.length === 0) return [];
  const x0 = Math.min(...kept.map((word) => word.bbox.x0));
  const y0 = Math.min(...kept.map((word) => word.bbox.y0));
  const whole = {
    text: kept.map((word) => word.text.trim()).join(' '),
    confidence: kept.reduce((sum, word) => sum + word.confidence, 0) / kept.length,
    box: { left: x0, top: y0, width: Math.max(...kept.map((w) => w.bbox.x1)) - x0, height: Math.max(...kept.map((w) => w.bbox.y1)) - y0 },
    words: wordConfidences(kept),
  };
  return splitAtColumnGaps(kept, whole);
}

/** A gap between two words wider than this many times the text's height separates columns. */
const COLUMN_GAP = 6;

/**
 * Tesseract's single-block mode joins what stands side by side into one line: the 종목
 * column beside the 업태 column, or specks of the portrait beside an address line. Words
 * further apart than {@link COLUMN_GAP} times the text's height are cut into separate lines,
 * left part first; spaced-out labels ("대   표   자") stay well under that.
 */
function splitAtColumnGaps(words: PlacedWord[], whole: OcrLine): OcrLine[] {
  const kept = words.filter((word) => word.text.trim().length > 0);
  if (kept.length < 2) return [whole];
  const heights = kept.map((word) => word.bbox.y1 - word.bbox.y0).sort((a, b) => a - b);
  const height = heights[Math.floor(heights.length / 2)] as number;
  const parts: PlacedWord[][] = [[kept[0] as PlacedWord]];
  for (let i = 1; i < kept.length; i++) {
    const gap = (kept[i] as PlacedWord).bbox.x0 - (kept[i - 1] as PlacedWord).bbox.x1;
    if (gap > COLUMN_GAP * height) parts.push([]);
    parts[parts.length - 1]!.push(kept[i] as PlacedWord);
  }
  if (parts.length === 1) return [whole];
  return parts.map((part) => {
    const x0 = Math.min(...part.map((word) => word.bbox.x0));
    const y0 = Math.min(...part.map((word) => word.bbox.y0));
    const x1 = Math.max(...part.map((word) => word.bbox.x1));
    const y1 = Math.max(...part.map((word) => word.bbox.y1));
    return {
      text: part.map((word) => word.text.trim()).join(' '),
      confidence: part.reduce((sum, word) => sum + word.confidence, 0) / part.length,
      box: { left: x0, top: y0, width: x1 - x0, height: y1 - y0 },
      words: wordConfidences(part),
    };
  });
}

/**
 * One page: single-block segmentation with automatic deskew, then every line the line
 * finder cut in two is read again as one line (page segmentation mode 7) in its union box.
 * With `knownRotation` the image is read at that rotation instead (see readBand).
 */
export async function readPage(worker: Worker, png: Buffer, signal?: AbortSignal, knownRotation?: number): Promise<OcrText> {
  const { data } = await worker.recognize(
    png,
    knownRotation === undefined ? { rotateAuto: true } : { rotateRadians: knownRotation },
    OUTPUT,
  );
  const rotateRadians = data.rotateRadians ?? knownRotation ?? 0;
  let lines = linesOf(data).filter((line) => line.text.length > 0);
  const groups = overlappingGroups(lines);
  if (groups.length === 0) return { text: lines.map((line) => line.text).join('\n'), lines, rotateRadians };
  const size = imageSize(png);
  const replaced = new Map<number, OcrLine>();
  for (const group of groups) {
    signal?.throwIfAborted();
    const box = unionBox(
      group.map((i) => (lines[i] as OcrLine).box),
      size.width,
      size.height,
    );
    const again = await worker.recognize(png, { rectangle: box, rotateRadians, tessedit_pageseg_mode: PSM.SINGLE_LINE } as never, OUTPUT);
    const words = linesOf(again.data).flatMap((line) => line.words ?? []);
    replaced.set(group[0] as number, { text: again.data.text.replace(/\s+/g, ' ').trim(), confidence: again.data.confidence, box, words });
    for (const index of group.slice(1)) replaced.set(index, { text: '', confidence: 0, box });
  }
  lines = lines.map((line, i) => replaced.get(i) ?? line).filter((line) => line.text.length > 0);
  return { text: lines.map((line) => line.text).join('\n'), lines, rotateRadians };
}

/**
 * One line of text (page segmentation mode 7) at no rotation: a crop a text detector found,
 * already straight. Its words are cut at column gaps as a page's are.
 */
export async function readLine(worker: Worker, png: Buffer): Promise<OcrText> {
  const { data } = await worker.recognize(png, { rotateRadians: 0, tessedit_pageseg_mode: PSM.SINGLE_LINE } as never, OUTPUT);
  const lines = linesOf(data).filter((line) => line.text.length > 0);
  return { text: lines.map((line) => line.text).join('\n'), lines, rotateRadians: 0 };
}

/** Width and height from a PNG header. */
function imageSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Tesseract's line finder (page segmentation mode 6) sometimes cuts a line of large Korean
 * text in two: a row with the top halves of the syllables ("즈미 드로즈" for 주민등록증)
 * overlapping the real row, which then misses what the first took. Such rows share most of
 * their height; each group of them is one printed line to read again as a single line.
 */
function overlappingGroups(lines: OcrLine[]): number[][] {
  const groups: number[][] = [];
  const grouped = new Set<number>();
  lines.forEach((line, i) => {
    if (grouped.has(i)) return;
    const group = [i];
    lines.forEach((other, j) => {
      if (j <= i || grouped.has(j)) return;
      if (overlaps(line.box, other.box)) group.push(j);
    });
    if (group.length > 1) {
      group.forEach((index) => grouped.add(index));
      groups.push(group);
    }
  });
  return groups;
}

function overlaps(a: Box, b: Box): boolean {
  const vertical = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  const horizontal = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  // Most of the taller row: two printed lines joined by a speck's row do not qualify.
  return horizontal > 0.3 * Math.min(a.width, b.width) && vertical > 0.45 * Math.max(a.height, b.height);
}

/** The union of the boxes, with a margin of a fifth of its height, inside the image. */
function unionBox(boxes: Box[], width: number, height: number): Box {
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  const margin = Math.round((bottom - top) / 5);
  const x0 = Math.max(0, left - margin);
  const y0 = Math.max(0, top - margin);
  return {
    left: x0,
    top: y0,
    width: Math.min(width, right + margin) - x0,
    height: Math.min(height, bottom + margin) - y0,
  };
}
