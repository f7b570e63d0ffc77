import { AppError } from '../../errors.js';
import type { Operation, OperationContext } from '../../platform/execute.js';
import type { OcrEngine, OcrLine } from '../../providers/ocr/tesseract-pool.js';
import { renderPdfFirstPage } from '../../providers/ocr/pdf-page.js';
import { readByLines } from '../../providers/ocr/read-lines.js';
import type { TextLineDetector } from '../../providers/ocr/text-lines.js';
import { fieldConfidence, type FieldConfidence } from './confidence.js';
import { decodeBase64Image, sniffFormat } from './image-input.js';
import { maskDocument } from './mask.js';
import { maskedPagePng } from './mask-image.js';
import { readDateBand } from './date-band.js';
import { readNameBand } from './name-band.js';
import { readDateUnderSeal } from './seal-date.js';
import { withAddressBand } from './reference-band.js';
import { ocrIdcardSchema, type OcrIdcardInput } from './ocr-idcard.schema.js';
import { checkFields, combineReadings, needsSecondLook, parseDocument, type DocumentInfo, type ParsedDocument } from './parse.js';
import { prepareImage, visionImage } from './preprocess.js';
import { joinSpacedSyllables, splitLines } from './text.js';
import { mergeReadings, type VisionReader } from './vision.js';
import type { z } from 'zod';
import type { ocrIdcardOutputSchema } from './ocr-idcard.schema.js';

export interface OcrIdcardDeps {
  /** The embedded engine; a function so the worker pool starts on first use, not at start-up. */
  ocr: () => OcrEngine;
  /** A vision model, when `OPENAI_VISION_MODEL` is configured. */
  vision?: VisionReader;
  /** Images one account may have in work at once (default 2); more are 429, not charged. */
  maxImagesPerAccount?: number;
  /** Document detection and perspective correction (off: see PrepareOptions.detect). */
  detectDocument?: boolean;
  /**
   * Milliseconds after which no further reading starts (default 8 s): the second look and the
   * band re-reads only add what the first reading missed, so a slow image (a large photo on a
   * busy machine) is answered with the first reading and its warnings instead of a 504.
   */
  budgetMs?: number;
  /** The clock for that budget (milliseconds; tests inject one). */
  now?: () => number;
  /**
   * A layout-independent text-line detector whose lines Tesseract reads one by one: the service
   * uses it only to fill fields the reader left missing, failing their check or unsure
   * (`fallback`); `first` (as the first reading) is measured by `npm run eval:ocr -- --lines-use first`.
   */
  textLines?: { detector: TextLineDetector; use: 'first' | 'fallback' };
  /** The image preparation (default `prepareImage`): tests whose engine is a fake prepare each image once. */
  prepare?: typeof prepareImage;
}

/** What a read returns: `z.output` of its schema (ocr-idcard.schema.ts). */
export type OcrIdcardOutput = z.output<typeof ocrIdcardOutputSchema>;

const NOT_A_DOCUMENT =
  '주민등록증, 자동차운전면허증, 사업자등록증 중 하나로 인식하지 못했습니다. 문서 전체가 선명하게 보이도록 다시 촬영해 주세요.';
const NOTHING_READ = '이미지에서 글자를 읽지 못했습니다. 문서 전체가 선명하게 보이도록 다시 촬영해 주세요.';
const TOO_SLOW =
  '이미지를 읽는 데 시간이 너무 오래 걸렸습니다. 문서만 화면에 가득 차게 찍어, 긴 변 2000픽셀 이하의 JPEG로 다시 보내 주세요.';
const DEFAULT_BUDGET_MS = 8_000;

/** The engine's time limit on one image: for the caller's image, a 422 saying what to send (never a 5xx). */
function tooSlowForCaller(error: unknown): never {
  if (error instanceof AppError && error.code === 'UPSTREAM_TIMEOUT') throw new AppError('UNPROCESSABLE', TOO_SLOW);
  throw error;
}

/** A further reading that timed out leaves the reading in hand alone. */
async function unlessTimedOut(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'UPSTREAM_TIMEOUT')) throw error;
  }
}

