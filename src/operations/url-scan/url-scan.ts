import type { z } from 'zod';
import type { OcrEngine } from '../../providers/ocr/tesseract-pool.js';
import type { MessageImageDecoder } from '../../providers/message-image.js';
import { readByLines } from '../../providers/ocr/read-lines.js';
import type { TextLineDetector } from '../../providers/ocr/text-lines.js';
import { AppError } from '../../errors.js';
import type { Operation } from '../../platform/execute.js';
import type { UrlSafetyChecker, UrlVerdict } from '../url-detect/checker.js';
import { urlDetectSchema } from '../url-detect/url-detect.schema.js';
import { decodeBase64Image, sniffFormat } from '../ocr-idcard/image-input.js';
import { extractUrls, MAX_URLS } from './extract-urls.js';
import { MESSAGE_RULES, type MessageRules } from './message-rules.js';
import { screenText } from './screen-text.js';
import { judgeMessage, type CheckedUrl } from './smishing-signals.js';
import { urlScanSchema, type urlScanOutputSchema } from './url-scan.schema.js';

export type UrlScanOutput = z.output<typeof urlScanOutputSchema>;

export interface UrlScanDeps {
  checker: UrlSafetyChecker;
  /** The ID reader's OCR engine (started on first use). */
  ocr: () => OcrEngine;
  images: MessageImageDecoder;
  rules?: MessageRules;
  /**
   * PaddleOCR's text-line detector (read-lines.ts): a screenshot is read line by line, each line
   * alone, `first` (instead of the page reading) or as a `fallback` when the page reading finds no link.
   */
  textLines?: {
    detector: TextLineDetector;
    use: 'first' | 'fallback';
    /** An engine with the Latin model alone: a line that looks like a link is read again by it (read-lines.ts). */
    latin?: () => OcrEngine;
  };
}

/** Verdicts asked at once: an uncertain URL may wait on the LLM, and one message must not hold many of its calls. */
const CHECKS_AT_ONCE = 4;

/** A verdict that followed the link (short-link expansion) may say where it ended. */
type VerdictWithTarget = UrlVerdict & { finalUrl?: string; final_url?: string };

/**
 * The message check ("이거 스미싱이야?"): every URL in a text, an SMS screenshot (OCR) or a QR
 * code photo, each judged by the harmful-URL detector, and the message judged as smishing or
 * not, with plain-Korean reasons. One `harmful-url-detection` call per URL checked (at most
 * MAX_URLS); a message without links costs nothing.
 */
export function createUrlScanOperation(deps: UrlScanDeps): Operation<typeof urlScanSchema, UrlScanOutput> {
  const rules = deps.rules ?? MESSAGE_RULES;
  return {
    api: 'harmful-url-detection',
    schema: urlScanSchema,
    async run(ctx, input) {
      const parts = input.text ? [input.text] : [];
      if (input.base64_image !== undefined) parts.push(await readImage(deps, rules, input.base64_image, ctx.signal));
      const extracted = extractUrls(parts, MAX_URLS, rules);
      const urls = extracted.urls.filter((url) => urlDetectSchema.safeParse({ url }).success);
      // The executor charged the first URL's call; each further URL is one more.
      for (let index = 1; index < urls.length; index++) await ctx.charge('harmful-url-detection');
      const checked = await mapLimited(urls, CHECKS_AT_ONCE, (url) => checkUrl(deps.checker, url));
      const judgement = judgeMessage(parts.join('\n'), checked, rules);
      if (extracted.found > urls.length) {
        judgement.reasons.push(`링크가 ${extracted.found}개 있어 처음 ${urls.length}개만 검사했습니다.`);
      }
      ctx.logger.debug({ urls: urls.length, found: extracted.found, smishing: judgement.is_smishing }, 'message checked');
      return { urls: checked, ...judgement, urls_found: extracted.found };
    },
    isFree: (output) => output.urls.length === 0,
  };
}

async function checkUrl(checker: UrlSafetyChecker, url: string): Promise<CheckedUrl> {
  const verdict: VerdictWithTarget = await checker.check(url);
  return {
    url,
    final_url: verdict.finalUrl ?? verdict.final_url ?? url,
    is_malicious: verdict.isMalicious,
    category: verdict.category,
    reason: verdict.reason,
  };
}

/** The text in a picture of a message: a QR code's content when there is one, else what OCR reads. */
async function readImage(deps: UrlScanDeps, rules: MessageRules, base64: string, signal: AbortSignal | undefined): Promise<string> {
  const bytes = decodeBase64Image(base64);
  if (sniffFormat(bytes) === 'pdf') {
    throw new AppError(
      'INVALID_REQUEST',
      "'base64_image' 필드: PDF는 받지 않습니다. 문자 캡처 화면이나 QR 코드 사진(JPEG, PNG, WebP)을 보내 주세요.",
      {
        field: 'base64_image',
      },
    );
  }
  const qr = await deps.images.qrText(bytes);
  if (qr !== undefined) return qr;
  const png = await deps.images.ocrPng(bytes);
  const lines = deps.textLines;
  const byLines = async () => screenText(await readByLines(deps.ocr(), lines!.detector, png, signal, undefined, lines!.latin?.()));
  if (lines?.use === 'first') return byLines();
  const page = screenText(await deps.ocr().recognize(png, signal));
  if (lines?.use !== 'fallback' || extractUrls(page, MAX_URLS, rules).urls.length > 0) return page;
  return byLines();
}

/** `work` over `items` with at most `limit` running at a time; results in the items' order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
