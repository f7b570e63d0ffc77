import { AppError } from '../../errors.js';
import type { OcrEngine } from '../ocr/tesseract-pool.js';
import { MAX_IMAGE_PIXELS } from '../ocr/image-limits.js';
import { ZIP_LIMITS, type ZipRefusal } from './bounded-unzip.js';
import { MAX_HTML_ELEMENTS, runDocumentWorker, type DocumentKind, type WorkerResult } from './document-worker.js';
import { SANDBOX_LIMITS } from './sandbox.js';

/** Bytes of one uploaded file at most (the ID reader's image limit). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Pages of a PDF read at most, and of those, pages without a text layer read by OCR. */
export const MAX_PDF_PAGES = 100;
export const MAX_OCR_PAGES = 10;
/** Characters one file may give: past it the file is refused (split it), not cut silently. */
export const MAX_DOCUMENT_CHARS = 200_000;
/** Time one file may take to read (an OCR'd page adds its own engine time). */
const READ_TIMEOUT_MS = 20_000;
/** Files read at once in the process, and callers that may wait for a turn (503 past them). */
const AT_ONCE = 1;
const MAX_WAITING = 8;
/**
 * Longest wait for a turn: with the chatbot's own 5 s account queue before it and the 20 s read
 * after it, every file is answered within 30 s however many arrive at once
 * (bench/hostile-files.bench.ts measured 52 s without both on a loaded machine); past it, 503
 * with `Retry-After`, refunded.
 */
const MAX_WAIT_MS = 5_000;

export interface DocumentText {
  text: string;
  /** The document's own title, when it has one (an HTML `<title>`). */
  title?: string;
}

export interface DocumentReader {
  /** Reads an uploaded file by its name's extension (and its bytes): PDF, DOCX, Markdown, HTML, plain text. */
  readFile(name: string, bytes: Buffer, signal?: AbortSignal): Promise<DocumentText>;
  /** Reads a fetched page: its main text for HTML, every page for PDF. */
  readPage(kind: 'html' | 'pdf', bytes: Buffer, signal?: AbortSignal): Promise<DocumentText>;
}

const refuse = (ko: string, en: string, status: 'INVALID_REQUEST' | 'PAYLOAD_TOO_LARGE' | 'UNPROCESSABLE' = 'INVALID_REQUEST') =>
  new AppError(status, ko, { field: 'file' }).en(en);

/** A file's kind from its extension, checked against its first bytes where the format has a signature. */
export function documentKind(name: string, bytes: Buffer): DocumentKind | 'text' {
  const ext = /\.([a-z0-9]+)$/i.exec(name.trim())?.[1]?.toLowerCase() ?? '';
  const isPdf = bytes.subarray(0, 5).toString('latin1') === '%PDF-';
  const isZip = bytes.subarray(0, 4).toString('latin1') === 'PK\u0003\u0004';
  if (ext === 'pdf' || (isPdf && !ext)) {
    if (!isPdf) throw refuse("'file' 필드: PDF 파일이 아닙니다. 파일이 손상되지 않았는지 확인하세요.", "'file': this is not a PDF file.");
    return 'pdf';
  }
  if (ext === 'docx') {
    if (!isZip)
      throw refuse("'file' 필드: DOCX 파일이 아닙니다. Word에서 .docx로 다시 저장해 보내 주세요.", "'file': this is not a DOCX file.");
    return 'docx';
  }
  if (ext === 'hwp' || ext === 'hwpx' || ext === 'doc')
    throw refuse(
      `'file' 필드: .${ext} 파일은 아직 읽지 못합니다. PDF나 DOCX로 저장해서 보내 주세요.`,
      `'file': .${ext} files cannot be read yet. Save it as PDF or DOCX.`,
      'UNPROCESSABLE',
    );
  if (ext === 'md' || ext === 'markdown') return 'markdown';
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'txt' || ext === 'text' || ext === 'csv' || ext === 'log' || ext === '') {
    if (isPdf || isZip || bytes.subarray(0, 8192).includes(0))
      throw refuse("'file' 필드: 텍스트 파일이 아닙니다. 파일 이름의 확장자를 확인하세요.", "'file': this is not a text file.");
    return 'text';
  }
  throw refuse(
    "'file' 필드: PDF, DOCX, Markdown(.md), HTML(.html), 텍스트(.txt) 파일만 읽을 수 있습니다.",
    "'file': only PDF, DOCX, Markdown (.md), HTML (.html) and text (.txt) files can be read.",
    'UNPROCESSABLE',
  );
}