/**
 * ID / business registration reader (SPEC §5): decodes the Base64 image, prepares it with
 * sharp, reads it with the embedded Tesseract pool (and a vision model when configured),
 * and returns the document's fields with `warnings` decided from formats and check digits.
 * The image, the text and the fields are never stored or logged: only sizes, type, timings.
 */
export function createOcrIdcardOperation(deps: OcrIdcardDeps): Operation<typeof ocrIdcardSchema, OcrIdcardOutput> {
  const limit = accountLimit(deps.maxImagesPerAccount ?? 2);
  return {
    api: 'ocr-idcard',
    schema: ocrIdcardSchema,
    run: (ctx, input) => limit(ctx.account.id, () => readDocument(deps, ctx, input)),
  };
}

async function readDocument(deps: OcrIdcardDeps, ctx: OperationContext, input: OcrIdcardInput): Promise<OcrIdcardOutput> {
  const signal = ctx.signal;
  const clock = deps.now ?? (() => performance.now());
  const budget = deps.budgetMs ?? DEFAULT_BUDGET_MS;
  const begun = clock();
  const inTime = () => clock() - begun < budget;
  const started = performance.now();
  const bytes = decodeBase64Image(input.base64_image);
  const format = sniffFormat(bytes);
  const source = format === 'pdf' ? await renderPdfFirstPage(bytes, signal) : bytes;
  const prepare = deps.prepare ?? prepareImage;
  const image = await prepare(source, { detect: deps.detectDocument });
  signal?.throwIfAborted();
  const prepared = performance.now();
  // As a fallback it stops between lines once the budget is spent: lines read by then still fill fields.
  const byLines = (within?: () => boolean) => readByLines(deps.ocr(), deps.textLines!.detector, image.png, signal, within);
  const read = await (deps.textLines?.use === 'first' ? byLines() : deps.ocr().recognize(image.png, signal)).catch(tooSlowForCaller);
  let rawText = splitLines(read.text).join('\n');
  let lines = read.lines;
  let parsed = parseDocument(rawText);
  const rereadBands = async () => {
    if (!isCard(parsed)) return;
    const reread = await rereadCardBands(deps.ocr(), image.png, read.lines, parsed, signal);
    [parsed, lines] = [reread.parsed, [...lines, ...reread.lines]];
  };
  // A card missing only its name or issue date has those lines read again from their bands
  // first (150–250 ms): when that fills them, the whole second reading (about 850 ms) is saved.
  const bandsFirst = onlyBandsMissing(parsed);
  if (bandsFirst && inTime()) await unlessTimedOut(rereadBands);
  if (needsSecondLook(parsed) && inTime())
    await unlessTimedOut(async () => {
      // A field is missing or fails its check: read once more, prepared the other way
      // (coloured print kept, a larger scale for small text), and fill the gaps from it.
      const again = await deps
        .ocr()
        .recognize((await prepare(source, { ink: 'luminance', longSide: 1800, detect: deps.detectDocument })).png, signal);
      const secondText = splitLines(again.text).join('\n');
      const combined = combineReadings(parsed, parseDocument(secondText));
      if (combined !== parsed) [rawText, lines] = [parsed ? rawText : secondText, parsed ? [...lines, ...again.lines] : again.lines];
      parsed = combined;
    });
  if (!bandsFirst && inTime()) await unlessTimedOut(rereadBands);
  if (deps.textLines?.use === 'fallback' && inTime())
    await unlessTimedOut(async () => {
      const first = parsed ? fieldConfidence(parsed.info, lines, parsed.warnings) : undefined;
      if (first && first.warnings.length === 0) return;
      const again = await byLines(inTime);
      const other = parseDocument(splitLines(again.text).join('\n'));
      const second = other ? fieldConfidence(other.info, again.lines, other.warnings) : undefined;
      const combined = fillUnsure(
        parsed && first ? { ...parsed, ...first } : undefined,
        other && second ? { ...other, ...second } : undefined,
      );
      if (combined !== parsed) [rawText, lines] = [parsed ? rawText : again.text, parsed ? [...lines, ...again.lines] : again.lines];
      parsed = combined;
    });
  if (parsed?.info.type === '자동차운전면허증' && !parsed.info.issue_date && inTime())
    await unlessTimedOut(async () => {
      // A licence's date is still missing: its faded red seal may strike through it. Read once
      // more with pale red whitened and take the date alone (never another field, never over a
      // date read). Not for resident cards: their seal stands on the issuer's line, beside the
      // date, and the one hard card missing its date on the tuning part had it faint, not sealed.
      const card = parsed as ParsedDocument;
      const sealed = await readDateUnderSeal(deps.ocr(), source, card, {
        detect: deps.detectDocument,
        detector: deps.textLines?.detector,
        signal,
        inTime,
        prepare,
      });
      if (!sealed) return;
      const info = { ...card.info, issue_date: sealed.date };
      [parsed, lines] = [{ info, warnings: checkFields(info) }, [...lines, ...sealed.lines]];
    });
  const recognized = performance.now();
  let engine: OcrIdcardOutput['engine'] = 'tesseract';
  if (deps.vision && format !== 'pdf') {
    const merged = await secondReading(deps.vision, ctx, bytes, rawText, parsed);
    if (merged) [parsed, engine] = [merged, 'tesseract+vision'];
  }
  const timings = {
    prepareMs: Math.round(prepared - started),
    ocrMs: Math.round(recognized - prepared),
    totalMs: Math.round(performance.now() - started),
  };
  const sizes = { bytes: bytes.length, format: image.format, width: image.width, height: image.height, skew: image.skewDegrees };
  if (!parsed) {
    ctx.logger.info({ ...sizes, ...timings, textChars: rawText.length, engine }, 'ocr-idcard: not a document');
    throw new AppError('UNPROCESSABLE', rawText.replace(/[^0-9A-Za-z가-힣]/g, '').length < 4 ? NOTHING_READ : NOT_A_DOCUMENT);
  }
  const scored = fieldConfidence(parsed.info, lines, parsed.warnings);
  ctx.logger.info({ ...sizes, ...timings, type: parsed.info.type, warnings: scored.warnings.length, engine }, 'ocr-idcard read');
  const output = input.mask ? maskDocument(parsed.info, rawText) : { info: parsed.info, rawText };
  const masked = input.mask ? await maskedPagePng(image.png, read.lines, read.rotateRadians, coveredDigits(parsed.info)) : undefined;
  return {
    info: output.info,
    // Parsed and masked as read; given back with letter-spaced words joined (`주 민 등 록 증` → `주민등록증`).
    raw_text: joinSpacedSyllables(output.rawText),
    warnings: scored.warnings,
    confidence: scored.confidence,
    engine,
    ...(masked ? { masked_image: masked.toString('base64') } : {}),
  };
}

