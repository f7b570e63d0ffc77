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
        words.set(box, await readOne(engine, png, box, signal));
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
