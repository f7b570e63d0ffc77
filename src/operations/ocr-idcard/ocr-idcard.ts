import { AppError } from '../../errors.js';
import type { Operation, OperationContext } from '../../platform/execute.js';
import type { OcrEngine } from '../../providers/ocr/tesseract-pool.js';
import { decodeBase64Image } from './image-input.js';
import { maskDocument } from './mask.js';
import { ocrIdcardSchema } from './ocr-idcard.schema.js';
import { parseDocument, type DocumentInfo, type FieldWarning, type ParsedDocument } from './parse.js';
import { prepareImage, visionImage } from './preprocess.js';
import { splitLines } from './text.js';
import { mergeReadings, type VisionReader } from './vision.js';

export interface OcrIdcardDeps {
  /** The embedded engine; a function so the worker pool starts on first use, not at start-up. */
  ocr: () => OcrEngine;
  /** A vision model, when `OPENAI_VISION_MODEL` is configured. */
  vision?: VisionReader;
}

export interface OcrIdcardOutput {
  info: DocumentInfo;
  raw_text: string;
  warnings: FieldWarning[];
  engine: 'tesseract' | 'tesseract+vision';
}

const NOT_A_DOCUMENT =
  '주민등록증, 자동차운전면허증, 사업자등록증 중 하나로 인식하지 못했습니다. 문서 전체가 선명하게 보이도록 다시 촬영해 주세요.';
const NOTHING_READ = '이미지에서 글자를 읽지 못했습니다. 문서 전체가 선명하게 보이도록 다시 촬영해 주세요.';

/**
 * ID / business registration reader (SPEC §5): decodes the Base64 image, prepares it with
 * sharp, reads it with the embedded Tesseract pool (and a vision model when configured),
 * and returns the document's fields with `warnings` decided from formats and check digits.
 * The image, the text and the fields are never stored or logged: only sizes, type, timings.
 */
export function createOcrIdcardOperation(deps: OcrIdcardDeps): Operation<typeof ocrIdcardSchema, OcrIdcardOutput> {
  return {
    api: 'ocr-idcard',
    schema: ocrIdcardSchema,
    async run(ctx, input) {
      const started = performance.now();
      const bytes = decodeBase64Image(input.base64_image);
      const image = await prepareImage(bytes);
      const prepared = performance.now();
      const read = await deps.ocr().recognize(image.png);
      const recognized = performance.now();
      const rawText = splitLines(read.text).join('\n');
      let parsed = parseDocument(rawText);
      let engine: OcrIdcardOutput['engine'] = 'tesseract';
      if (deps.vision) {
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
      ctx.logger.info({ ...sizes, ...timings, type: parsed.info.type, warnings: parsed.warnings.length, engine }, 'ocr-idcard read');
      const output = input.mask ? maskDocument(parsed.info, rawText) : { info: parsed.info, rawText };
      return { info: output.info, raw_text: output.rawText, warnings: parsed.warnings, engine };
    },
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
    ctx.logger.warn({ visionMs: Math.round(performance.now() - started), errorCode: code }, 'ocr-idcard: vision model failed, embedded result used');
    return undefined;
  }
}
