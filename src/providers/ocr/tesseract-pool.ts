import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';
import { AppError } from '../../errors.js';
import { readLine, readPage, type OcrText } from './read-page.js';

export const ocrTimedOut = () => new AppError('UPSTREAM_TIMEOUT', '이미지 인식 시간이 초과되었습니다. 더 작은 이미지로 다시 시도하세요.');
export const ocrFailed = () => new AppError('UPSTREAM_ERROR', '문자 인식 엔진이 이미지를 처리하지 못했습니다.');

export type { Box, OcrLine, OcrText, WordConfidence } from './read-page.js';

/** The embedded text engine as the operations see it: one image in, text out. */
export interface OcrEngine {
  /**
   * `signal`: the caller went away; a queued image is dropped, a running one stops at its next step.
   * `rotateRadians`: the image's known rotation (a band cut from a page already read); without
   * it the engine finds the skew itself.
   * `segmentation`: `block` (default) finds the lines of the image; `line` reads the image as
   * one line of text (a line already found by a text detector, see read-lines.ts).
   */
  recognize(png: Buffer, signal?: AbortSignal, rotateRadians?: number, segmentation?: Segmentation): Promise<OcrText>;
  stats(): OcrPoolStats;
  close(): Promise<void>;
}

export type Segmentation = 'block' | 'line';

export interface OcrPoolStats {
  workers: number;
  busy: number;
  queued: number;
}

export interface OcrPoolOptions {
  /** Warm workers; default from the CPU count (1 to 4). */
  size?: number;
  /** Images waiting beyond the busy workers before callers get 503. */
  maxQueue?: number;
  /** Per image, from the moment a worker takes it. */
  timeoutMs?: number;
  /**
   * `kor` (ID documents: Korean print, digits) or `kor+eng` (message screenshots: Latin letters
   * of links beside Korean; the Korean model alone reads `http` as digits); `eng` re-reads a
   * screenshot's line of Latin letters (a link), which `kor+eng` sometimes reads as Hangul.
   */
  languages?: OcrLanguages;
}

/**
 * The LSTM models shipped on npm (`4.0.0_best_int`): read from disk, never fetched, never cached.
 * tesseract.js takes one folder for every language, so two models are linked into a temporary one.
 */
export type OcrLanguages = 'kor' | 'kor+eng' | 'eng';

