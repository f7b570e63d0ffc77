import sharp from 'sharp';
import { linesFromWords, type Box, type OcrLine, type OcrText, type PlacedWord } from './read-page.js';
import { rowsOf, type TextLineDetector } from './text-lines.js';
import type { OcrEngine } from './tesseract-pool.js';

/** Lines lower than this (pixels, the detector's box) are enlarged up to it before Tesseract reads them. */
const LINE_HEIGHT = 40;
/** Never enlarged more than this: a speck blown up is still a speck. */
const MAX_SCALE = 3;
/** White around a crop: Tesseract's binarisation and line finder want a margin. */
const MARGIN = 10;
/** Crops read at once for one page: the pool's two workers, without filling its queue. */
const CONCURRENCY = 2;

/**
 * A page read line by line: the detector finds where text stands, whatever the layout, and
 * each line is read alone by Tesseract (page segmentation mode 7). Words are placed back in the
 * page's pixels, and boxes side by side on one printed row become one line cut at column gaps,
 * as the page reading does, so the parsers read both alike.
 */
export async function readByLines(
  engine: OcrEngine,
  detector: TextLineDetector,
  png: Buffer,
  signal?: AbortSignal,
  /** Asked before each line: false leaves the remaining lines unread (the caller's time budget is spent). */
  inTime: () => boolean = () => true,
  /**
   * An engine with the Latin model alone: a line that looks like Latin letters (a link) is read
   * again by it, and its words replace the first reading's words that hold Latin letters or digits.
   */
  latin?: OcrEngine,
): Promise<OcrText> {
  const boxes = await detector.detect(png);
  signal?.throwIfAborted();
  const rows = rowsOf(boxes);
  const flat = rows.flat();
  const words = new Map<Box, PlacedWord[]>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < flat.length && inTime()) {
        const box = flat[next++] as Box;
        signal?.throwIfAborted();
        const read = await readOne(engine, png, box, signal);
        words.set(box, latin && looksLatin(read) ? mergedReadings(read, await readOne(latin, png, box, signal)) : read);
      }
    }),
  );
  const lines: OcrLine[] = rows.flatMap((row) =>
    linesFromWords(row.flatMap((box) => words.get(box) ?? []).sort((a, b) => a.bbox.x0 - b.bbox.x0)),
  );
  return { text: lines.map((line) => line.text).join('\n'), lines, rotateRadians: 0 };
}

/** One detected line, enlarged when small, read alone; its words in the page's pixels. */
async function readOne(engine: OcrEngine, png: Buffer, box: Box, signal?: AbortSignal): Promise<PlacedWord[]> {
  const scale = Math.min(MAX_SCALE, Math.max(1, LINE_HEIGHT / box.height));
  let crop = sharp(png).extract(box);
  if (scale > 1) crop = sharp(await crop.png().toBuffer()).resize({ width: Math.round(box.width * scale), kernel: 'cubic' });
  const image = await crop.extend({ top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN, background: '#ffffff' }).png().toBuffer();
  const read = await engine.recognize(image, signal, 0, 'line');
  const place = (x: number, y: number) => [box.left + (x - MARGIN) / scale, box.top + (y - MARGIN) / scale] as const;
  return read.lines.flatMap((line) =>
    (line.words ?? []).map((word) => {
      const b = word.box ?? line.box;
      const [x0, y0] = place(b.left, b.top);
      const [x1, y1] = place(b.left + b.width, b.top + b.height);
      return {
        text: word.text,
        confidence: word.confidence,
        bbox: { x0: Math.round(x0), y0: Math.round(y0), x1: Math.round(x1), y1: Math.round(y1) },
      };
    }),
  );
}

const LATIN_OR_DIGIT = /[A-Za-z0-9]/;
/** Characters of a link written in Latin letters. */
const LINK_CHAR = /[A-Za-z0-9./:?=&%#_~-]/;

/** A line with a scheme, or mostly Latin letters, digits and a link's marks (and at least one letter). */
function looksLatin(words: PlacedWord[]): boolean {
  const text = words.map((word) => word.text).join('');
  if (/:\/\/|https?|www\./i.test(text)) return true;
  const chars = [...text.replace(/\s/g, '')];
  return /[A-Za-z]/.test(text) && chars.filter((char) => LINK_CHAR.test(char)).length >= 0.5 * chars.length;
}

/**
 * One line read by both engines: the Latin model's words where the first reading saw Latin
 * letters or digits (or saw nothing), the first reading's words elsewhere (its Hangul).
 */
function mergedReadings(mixed: PlacedWord[], latin: PlacedWord[]): PlacedWord[] {
  const overlap = (a: PlacedWord, b: PlacedWord) => Math.min(a.bbox.x1, b.bbox.x1) > Math.max(a.bbox.x0, b.bbox.x0);
  const hasLatin = (word: PlacedWord) => LATIN_OR_DIGIT.test(word.text);
  const kept = latin.filter((word) => {
    if (!hasLatin(word)) return false;
    const under = mixed.filter((other) => overlap(word, other));
    return under.length === 0 || under.some(hasLatin);
  });
  const inside = (word: PlacedWord) => {
    const centre = (word.bbox.x0 + word.bbox.x1) / 2;
    return kept.some((other) => centre >= other.bbox.x0 && centre <= other.bbox.x1);
  };
  return [...kept, ...mixed.filter((word) => !inside(word))].sort((a, b) => a.bbox.x0 - b.bbox.x0);
}