/** The digits the masked image must cover: a card's resident number's back seven, a licence's serial. */
function coveredDigits(info: DocumentInfo): string[] {
  const back = info.type !== '사업자등록증' ? /^\d{6}-?(\d{7})$/.exec(info.id_number)?.[1] : undefined;
  const serial = info.license_number ? /(\d{6})-\d{2}$/.exec(info.license_number)?.[1] : undefined;
  return [back, serial].filter((digits): digits is string => digits !== undefined);
}

/**
 * A card's lines that the page reading lost or garbled, each read again alone from its band:
 * - the name's, when it is missing, read as specks, or lost a syllable beside the portrait
 *   (most names have three): a name read there replaces none, and a longer one a shorter one;
 * - the issue date's, when only its year was read (enlarged);
 * - the address's reference or road line, lost under the guilloche.
 * They are independent, so they run at once: with the pool's two warm workers a photo waits
 * for the slowest re-read, not for their sum. `lines` are the re-read lines a field came from.
 */
async function rereadCardBands(
  engine: OcrEngine,
  png: Buffer,
  pageLines: OcrLine[],
  parsed: ParsedDocument,
  signal?: AbortSignal,
): Promise<{ parsed: ParsedDocument; lines: OcrLine[] }> {
  const { info } = parsed;
  const [name, date, address] = await Promise.all([
    info.name.length < 3 ? readNameBand(engine, png, pageLines, signal) : '',
    info.issue_date ? undefined : readDateBand(engine, png, pageLines, signal),
    info.address ? withAddressBand(engine, png, pageLines, info.address, signal) : info.address,
  ]);
  const better: DocumentInfo = {
    ...info,
    name: name.length > info.name.length ? name : info.name,
    issue_date: date?.date ?? info.issue_date,
    address,
  };
  const changed = better.name !== info.name || better.issue_date !== info.issue_date || better.address !== info.address;
  return { parsed: changed ? { info: better, warnings: checkFields(better) } : parsed, lines: date ? [date.line] : [] };
}