export function langPathFor(languages: OcrLanguages): string {
  const require = createRequire(import.meta.url);
  const folder = (code: string) => join(dirname(require.resolve(`@tesseract.js-data/${code}/package.json`)), '4.0.0_best_int');
  if (languages === 'kor' || languages === 'eng') return folder(languages);
  if (!linkedLangPath) {
    // One per process, removed when it exits (a folder per start would pile up in the temporary
    // directory); a private name, so no other user can put other models in its place.
    const dir = mkdtempSync(join(tmpdir(), 'aih-ocr-langs-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    for (const code of ['kor', 'eng']) symlinkSync(join(folder(code), `${code}.traineddata.gz`), join(dir, `${code}.traineddata.gz`));
    linkedLangPath = dir;
  }
  return linkedLangPath;
}
let linkedLangPath: string | undefined;

interface Job {
  png: Buffer;
  signal?: AbortSignal;
  rotateRadians?: number;
  segmentation?: Segmentation;
  resolve(value: OcrText): void;
  reject(error: unknown): void;
}

interface Slot {
  worker?: Promise<Worker>;
  busy: boolean;
}

/**
 * A small pool of warm tesseract.js workers (Korean, single-block page segmentation,
 * automatic deskew) with a bounded queue: when it is full the caller gets 503 with
 * `Retry-After`; an image that takes longer than the timeout gets 504 and its worker is
 * replaced (a running recognition cannot be cancelled).
 */
export function createTesseractPool(options: OcrPoolOptions = {}): OcrEngine {
  const size = options.size ?? Math.max(1, Math.min(4, availableParallelism()));
  const maxQueue = options.maxQueue ?? size * 8;
  const timeoutMs = options.timeoutMs ?? 20_000;
  const languages = options.languages ?? 'kor';
  const langPath = langPathFor(languages);
  const slots: Slot[] = Array.from({ length: size }, () => ({ busy: false }));
  const queue: Job[] = [];
  let closed = false;

  async function startWorker(): Promise<Worker> {
    const worker = await createWorker(languages.split('+'), OEM.LSTM_ONLY, {
      langPath,
      gzip: true,
      cacheMethod: 'none',
      errorHandler: () => {},
    });
    await worker.setParameters({
      tessedit_pageseg_mode: PSM.SINGLE_BLOCK,
      user_defined_dpi: '300',
      preserve_interword_spaces: '0',
      // Tesseract prints notes ("Detected 7 diacritics") to stdout otherwise.
      debug_file: '/dev/null',
    });
    return worker;
  }

  function workerOf(slot: Slot): Promise<Worker> {
    if (!slot.worker) {
      slot.worker = startWorker();
      // A worker that failed to start is retried on the next image.
      slot.worker.catch(() => (slot.worker = undefined));
    }
    return slot.worker;
  }

  async function runOn(slot: Slot, job: Job): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(ocrTimedOut()), timeoutMs);
    });
    const work = workerOf(slot).then((worker) =>
      job.segmentation === 'line' ? readLine(worker, job.png) : readPage(worker, job.png, job.signal, job.rotateRadians),
    );
    // After a timeout the abandoned recognition fails on its terminated worker: nobody awaits it.
    work.catch(() => {});
    try {
      job.resolve(await Promise.race([work, timeout]));
    } catch (error) {
      if (error instanceof AppError && error.code === 'UPSTREAM_TIMEOUT') {
        // The slot gets a fresh worker; the old one is ended once its recognition is over
        // (ending it earlier makes tesseract.js post to a dead worker), or after a minute.
        const stuck = slot.worker;
        slot.worker = undefined;
        const end = () => void stuck?.then((worker) => worker.terminate()).catch(() => {});
        const kill = setTimeout(end, 60_000);
        kill.unref();
        void work
          .finally(() => {
            clearTimeout(kill);
            end();
          })
          .catch(() => {});
      }
      if (job.signal?.aborted) job.reject(job.signal.reason);
      else job.reject(error instanceof AppError ? error : ocrFailed());
    } finally {
      clearTimeout(timer);
    }
  }

  function pump(): void {
    for (const slot of slots) {
      if (slot.busy || queue.length === 0) continue;
      const job = queue.shift() as Job;
      slot.busy = true;
      void runOn(slot, job).finally(() => {
        slot.busy = false;
        pump();
      });
    }
  }

  return {
    recognize(png, signal, rotateRadians, segmentation) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      if (closed) return Promise.reject(new AppError('UNAVAILABLE', '문자 인식 엔진이 종료되었습니다.', {}, 5));
      const busy = slots.filter((slot) => slot.busy).length;
      if (busy === slots.length && queue.length >= maxQueue) {
        return Promise.reject(
          new AppError('UNAVAILABLE', '이미지 인식 요청이 많아 잠시 처리할 수 없습니다. 잠시 후 다시 시도하세요.', {}, 5),
        );
      }
      return new Promise<OcrText>((resolve, reject) => {
        const job: Job = { png, signal, rotateRadians, segmentation, resolve, reject };
        // A caller that disconnects while waiting leaves the queue at once.
        const onAbort = () => {
          const at = queue.indexOf(job);
          if (at >= 0) {
            queue.splice(at, 1);
            reject(signal?.reason);
          }
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const settle = () => signal?.removeEventListener('abort', onAbort);
        job.resolve = (value) => (settle(), resolve(value));
        job.reject = (error) => (settle(), reject(error));
        queue.push(job);
        pump();
      });
    },
    stats: () => ({
      workers: slots.filter((slot) => slot.worker).length,
      busy: slots.filter((slot) => slot.busy).length,
      queued: queue.length,
    }),
    async close() {
      closed = true;
      for (const job of queue.splice(0)) job.reject(new AppError('UNAVAILABLE', '문자 인식 엔진이 종료되었습니다.', {}, 5));
      await Promise.all(slots.map((slot) => slot.worker?.then((worker) => worker.terminate()).catch(() => {})));
      for (const slot of slots) slot.worker = undefined;
    },
  };
}
