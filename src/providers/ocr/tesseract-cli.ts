import { execFile } from 'node:child_process';
import { AppError } from '../../errors.js';
import { linesFromWords, type OcrText, type PlacedWord } from './read-page.js';
import type { OcrEngine } from './tesseract-pool.js';

export interface TesseractCliOptions {
  /** Images read at once (default 2). */
  concurrency?: number;
  timeoutMs?: number;
  /** Page segmentation mode (default 6, one uniform block, as the embedded engine). */
  psm?: number;
  /** Engine mode: 1 LSTM only (default), 0 legacy, 2 both. */
  oem?: number;
  /** Default /usr/bin/tesseract (Debian's). It runs single-threaded, as a pool worker does. */
  binary?: string;
}

/**
 * The Debian `tesseract` binary (package tesseract-ocr with tesseract-ocr-kor) as an
 * {@link OcrEngine}, to measure against the embedded tesseract.js on the same prepared
 * images (`npm run eval:ocr -- --engine cli`). Not the service's engine: see README.
 */
export function createTesseractCli(options: TesseractCliOptions = {}): OcrEngine {
  const concurrency = options.concurrency ?? 2;
  const binary = options.binary ?? '/usr/bin/tesseract';
  const timeoutMs = options.timeoutMs ?? 20_000;
  const args = (psm: number) => ['stdin', 'stdout', '-l', 'kor', '--psm', String(psm), '--oem', String(options.oem ?? 1), '--dpi', '300'];
  let running = 0;
  const waiting: Array<() => void> = [];

  function run(png: Buffer, psm: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = execFile(
        binary,
        [...args(psm), 'tsv'],
        { timeout: timeoutMs, maxBuffer: 16 << 20, env: { OMP_THREAD_LIMIT: '1' } },
        (error, stdout) => {
          if (error) reject(new AppError('UPSTREAM_ERROR', '문자 인식 엔진이 이미지를 처리하지 못했습니다.'));
          else resolve(stdout);
        },
      );
      // A binary that exits before reading the image (a bad option) is reported by the callback.
      child.stdin?.on('error', () => {});
      child.stdin?.end(png);
    });
  }

  return {
    async recognize(png, signal, _rotateRadians, segmentation) {
      signal?.throwIfAborted();
      if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
      try {
        return parseTsv(await run(png, segmentation === 'line' ? 7 : (options.psm ?? 6)));
      } finally {
        running--;
        waiting.shift()?.();
      }
    },
    stats: () => ({ workers: concurrency, busy: running, queued: waiting.length }),
    close: async () => {},
  };
}

/** Tesseract's TSV: one row per word (level 5) with its block, paragraph and line numbers. */
function parseTsv(tsv: string): OcrText {
  const lines = new Map<string, PlacedWord[]>();
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells[0] !== '5' || cells.length < 12) continue;
    const text = (cells[11] ?? '').trim();
    if (!text) continue;
    const [left, top, width, height, confidence] = cells.slice(6, 11).map(Number) as [number, number, number, number, number];
    const key = cells.slice(2, 5).join('.');
    const words = lines.get(key) ?? [];
    words.push({ text, confidence, bbox: { x0: left, y0: top, x1: left + width, y1: top + height } });
    lines.set(key, words);
  }
  const read = [...lines.values()].flatMap((words) => linesFromWords(words));
  return { text: read.map((line) => line.text).join('\n'), lines: read, rotateRadians: 0 };
}