/** UTF-8 (a BOM dropped), or UTF-16 with its BOM; a text that is not valid UTF-8 is read as CP949 (Korean Windows). */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('euc-kr').decode(bytes);
  }
}

/**
 * Text out of documents, with a size limit, a time limit and a heap cap for every parser
 * (document-worker.ts), one file at a time in the process; a PDF page without a text layer
 * is read by the OCR engine, up to MAX_OCR_PAGES pages.
 */
export function createDocumentReader(deps: { ocr: () => OcrEngine; timeoutMs?: number }): DocumentReader {
  let running = 0;
  const waiting: Array<() => void> = [];
  const limits = {
    timeoutMs: deps.timeoutMs ?? READ_TIMEOUT_MS,
    maxPages: MAX_PDF_PAGES,
    maxOcrPages: MAX_OCR_PAGES,
    maxChars: MAX_DOCUMENT_CHARS,
  };

  const busy = () => new AppError('UNAVAILABLE', '문서를 읽는 요청이 많습니다. 잠시 후 다시 보내 주세요.', {}, 5);

  /** Resolves when a turn is handed over; rejects with 503 once MAX_WAIT_MS have passed without one. */
  function waitForTurn(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(turn), 1);
        reject(busy());
      }, MAX_WAIT_MS);
      waiting.push(turn);
    });
  }

  async function inTurn<T>(work: () => Promise<T>): Promise<T> {
    if (running >= AT_ONCE) {
      if (waiting.length >= MAX_WAITING) throw busy();
      await waitForTurn();
    } else running++;
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }

  async function extract(kind: DocumentKind, bytes: Buffer, signal?: AbortSignal): Promise<DocumentText> {
    const result = await inTurn(() => runDocumentWorker(kind, bytes, limits, signal));
    if (result.error !== undefined) throw workerError(result, kind);
    if ('pages' in result) {
      const texts: string[] = [];
      for (const page of result.pages) {
        if (page.text !== undefined) texts.push(page.text);
        else if (page.png) texts.push(joinSpacedSyllables((await deps.ocr().recognize(Buffer.from(page.png), signal)).text.trim()));
      }
      return { text: texts.filter(Boolean).join('\n\n') };
    }
    return { text: result.text, title: result.title || undefined };
  }

  return {
    async readFile(name, bytes, signal) {
      if (bytes.length > MAX_FILE_BYTES)
        throw refuse(
          `'file' 필드: 파일은 ${MAX_FILE_BYTES / 1024 / 1024}MB까지 읽을 수 있습니다.`,
          `'file': files up to ${MAX_FILE_BYTES / 1024 / 1024} MB can be read.`,
          'PAYLOAD_TOO_LARGE',
        );
      const kind = documentKind(name, bytes);
      const text = kind === 'text' ? { text: decodeText(bytes).replace(/\r\n?/g, '\n').trim() } : await extract(kind, bytes, signal);
      return checked(text);
    },
    async readPage(kind, bytes, signal) {
      if (kind === 'pdf') return checked(await extract('pdf', bytes, signal));
      return checked(await extract('html-main', bytes, signal));
    },
  };
}

const SYLLABLE = /^\p{Script=Hangul}$/u;

/**
 * Tesseract's Korean model often reads a printed word syllable by syllable ("서 버 실 출입 카 드 는"),
 * which no search finds. On a line where most words are single syllables, each run of them is
 * joined back into one word ("서버실 출입 카드는"); a line written normally is left as it is.
 */
