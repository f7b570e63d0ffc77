import { readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfWithHugeImage } from './helpers/id-pdf.js';
import { base64, docxWithText } from './helpers/knowledge-files.js';
import { animatedGif, billionLaughsDocx, docxBomb, nestedHtml, nestedZipDocx, pdfOfPages, pngPixelBomb } from './helpers/hostile-files.js';
import { callJson, migratedDataDir, signUpOver, startServerProcess, stopServerProcess, type ServerProcess } from './helpers/process.js';

/**
 * Issue 46: hostile files, made here, sent to a real server process through every door that
 * takes a file or an image. Each answer is checked (status, code, the Korean message naming
 * the limit), with its time and the server's memory read from /proc/<pid>/status while it
 * works: the process stays up, its RSS rises by at most 300 MB, and refusals are free.
 */
const MB = 1024;
const MAX_RISE_KB = 300 * MB;
const dataDir = migratedDataDir('aih-hostile-e2e-');
let server: ServerProcess | undefined;
let base = '';
let key = '';
let baselineKb = 0;
let peakBeforeKb = 0;

/** A field of /proc/<pid>/status in kB (VmRSS now, VmHWM the peak so far). */
function memoryKb(field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${server!.child.pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]);
}

/** One request, with its time and the highest RSS seen while it ran (sampled every 20 ms), as a rise over the baseline. */
async function send(path: string, body: unknown) {
  let peak = memoryKb('VmRSS');
  const sampler = setInterval(() => (peak = Math.max(peak, memoryKb('VmRSS'))), 20);
  const started = performance.now();
  try {
    const answer = await callJson(base, 'POST', path, body, { 'x-api-key': key });
    return { ...answer, seconds: (performance.now() - started) / 1000, riseKb: Math.max(peak, memoryKb('VmRSS')) - baselineKb };
  } finally {
    clearInterval(sampler);
  }
}

const indexFile = (name: string, bytes: Buffer) => send('/api/v1/chatbot/rag', { action: 'index', file: { name, base64: base64(bytes) } });
const readId = (bytes: Buffer) => send('/api/v1/ocr/idcard', { base64_image: base64(bytes) });
const scanImage = (bytes: Buffer) => send('/api/v1/url/scan', { base64_image: base64(bytes) });

async function remaining(api: string): Promise<number> {
  const usage = await callJson(base, 'GET', '/api/v1/usage', undefined, { 'x-api-key': key });
  return usage.body.usage.find((row: { api: string }) => row.api === api).remaining;
}

/** The answer a refused file gets, the time it took, and the server still standing within its memory. */
async function expectRefused(
  answer: Awaited<ReturnType<typeof send>>,
  refused: { status: number; code: string; message: RegExp; seconds: number },
) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(refused.status);
  expect(answer.body).toMatchObject({ success: false, code: refused.status, error_code: refused.code });
  expect(answer.body.error).toMatch(refused.message);
  expect(answer.seconds).toBeLessThanOrEqual(refused.seconds);
  expect(answer.riseKb).toBeLessThanOrEqual(MAX_RISE_KB);
  expect(server!.child.exitCode).toBeNull();
  expect((await fetch(`${base}/healthz/ready`)).status).toBe(200);
}

beforeAll(async () => {
  server = startServerProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  base = `http://127.0.0.1:${await server.ready}`;
  key = (await signUpOver(base, 'hostile')).apiKey;
  expect((await callJson(base, 'POST', '/api/v1/subscriptions', { api: 'harmful-url-detection' }, { 'x-api-key': key })).status).toBe(201);
  // An ordinary DOCX first: the document path is loaded and warm before the baseline is taken.
  const ordinary = await indexFile('안내.docx', await docxWithText('안내', ['평범한 문서는 그대로 읽힙니다.']));
  expect(ordinary.status, JSON.stringify(ordinary.body)).toBe(200);
  baselineKb = memoryKb('VmRSS');
  peakBeforeKb = memoryKb('VmHWM');
}, 180_000);

afterAll(async () => {
  await stopServerProcess(server);
  rmSync(dataDir, { recursive: true, force: true });
});

