import type { Box, OcrEngine, OcrLine } from '../../providers/ocr/tesseract-pool.js';
import { findDate, findLicenceNumber, findResidentNumber } from './numbers.js';
import { nameFrom } from './parse-card.js';
import { cropPng, pageBand, pngSize, readBand } from './preprocess.js';
import { compact } from './text.js';

/**
 * The band where a card's name is printed: when the engine skipped that line, the space
 * between the resident number's line and the line read just above it (the licence number or
 * the title), if tall enough to hold a line of text; otherwise the line just above the number
 * itself, unless it is the title, a number or a date (see {@link nameLine}). Undefined when
 * there is no resident number or no room.
 */
export function nameBand(lines: OcrLine[], width: number, height: number): NameBand | undefined {
  const anchor = lines.find((line) => findResidentNumber(line.text));
  if (!anchor) return undefined;
  const bottom = (line: OcrLine) => line.box.top + line.box.height;
  const right = (line: OcrLine) => line.box.left + line.box.width;
  // Lines above in the number's column: specks of the portrait or the seal to its right are none.
  const above = lines
    .filter((line) => line !== anchor && bottom(line) <= anchor.box.top + anchor.box.height * 0.2)
    .filter((line) => line.box.left < right(anchor) && right(line) > anchor.box.left)
    .sort((a, b) => bottom(b) - bottom(a))[0];
  const top = above ? bottom(above) : 0;
  const gap = anchor.box.top - top;
  // A line above that reads as a name is the name's own line, however far below it the number sits.
  const nameAbove = above && mayHoldName(above.text) && (gap < anchor.box.height * 0.9 || nameFrom(above.text));
  if (nameAbove) return nameLine(lines, anchor, above, width, height);
  if (gap < anchor.box.height * 0.9) return undefined;
  // The text column: most lines start at its left edge (a line with specks of the portrait
  // starts further out); on the right, no further than the number and the line above reach.
  const lefts = lines.map((line) => line.box.left).sort((a, b) => a - b);
  const column = lefts[Math.floor(lefts.length / 2)] as number;
  const reach = Math.max(...[anchor, ...(above ? [above] : [])].map((line) => line.box.left + line.box.width));
  const band = pageBand(
    {
      left: Math.min(column, anchor.box.left + anchor.box.width / 2) - anchor.box.height / 2,
      right: reach + anchor.box.height,
      top: top + 1,
      bottom: anchor.box.top - 1,
    },
    width,
    height,
  );
  return band && { ...band, own: false };
}

/** A band to read alone; `own` when it is the name's own line as first read (not an empty gap). */
export type NameBand = Box & { own: boolean };

/** The line above the resident number may be the name's (misread) unless it is the title, a number or a date. */
function mayHoldName(text: string): boolean {
  const flat = compact(text);
  return !/주민|등록증|면허|운전|자동차/.test(flat) && !findLicenceNumber(text) && !findDate(text) && !/\d{4}/.test(flat);
}

/**
 * The name's own line, read as one (its syllables misread as specks, or its last syllable lost
 * beside the portrait): the line's box with a quarter of a line above and below, from the text
 * column to past the resident number's end.
 */
function nameLine(lines: OcrLine[], anchor: OcrLine, line: OcrLine, width: number, height: number): NameBand | undefined {
  const h = anchor.box.height;
  const lefts = lines.map((l) => l.box.left).sort((a, b) => a - b);
  const column = lefts[Math.floor(lefts.length / 2)] as number;
  const band = pageBand(
    {
      left: Math.min(column, line.box.left) - h / 2,
      right: Math.max(line.box.left + line.box.width, anchor.box.left + anchor.box.width) + h,
      top: line.box.top - h * 0.25,
      bottom: line.box.top + line.box.height + h * 0.25,
    },
    width,
    height,
  );
  return band && { ...band, own: true };
}

/**
 * Reads the name band of a prepared page (see {@link nameBand}) on its own: Tesseract's page
 * layout sometimes drops a bold line between two others, or reads the name's line as specks
 * or loses its last syllable beside the portrait; read alone (and enlarged) it is found.
 */
export async function readNameBand(engine: OcrEngine, png: Buffer, lines: OcrLine[], signal?: AbortSignal): Promise<string> {
  const size = pngSize(png);
  const band = nameBand(lines, size.width, size.height);
  if (!band) return '';
  // The name's own line was read once already at this size: enlarged, its strokes separate.
  const crop = await cropPng(png, band, band.own ? 2 : 1);
  const read = await readBand(engine, crop, signal);
  for (const line of read.lines) {
    // The band may reach into the licence number's line above it: no name there.
    if (!mayHoldName(line.text)) continue;
    const name = nameFrom(line.text);
    if (name) return name;
  }
  return '';
}