export function joinSpacedSyllables(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const words = line.split(/ +/);
      const hangul = words.filter((word) => /\p{Script=Hangul}/u.test(word));
      const single = hangul.filter((word) => SYLLABLE.test(word)).length;
      if (hangul.length < 3 || single / hangul.length < 0.5) return line;
      const out: string[] = [];
      // Whether the last word of `out` is a run of single syllables (which the next one joins).
      let inRun = false;
      for (const word of words) {
        const syllable = SYLLABLE.test(word);
        if (syllable && inRun) out[out.length - 1] += word;
        else out.push(word);
        inRun = syllable;
      }
      return out.join(' ');
    })
    .join('\n');
}

function checked(document: DocumentText): DocumentText {
  if (document.text.trim() === '')
    throw refuse(
      '읽을 수 있는 글자가 없습니다. 글이 들어 있는 문서인지 확인하세요.',
      'No readable text was found in the document.',
      'UNPROCESSABLE',
    );
  if (longerThan(document.text, MAX_DOCUMENT_CHARS)) throw tooLong();
  return document;
}

const tooLong = () =>
  refuse(
    `문서의 글이 너무 깁니다 (한 문서에 ${MAX_DOCUMENT_CHARS.toLocaleString('en-US')}자까지). 여러 파일로 나누어 보내 주세요.`,
    `The document's text is too long (at most ${MAX_DOCUMENT_CHARS.toLocaleString('en-US')} characters). Split it into several files.`,
    'PAYLOAD_TOO_LARGE',
  );

/** More code points than `max`, counted without copying the text into an array. */
function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let count = 0;
  for (const _ of text) if (++count > max) return true;
  return false;
}

const MB = (bytes: number) => `${bytes / 1024 / 1024}MB`;

/** A DOCX refused by the bounded unzip (bounded-unzip.ts), the limit named. */
function zipRefusal(reason: ZipRefusal): AppError {
  switch (reason) {
    case 'EntryTooLarge':
    case 'TotalTooLarge':
      return refuse(
        `'file' 필드: DOCX의 압축을 풀면 너무 큽니다 (파일 하나에 ${MB(ZIP_LIMITS.maxEntryBytes)}, 모두 합쳐 ${MB(ZIP_LIMITS.maxTotalBytes)}까지). 더 작은 파일로 나누어 보내 주세요.`,
        `'file': the DOCX is too large once unpacked (at most ${MB(ZIP_LIMITS.maxEntryBytes)} per part, ${MB(ZIP_LIMITS.maxTotalBytes)} in all).`,
        'PAYLOAD_TOO_LARGE',
      );
    case 'RatioTooHigh':
      return refuse(
        `'file' 필드: DOCX의 압축률이 비정상적으로 높습니다 (최대 ${ZIP_LIMITS.maxRatio}배). 압축 폭탄으로 보여 읽지 않았습니다.`,
        `'file': the DOCX inflates more than ${ZIP_LIMITS.maxRatio} times its size; it looks like a decompression bomb and was not read.`,
        'PAYLOAD_TOO_LARGE',
      );
    case 'TooManyEntries':
      return refuse(
        `'file' 필드: DOCX 안의 파일이 너무 많습니다 (최대 ${ZIP_LIMITS.maxEntries.toLocaleString('en-US')}개).`,
        `'file': the DOCX holds too many parts (at most ${ZIP_LIMITS.maxEntries.toLocaleString('en-US')}).`,
        'PAYLOAD_TOO_LARGE',
      );
    case 'DtdInPart':
      return refuse(
        "'file' 필드: DOCX 안의 XML에 문서 형식 선언(DOCTYPE·ENTITY)이 있습니다. Word가 만든 파일이 아니어서 읽지 않았습니다.",
        "'file': an XML part of the DOCX declares a DOCTYPE or entities, which Word never writes; it was not read.",
        'UNPROCESSABLE',
      );
    case 'Encrypted':
      return refuse("'file' 필드: 암호가 걸린 DOCX는 읽을 수 없습니다.", "'file': a password-protected DOCX cannot be read.");
    default:
      return refuse(
        "'file' 필드: DOCX를 읽지 못했습니다. 손상된 파일인지 확인하세요.",
        "'file': the DOCX file could not be read. Check that it is not damaged.",
      );
  }
}

