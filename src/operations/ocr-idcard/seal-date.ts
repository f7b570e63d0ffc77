import type { RawImage } from '../../providers/ocr/pdf-page.js';
import { readByLines } from '../../providers/ocr/read-lines.js';
import type { TextLineDetector } from '../../providers/ocr/text-lines.js';
import type { OcrEngine, OcrLine, OcrText } from '../../providers/ocr/tesseract-pool.js';
import { readDateBand } from './date-band.js';
import { parseDocument, type ParsedDocument } from './parse.js';
import { prepareImage } from './preprocess.js';
import { splitLines } from './text.js';

/** Fewer whitened pixels than this share of the page: no faded seal, the page would read as before. */
const MIN_SEAL_SHARE = 0.0005;

export interface SealDateOptions {
  detect?: boolean;
  /** The text-line detector, when the service has one: its lines are read when the page reading finds no date. */
  detector?: TextLineDetector;
  signal?: AbortSignal;
  /** Asked between the line reading's lines (the caller's time budget). */
  inTime?: () => boolean;
  /** The image preparation (default `prepareImage`). */
  prepare?: typeof prepareImage;
}

/**
 * A licence's issue date read once more from the page with its pale red whitened, when every
 * other reading left the date missing. On a low-quality scan a licence's red seal fades to
 * pale pink, under the colour test of the usual preparation, and its frame strikes through the
 * date's digits: the page layout joins the date's row to the issuer's, and
 * each reading gives back "201" or nothing (docs/evaluations/2026-11-27-id-reader-3.md, fifth
 * stop). Whitening pale red on every page costs other fields, so it is read only for a licence
 * whose date is missing, and only the date is taken from it: the date its page reading parses
 * to, else the date its line-by-line reading parses to, else its date band re-read. Undefined
 * when the page has no pale red to clear or no date is read.
 */
export async function readDateUnderSeal(
  engine: OcrEngine,
  source: Buffer | RawImage,
  parsed: ParsedDocument,
  options: SealDateOptions = {},
): Promise<{ date: string; lines: OcrLine[] } | undefined> {
  const page = await (options.prepare ?? prepareImage)(source, { ink: 'drop-seal', detect: options.detect });
  if ((page.sealShare ?? 0) < MIN_SEAL_SHARE) return undefined;
  const read = await engine.recognize(page.png, options.signal);
  const fromPage = dateOf(read, parsed);
  if (fromPage) return fromPage;
  if (options.detector) {
    const fromLines = dateOf(await readByLines(engine, options.detector, page.png, options.signal, options.inTime), parsed);
    if (fromLines) return fromLines;
  }
  const band = await readDateBand(engine, page.png, read.lines, options.signal);
  return band ? { date: band.date, lines: [band.line] } : undefined;
}

/** The issue date a reading parses to, for a document of the same type, with the lines holding it. */
function dateOf(read: OcrText, parsed: ParsedDocument): { date: string; lines: OcrLine[] } | undefined {
  const other = parseDocument(splitLines(read.text).join('\n'));
  const date = other?.info.type === parsed.info.type ? other.info.issue_date : '';
  if (!date) return undefined;
  const digits = date.replace(/\D/g, '');
  return { date, lines: read.lines.filter((line) => line.text.replace(/\D/g, '').includes(digits.slice(0, 6))) };
}
