import { MAX_IMAGE_PIXELS } from '../ocr/image-limits.js';
import { runInChild, type ChildAnswer, type SandboxFailure } from './sandbox.js';

/**
 * Reading an uploaded document (PDF, DOCX, HTML, Markdown) happens in a child process with a
 * heap cap, a memory cap and a time limit (sandbox.ts): a hostile or huge file neither blocks
 * the event loop nor takes the server's memory, and whatever it does, only the child ends.
 * Nothing in the file is executed (document-child.ts). Only the text (and, for a scanned PDF
 * page, its picture) comes back.
 */

export type DocumentKind = 'pdf' | 'docx' | 'markdown' | 'html' | 'html-main';

export type WorkerResult =
  | { text: string; title: string; error?: undefined }
  | { pages: Array<{ text?: string; png?: Uint8Array }>; error?: undefined }
  | { error: string; pages?: number };

export interface WorkerLimits {
  timeoutMs: number;
  maxPages: number;
  maxOcrPages: number;
  /** Characters one file may give (the child stops reading past them). */
  maxChars: number;
}

/** Longest side of a scanned page drawn for the OCR engine (~170 dpi on A4). */
const PAGE_LONG_SIDE = 2000;
/** Elements an HTML page (or a DOCX or Markdown turned into HTML) may have: a long manual has ~20,000. */
export const MAX_HTML_ELEMENTS = 200_000;

/** Runs one extraction in a fresh child process; `Timeout`, `OutOfMemory` and the limits come back as errors. */
export async function runDocumentWorker(
  kind: DocumentKind,
  bytes: Buffer,
  limits: WorkerLimits,
  signal?: AbortSignal,
): Promise<WorkerResult> {
  const data = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const answer: ChildAnswer | { error: SandboxFailure } =
    kind === 'pdf'
      ? await runInChild(
          {
            kind,
            data,
            maxPages: limits.maxPages,
            maxOcrPages: limits.maxOcrPages,
            longSide: PAGE_LONG_SIDE,
            maxImagePixels: MAX_IMAGE_PIXELS,
            maxChars: limits.maxChars,
          },
          limits.timeoutMs,
          signal,
        )
      : await runInChild({ kind, data, maxChars: limits.maxChars, maxHtmlElements: MAX_HTML_ELEMENTS }, limits.timeoutMs, signal);
  if ('pixels' in answer) return { error: 'Failed' };
  return answer;
}
