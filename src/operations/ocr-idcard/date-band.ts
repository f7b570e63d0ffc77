import type { Box, OcrEngine, OcrLine } from '../../providers/ocr/tesseract-pool.js';
import { findDate, findLicenceNumber, findResidentNumber } from './numbers.js';
import { cropPng, pageBand, pngSize, readBand } from './preprocess.js';
import { compact, trimJunk } from './text.js';

/** The renewal period is a date range, never the issue date. */
const RANGE = /적성|갱신|기간|~/;

/**
 * The line of a card's issue date when only its year was read ("2013 8 !| 으", "2014 11..8"):
 * a line that starts with a plausible year but holds no whole date, with a quarter of a line
 * above and below and room on the right for the rest of the date.
 */
export function dateBand(lines: OcrLine[], width: number, height: number): Box | undefined {
  const line = lines.findLast((candidate) => {
    const text = trimJunk(candidate.text);
    return (
      /^(?:19|20)\d{2}/.test(compact(text)) &&
      !/\d{9}/.test(compact(text)) &&
      !RANGE.test(text) &&
      !findDate(text) &&
      !findResidentNumber(text) &&
      !findLicenceNumber(text)
    );
  });
  if (!line) return undefined;
  const h = line.box.height;
  return pageBand(
    {
      left: line.box.left - h / 2,
      // "2014.11.09." is about six line heights wide; the misread part may have been dropped.
      right: Math.max(line.box.left + line.box.width, line.box.left + 7 * h) + h / 2,
      top: line.box.top - h * 0.25,
      bottom: line.box.top + h * 1.25,
    },
    width,
    height,
  );
}

/** Scale and extra height (a share of the band's, half above and half below) of each try, in order. */
const TRIES: Array<[number, number]> = [
  [1.5, 0],
  [1, 0.5],
  [2, 0],
];

/** A date read with at least this line confidence ends the tries; a weaker one may be a slip (05.07 for 05.03). */
const SURE_DATE = 75;

/**
 * A card's issue date read from its own line alone, when the page reading kept only its year
 * (the dots and small digits lost in the guilloche or the blur). The engine's reading of a
 * small crop turns on its scale and margins, so a few are tried in turn until one reads as a
 * date surely; otherwise the most confident date read wins. Here the line is known to hold a
 * date only, so dots read as spaces ("2013 8 10") are taken too. Empty when there is no such
 * line or no try reads a date.
 */
export async function readDateBand(engine: OcrEngine, png: Buffer, lines: OcrLine[], signal?: AbortSignal): Promise<DateRead | undefined> {
  const size = pngSize(png);
  const band = dateBand(lines, size.width, size.height);
  if (!band) return undefined;
  let best: DateRead | undefined;
  for (const [scale, extra] of TRIES) {
    const top = Math.max(0, Math.round(band.top - (band.height * extra) / 2));
    const bottom = Math.min(size.height, Math.round(band.top + band.height * (1 + extra / 2)));
    const read = await readBand(engine, await cropPng(png, { ...band, top, height: bottom - top }, scale), signal);
    for (const line of read.lines) {
      const date = findDate(line.text) ?? spacedDate(trimJunk(line.text));
      if (date && line.confidence > (best?.line.confidence ?? -1)) best = { date, line };
    }
    if ((best?.line.confidence ?? 0) >= SURE_DATE) break;
  }
  return best;
}

export interface DateRead {
  date: string;
  /** The line it was read from, for its confidence. */
  line: OcrLine;
}

/** "2013 8 10" on a line that is only a date: the dots read as spaces. */
function spacedDate(text: string): string | undefined {
  const match = /^((?:19|20)\d{2})[\s.,]+(\d{1,2})[\s.,]+(\d{1,2})[\s.,_]*$/.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return `${year}.${String(month).padStart(2, '0')}.${String(day).padStart(2, '0')}.`;
}