type Scored = ParsedDocument & { confidence: FieldConfidence };

/**
 * The line-by-line reading fills what the reader left missing or failing its check (as
 * combineReadings does), and replaces a field the reader was unsure of when it read that field
 * without a warning and with a higher confidence.
 */
function fillUnsure(first: Scored | undefined, second: Scored | undefined): ParsedDocument | undefined {
  const combined = combineReadings(first, second);
  if (!first || !second || !combined || first.info.type !== second.info.type) return combined;
  const flagged = (scored: Scored) => new Set(scored.warnings.map((warning) => warning.field));
  const [unsure, failing] = [flagged(first), flagged(second)];
  const info = { ...combined.info };
  for (const field of unsure) {
    const theirs = second.info[field];
    if (field === 'type' || !theirs || failing.has(field) || info[field] !== first.info[field]) continue;
    if ((second.confidence[field] ?? 0) > (first.confidence[field] ?? 0)) (info as unknown as Record<string, string>)[field] = theirs;
  }
  return { info, warnings: checkFields(info) };
}

/** Fields a card's band re-reads look for when missing (rereadCardBands). */
const BAND_FIELDS = new Set<keyof DocumentInfo>(['name', 'issue_date']);

/** A 주민등록증 or 운전면허증: the documents whose lines are read again from their bands. */
function isCard(parsed: ParsedDocument | undefined): parsed is ParsedDocument {
  return parsed !== undefined && parsed.info.type !== '사업자등록증';
}

/** A card whose only gaps are fields its band re-reads look for, and whose numbers all pass their checks. */
function onlyBandsMissing(parsed: ParsedDocument | undefined): boolean {
  if (!isCard(parsed) || parsed.warnings.length === 0) return false;
  return parsed.warnings.every((warning) => warning.code === 'NOT_FOUND' && BAND_FIELDS.has(warning.field));
}

/**
 * At most `max` images per account in work at once: one account sending many heavy images
 * cannot take every worker from the others. The refusal is a 429 with `Retry-After`; the
 * executor gives the call back, as for every failure.
 */
function accountLimit(max: number) {
  const active = new Map<number, number>();
  return async <T>(account: number, work: () => Promise<T>): Promise<T> => {
    const running = active.get(account) ?? 0;
    if (running >= max) {
      throw new AppError(
        'RATE_LIMITED',
        `이미지는 한 계정에서 동시에 ${max}장까지 처리합니다. 앞의 요청이 끝난 뒤 다시 보내 주세요.`,
        {},
        2,
      );
    }
    active.set(account, running + 1);
    try {
      return await work();
    } finally {
      const left = (active.get(account) ?? 1) - 1;
      if (left > 0) active.set(account, left);
      else active.delete(account);
    }
  };
}

/** The vision model's reading merged in; a failing model leaves the embedded result alone. */
async function secondReading(
  vision: VisionReader,
  ctx: OperationContext,
  bytes: Buffer,
  rawText: string,
  parsed: ParsedDocument | undefined,
): Promise<ParsedDocument | undefined> {
  const started = performance.now();
  try {
    const reading = await vision.read(await visionImage(bytes), rawText, ctx.logger);
    return mergeReadings(parsed, reading, rawText);
  } catch (error) {
    const code = error instanceof AppError ? error.code : 'INTERNAL';
    ctx.logger.warn(
      { visionMs: Math.round(performance.now() - started), errorCode: code },
      'ocr-idcard: vision model failed, embedded result used',
    );
    return undefined;
  }
}