function workerError(result: Extract<WorkerResult, { error: string }>, kind: DocumentKind): AppError {
  const name = kind === 'pdf' ? 'PDF' : kind === 'docx' ? 'DOCX' : '문서';
  if (result.error.startsWith('Zip:')) return zipRefusal(result.error.slice(4) as ZipRefusal);
  switch (result.error) {
    case 'TooLong':
      return tooLong();
    case 'ImageTooLarge':
      return refuse(
        `PDF 안의 이미지 해상도가 너무 큽니다 (이미지 하나에 최대 ${MAX_IMAGE_PIXELS / 1_000_000}백만 화소). 더 작은 해상도로 스캔해 보내 주세요.`,
        `An image inside the PDF is too large (at most ${MAX_IMAGE_PIXELS / 1_000_000} megapixels each). Scan it at a lower resolution.`,
        'PAYLOAD_TOO_LARGE',
      );
    case 'TooManyElements':
      return refuse(
        `${name}의 요소(태그)가 너무 많습니다 (최대 ${MAX_HTML_ELEMENTS.toLocaleString('en-US')}개). 더 작은 파일로 나누어 보내 주세요.`,
        `The document has too many elements (at most ${MAX_HTML_ELEMENTS.toLocaleString('en-US')}). Split it.`,
        'PAYLOAD_TOO_LARGE',
      );
    case 'Unavailable':
      return new AppError('UNAVAILABLE', '문서를 읽는 프로세스를 시작하지 못했습니다. 잠시 후 다시 보내 주세요.', {}, 5).en(
        'The document reader could not be started. Try again shortly.',
      );
    case 'TooManyPages':
      return refuse(
        `PDF가 ${result.pages}쪽입니다. ${MAX_PDF_PAGES}쪽까지 읽을 수 있으니 나누어 보내 주세요.`,
        `The PDF has ${result.pages} pages; at most ${MAX_PDF_PAGES} can be read. Split it.`,
        'PAYLOAD_TOO_LARGE',
      );
    case 'TooManyScannedPages':
      return refuse(
        `글자 층이 없는(스캔한) 쪽은 ${MAX_OCR_PAGES}쪽까지 문자 인식으로 읽습니다. 나누어 보내 주세요.`,
        `Pages without a text layer (scans) are read by OCR up to ${MAX_OCR_PAGES} pages. Split the PDF.`,
        'PAYLOAD_TOO_LARGE',
      );
    case 'Timeout':
      return refuse(
        `${name}를 읽는 데 시간이 너무 오래 걸립니다 (한 파일에 ${READ_TIMEOUT_MS / 1000}초까지). 더 작은 파일로 나누어 보내 주세요.`,
        `Reading the file took too long (at most ${READ_TIMEOUT_MS / 1000} s per file).`,
        'UNPROCESSABLE',
      );
    case 'OutOfMemory':
      return refuse(
        `${name}가 너무 복잡해 읽지 못했습니다 (한 파일에 메모리 ${SANDBOX_LIMITS.memoryMb}MB까지). 더 작은 파일로 나누어 보내 주세요.`,
        `The file is too complex to read (at most ${SANDBOX_LIMITS.memoryMb} MB of memory per file).`,
        'PAYLOAD_TOO_LARGE',
      );
    case 'PasswordException':
      return refuse("'file' 필드: 암호가 걸린 PDF는 읽을 수 없습니다.", "'file': a password-protected PDF cannot be read.");
    case 'Aborted':
      return new AppError('REQUEST_TIMEOUT', '요청이 취소되었습니다.');
    default:
      return refuse(
        `'file' 필드: ${name}를 읽지 못했습니다. 손상된 파일인지 확인하세요.`,
        `'file': the ${kind.toUpperCase()} file could not be read. Check that it is not damaged.`,
      );
  }
}