describe('knowledge files (chatbot index)', () => {
  it("refuses the issue's DOCX (1.4 MB inflating to 400 MB) at the unzip limit, free of charge", async () => {
    const before = await remaining('chatbot-rag');
    const answer = await indexFile('폭탄.docx', await docxBomb(400_000_000));
    await expectRefused(answer, {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: /압축을 풀면 너무 큽니다 \(파일 하나에 32MB/,
      seconds: 30,
    });
    expect(await remaining('chatbot-rag')).toBe(before);
  });

  it('reads a DOCX carrying a ZIP of ZIPs (5 × 100 MB) without ever opening the inner archives', async () => {
    const answer = await indexFile('중첩.docx', await nestedZipDocx('중첩된 압축 파일은 열지 않고 본문만 읽습니다.'));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.seconds).toBeLessThanOrEqual(30);
    expect(answer.riseKb).toBeLessThanOrEqual(MAX_RISE_KB);
  });

  it('refuses entity expansion (billion laughs) in a DOCX part', async () => {
    await expectRefused(await indexFile('웃음.docx', billionLaughsDocx()), {
      status: 422,
      code: 'UNPROCESSABLE',
      message: /DOCTYPE·ENTITY/,
      seconds: 30,
    });
  });

  it('refuses a PDF of 5,000 pages by its page count', async () => {
    await expectRefused(await indexFile('두꺼운.pdf', pdfOfPages(5_000)), {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: /PDF가 5000쪽입니다\. 100쪽까지/,
      seconds: 30,
    });
  });

  it('refuses an HTML file of a million nested elements before parsing it', async () => {
    await expectRefused(await indexFile('깊은.html', nestedHtml(1_000_000)), {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: /요소\(태그\)가 너무 많습니다 \(최대 200,000개\)/,
      seconds: 30,
    });
  });

  it('refuses a scanned PDF page drawing a 12,000² image (knowledge OCR) by the pixel limit', async () => {
    await expectRefused(await indexFile('스캔.pdf', pdfWithHugeImage(12_000)), {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: /이미지 해상도가 너무 큽니다 \(이미지 하나에 최대 40백만 화소\)/,
      seconds: 30,
    });
  });

  it('answers ten bombs at once within 30 s each: refused, or told to retry (429/503 with Retry-After), and keeps serving', async () => {
    const bomb = await docxBomb(400_000_000);
    const answers = await Promise.all(Array.from({ length: 10 }, () => indexFile('폭탄.docx', bomb)));
    for (const answer of answers) {
      expect([413, 429, 503], JSON.stringify(answer.body)).toContain(answer.status);
      if (answer.status !== 413) expect(answer.body.error).toMatch(/잠시 후 다시/);
      expect(answer.seconds).toBeLessThanOrEqual(30);
      expect(answer.riseKb).toBeLessThanOrEqual(MAX_RISE_KB);
    }
    expect(server!.child.exitCode).toBeNull();
  }, 120_000);
});

describe('images in every door that takes one', () => {
  const gif = animatedGif(10_000);
  const png = pngPixelBomb(20_000);

  it('ID reader: refuses a 20,000² PNG and a GIF of 10,000 frames before decoding them', async () => {
    const pixels = /이미지 해상도가 너무 큽니다 \(최대 40백만 화소\)/;
    await expectRefused(await readId(png), { status: 413, code: 'PAYLOAD_TOO_LARGE', message: pixels, seconds: 10 });
    await expectRefused(await readId(gif), { status: 413, code: 'PAYLOAD_TOO_LARGE', message: pixels, seconds: 10 });
  });

  it('message check (/url/scan base64_image, its QR code reader): refuses the same two', async () => {
    await expectRefused(await scanImage(png), {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: /이미지 해상도가 너무 큽니다 \(최대 40백만 화소\)/,
      seconds: 10,
    });
    await expectRefused(await scanImage(gif), {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: /프레임이 너무 많습니다 \(10,000개/,
      seconds: 10,
    });
  });
});

describe('the whole run', () => {
  it('never took the server past 300 MB over its baseline (VmHWM)', () => {
    expect(memoryKb('VmHWM')).toBeLessThanOrEqual(Math.max(peakBeforeKb, baselineKb + MAX_RISE_KB));
    expect(server!.child.exitCode).toBeNull();
  });
});
