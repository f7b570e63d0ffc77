import type { z } from 'zod';
import type { OcrEngine } from '../../providers/ocr/tesseract-pool.js';
import type { MessageImageDecoder } from '../../providers/message-image.js';
import { readByLines } from '../../providers/ocr/read-lines.js';
import type { TextLineDetector } from '../../providers/ocr/text-lines.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { Operation } from '../../platform/execute.js';
import type { UrlSafetyChecker, UrlVerdict } from '../url-detect/checker.js';
import { urlDetectSchema } from '../url-detect/url-detect.schema.js';
import { decodeBase64Image, sniffFormat } from '../ocr-idcard/image-input.js';
import { extractUrls, MAX_URLS } from './extract-urls.js';
import { MESSAGE_RULES, type MessageRules } from './message-rules.js';
import { screenText } from './screen-text.js';
import type { MessageJudgement, OverrulableJudge } from './message-judge.js';
import type { MessageOpinionJudge } from './message-llm.js';
import type { CheckedUrl } from './smishing-signals.js';
import { urlScanSchema, type urlScanOutputSchema } from './url-scan.schema.js';

export type UrlScanOutput = z.output<typeof urlScanOutputSchema>;

export interface UrlScanDeps {
  checker: UrlSafetyChecker;
  /** The offline judgement of the message (rules, message model, link verdicts). */
  judge: OverrulableJudge;
  /** The LLM's opinion on the uncertain middle, when one is configured. */
  opinion?: MessageOpinionJudge;
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
  /** Told each answered check's duration, by input (the metrics' message-check histogram). */
  observe?: (input: 'text' | 'image', seconds: number) => void;
}

/** Verdicts asked at once: an uncertain URL may wait on the LLM, and one message must not hold many of its calls. */
const CHECKS_AT_ONCE = 4;

/** A verdict that followed the link (short-link expansion) may say where it ended. */
type VerdictWithTarget = UrlVerdict & { finalUrl?: string; final_url?: string };

/**
 * The message check ("이거 스미싱이야?"): every URL in a text, an SMS screenshot (OCR) or a QR
 * code photo, each judged by the harmful-URL detector, and the message itself judged (its scam
 * script, sender marks and numbers, by rules and the message model; an LLM on the uncertain
 * middle when configured), with its scam type, plain-Korean reasons and advice. One
 * `harmful-url-detection` call per message plus one per URL checked (at most MAX_URLS).
 */
export function createUrlScanOperation(deps: UrlScanDeps): Operation<typeof urlScanSchema, UrlScanOutput> {
  const rules = deps.rules ?? MESSAGE_RULES;
  return {
    api: 'harmful-url-detection',
    schema: urlScanSchema,
    async run(ctx, input) {
      const started = performance.now();
      const parts = input.text ? [input.text] : [];
      if (input.base64_image !== undefined) parts.push(await readImage(deps, rules, input.base64_image, ctx.signal));
      const extracted = extractUrls(parts, MAX_URLS, rules);
      const urls = extracted.urls.filter((url) => urlDetectSchema.safeParse({ url }).success);
      // The executor charged the message's call; each URL is one more.
      for (const _ of urls) await ctx.charge('harmful-url-detection');
      const checked = await mapLimited(urls, CHECKS_AT_ONCE, (url) => checkUrl(deps.checker, url));
      const text = parts.join('\n');
      const judgement = await secondOpinion(deps, text, deps.judge.judge(text, checked), ctx.logger);
      if (extracted.found > urls.length) {
        judgement.reasons.push(`링크가 ${extracted.found}개 있어 처음 ${urls.length}개만 검사했습니다.`);
      }
      ctx.logger.debug({ urls: urls.length, found: extracted.found, level: judgement.level }, 'message checked');
      const { level: _level, ...answer } = judgement;
      deps.observe?.(input.base64_image !== undefined ? 'image' : 'text', (performance.now() - started) / 1000);
      return { urls: checked, ...answer, urls_found: extracted.found };
    },
  };
}

/**
 * The LLM on the uncertain middle only: clear verdicts never reach it. Its answer is validated;
 * a failure keeps the offline verdict, and the reasons say which one was used. The message is
 * never logged.
 */
async function secondOpinion(deps: UrlScanDeps, text: string, offline: MessageJudgement, logger: Logger): Promise<MessageJudgement> {
  if (!deps.opinion || offline.level !== 'uncertain') return offline;
  try {
    const said = await deps.opinion.judge(text, offline);
    const judged = deps.judge.overrule(offline, text, { scam: said.is_scam, ...(said.scam_type ? { scamType: said.scam_type } : {}) });
    judged.reasons.push(`오프라인 판정이 애매해 AI(LLM)에게 물었습니다: ${said.reason}`);
    return judged;
  } catch (error) {
    logger.warn({ err: error instanceof Error ? error.name : 'unknown' }, 'message opinion failed; offline verdict kept');
    return { ...offline, reasons: [...offline.reasons, 'AI(LLM) 판단을 받지 못해 오프라인 판정(규칙과 학습 모델)을 따랐습니다.'] };
  }
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
