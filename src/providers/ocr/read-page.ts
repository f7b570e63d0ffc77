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
}

const OUTPUT = { text: true, blocks: true } as const;

function linesOf(page: Page): OcrLine[] {
  return (page.blocks ?? []).flatMap((block) =>
    block.paragraphs.flatMap((paragraph) =>
      paragraph.lines.map((line) => ({
        text: line.text.trim(),
        confidence: line.confidence,
        box: { left: line.bbox.x0, top: line.bbox.y0, width: line.bbox.x1 - line.bbox.x0, height: line.bbox.y1 - line.bbox.y0 },
      })),
    ),
  );
}

/**
 * One page: single-block segmentation with automatic deskew, then every line the line
 * finder cut in two is read again as one line (page segmentation mode 7) in its union box.
 */
export async function readPage(worker: Worker, png: Buffer, signal?: AbortSignal): Promise<OcrText> {
  const { data } = await worker.recognize(png, { rotateAuto: true }, OUTPUT);
  const rotateRadians = data.rotateRadians ?? 0;
  let lines = linesOf(data).filter((line) => line.text.length > 0);
  const groups = overlappingGroups(lines);
  if (groups.length === 0) return { text: data.text, lines, rotateRadians };
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
    replaced.set(group[0] as number, { text: again.data.text.replace(/\s+/g, ' ').trim(), confidence: again.data.confidence, box });
    for (const index of group.slice(1)) replaced.set(index, { text: '', confidence: 0, box });
  }
  lines = lines.map((line, i) => replaced.get(i) ?? line).filter((line) => line.text.length > 0);
  return { text: lines.map((line) => line.text).join('\n'), lines, rotateRadians };
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
