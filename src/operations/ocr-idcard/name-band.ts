import type { Box, OcrEngine, OcrLine } from '../../providers/ocr/tesseract-pool.js';
import { findResidentNumber } from './numbers.js';
import { nameFrom } from './parse-card.js';
import { cropPng, pngSize } from './preprocess.js';

/**
 * The band where a card's name is printed when the engine skipped that line: between the
 * resident number's line and the line read just above it (the licence number or the title),
 * when the space between them is tall enough to hold a line of text. Undefined otherwise.
 */
export function nameBand(lines: OcrLine[], width: number, height: number): Box | undefined {
  const anchor = lines.find((line) => findResidentNumber(line.text));
  if (!anchor) return undefined;
  const bottom = (line: OcrLine) => line.box.top + line.box.height;
  const above = lines
    .filter((line) => line !== anchor && bottom(line) <= anchor.box.top + anchor.box.height * 0.2)
    .sort((a, b) => bottom(b) - bottom(a))[0];
  const top = above ? bottom(above) : 0;
  const gap = anchor.box.top - top;
  if (gap < anchor.box.height * 0.9) return undefined;
  // The text column: most lines start at its left edge (a line with specks of the portrait
  // starts further out); on the right, no further than the number and the line above reach.
  const lefts = lines.map((line) => line.box.left).sort((a, b) => a - b);
  const column = lefts[Math.floor(lefts.length / 2)] as number;
  const left = Math.max(0, Math.round(Math.min(column, anchor.box.left + anchor.box.width / 2) - anchor.box.height / 2));
  const reach = Math.max(...[anchor, ...(above ? [above] : [])].map((line) => line.box.left + line.box.width));
  const right = Math.min(width, Math.round(reach + anchor.box.height));
  const y0 = Math.max(0, Math.round(top + 1));
  const y1 = Math.min(height, Math.round(anchor.box.top - 1));
  if (y1 - y0 < 8 || right - left < 16) return undefined;
  return { left, top: y0, width: right - left, height: y1 - y0 };
}

/**
 * Reads the name band of a prepared page (see {@link nameBand}) on its own: Tesseract's page
 * layout sometimes drops a bold line between two others, and read alone it is found.
 */
export async function readNameBand(engine: OcrEngine, png: Buffer, lines: OcrLine[], signal?: AbortSignal): Promise<string> {
  const size = pngSize(png);
  const band = nameBand(lines, size.width, size.height);
  if (!band) return '';
  const crop = await cropPng(png, band);
  const read = await engine.recognize(crop, signal);
  for (const line of read.lines) {
    const name = nameFrom(line.text);
    if (name) return name;
  }
  return '';
}
