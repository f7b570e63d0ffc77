import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM } from 'tesseract.js';
import { prepareImage } from '../src/operations/ocr-idcard/preprocess.js';
import { parseDocument } from '../src/operations/ocr-idcard/parse.js';
import { makeImageSet } from '../test/helpers/id-images.js';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pdfWithHugeImage, pdfWithImage } from '../test/helpers/id-pdf.js';
import { makePhotoSet } from '../test/helpers/id-photos.js';
import { percentile, startBenchService } from './lib.js';

/**
 * POST /api/v1/ocr/idcard on synthetic documents (seed 3, neither a tuning nor a set-aside
 * seed) clean, mild, hard and as phone photos, and a PDF: images per second, p50/p95 latency,
 * and the memory the warm workers take. Baseline, same run: one bare tesseract.js worker
 * reading the same images as they are (no preprocessing, no line repair, no parsing, no
 * HTTP), one at a time. Then Debian's tesseract binary against tesseract.js, when installed.
 */
const SEED = 3;
const PER_KIND = 4;

interface Figures {
  label: string;
  imagesPerSecond: number;
  p50: number;
  p95: number;
  failures: number;
}

async function load(label: string, concurrency: number, total: number, send: (i: number) => Promise<boolean>): Promise<Figures> {
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        if (!(await send(i))) failures++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { label, imagesPerSecond: total / seconds, p50: percentile(latencies, 50), p95: percentile(latencies, 95), failures };
}

function print(f: Figures): void {
  console.log(
    `${f.label.padEnd(40)} ${f.imagesPerSecond.toFixed(2).padStart(6)} images/s  p50 ${Math.round(f.p50)} ms  p95 ${Math.round(f.p95)} ms` +
      (f.failures ? `  failures ${f.failures}` : ''),
  );
}

/**
 * Memory of warm workers, measured in a fresh Node process (the service's own RSS moves with
 * its database and garbage collection): RSS with none, one and two workers that have read an image.
 */
function workerMemory(image: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'aih-ocr-mem-'));
  const file = join(dir, 'card.png');
  writeFileSync(file, image);
  const script = `
    import { createWorker } from 'tesseract.js';
    import { readFileSync } from 'node:fs';
    const mb = () => Math.round(process.memoryUsage().rss / 1048576);
    const image = readFileSync(${JSON.stringify(file)});
    const start = mb();
    const options = { langPath: ${JSON.stringify(langPath())}, gzip: true, cacheMethod: 'none' };
    const one = await createWorker('kor', 1, options);
    await one.recognize(image);
    const afterOne = mb();
    const two = await createWorker('kor', 1, options);
    await two.recognize(image);
    console.log(JSON.stringify({ start, afterOne, afterTwo: mb() }));
    await one.terminate(); await two.terminate();`;
  try {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), encoding: 'utf8' });
    const { start, afterOne, afterTwo } = JSON.parse(out.trim().split('\n').pop() ?? '{}') as Record<string, number>;
    return `worker memory (fresh process RSS): ${start} MB bare, ${afterOne} MB with 1 worker, ${afterTwo} MB with 2: ~${Math.round(((afterTwo ?? 0) - (start ?? 0)) / 2)} MB per worker`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function langPath(): string {
  return join(dirname(createRequire(import.meta.url).resolve('@tesseract.js-data/kor/package.json')), '4.0.0_best_int');
}

/** Field accuracy of the parser on engine texts, against the generator's truth. */
function fieldScore(texts: string[], images: Array<{ expected: Record<string, unknown> }>): string {
  let right = 0;
  let total = 0;
  texts.forEach((text, i) => {
    const info = (parseDocument(text)?.info ?? {}) as unknown as Record<string, string>;
    for (const [field, want] of Object.entries(images[i]!.expected)) {
      if (!want) continue;
      total++;
      if (String(info[field] ?? '').replace(/[\s.,()-]/g, '') === String(want).replace(/[\s.,()-]/g, '')) right++;
    }
  });
  return `${((right / total) * 100).toFixed(1)}% of ${total} fields`;
}

/**
 * Debian's `tesseract` (5.3 with tesseract-ocr-kor) against tesseract.js on the same prepared
 * images, one at a time, single-threaded (OMP_THREAD_LIMIT=1, as the pool's workers are).
 * The binary is started per image, which is how a service would call it.
 */
async function compareBinary(images: Array<{ image: Buffer; expected: Record<string, unknown> }>): Promise<void> {
  try {
    execFileSync('tesseract', ['--list-langs'], { stdio: 'pipe' }).toString().includes('kor') ||
      (() => {
        throw new Error('no kor');
      })();
  } catch {
    console.log('tesseract binary with Korean data: absent (apt-get install tesseract-ocr tesseract-ocr-kor to compare)');
    return;
  }
  const prepared = await Promise.all(images.map(async (item) => (await prepareImage(item.image)).png));
  const dir = mkdtempSync(join(tmpdir(), 'aih-ocr-cli-'));
  try {
    const cliTexts: string[] = [];
    const cli = await load('tesseract binary 5.3 (kor, psm 6, oem 1)', 1, prepared.length, async (i) => {
      const file = join(dir, `${i}.png`);
      writeFileSync(file, prepared[i] as Buffer);
      cliTexts[i] = execFileSync('tesseract', [file, 'stdout', '-l', 'kor', '--psm', '6', '--oem', '1', '--dpi', '300'], {
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
        stdio: ['ignore', 'pipe', 'ignore'],
      }).toString();
      return true;
    });
    const worker = await createWorker('kor', OEM.LSTM_ONLY, { langPath: langPath(), gzip: true, cacheMethod: 'none' });
    await worker.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, user_defined_dpi: '300', debug_file: '/dev/null' });
    await worker.recognize(prepared[0] as Buffer);
    const jsTexts: string[] = [];
    const js = await load('tesseract.js 7 (kor best_int, psm 6)', 1, prepared.length, async (i) => {
      jsTexts[i] = (await worker.recognize(prepared[i] as Buffer)).data.text;
      return true;
    });
    await worker.terminate();
    print(cli);
    print(js);
    console.log(`  same prepared images, parser only: binary ${fieldScore(cliTexts, images)}, tesseract.js ${fieldScore(jsTexts, images)}`);
    console.log(`  ratio binary / tesseract.js p50: ${(cli.p50 / js.p50).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Four PDFs at once, each drawing one 12,000 × 12,000 image (issue 33): their answers, the
 * event loop's delay and the process's peak RSS meanwhile (before the limit: 1.7 GB, 15 s each).
 */
async function hostilePdfs(base: string, headers: Record<string, string>): Promise<void> {
  const body = JSON.stringify({ base64_image: pdfWithHugeImage(12_000).toString('base64') });
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const rssBefore = process.memoryUsage().rss;
  let peak = rssBefore;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  delay.enable();
  const started = performance.now();
  const statuses = await Promise.all(
    Array.from({ length: 4 }, async () => {
      const res = await fetch(`${base}/api/v1/ocr/idcard`, { method: 'POST', headers, body });
      await res.arrayBuffer();
      return res.status;
    }),
  );
  delay.disable();
  clearInterval(sampler);
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  console.log(
    `hostile PDFs (4 at once, one 12,000² image each): statuses ${statuses.join(',')} in ${Math.round(performance.now() - started)} ms;` +
      ` event-loop delay p99 ${Math.round(delay.percentile(99) / 1e6)} ms; peak RSS ${mb(peak)} MB (${mb(peak - rssBefore)} MB over the start)`,
  );
}

export async function run(): Promise<void> {
  const service = await startBenchService();
  const headers = { 'content-type': 'application/json', 'x-api-key': service.apiKey };
  const post = async (image: Buffer) => {
    const res = await fetch(`${service.base}/api/v1/ocr/idcard`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ base64_image: image.toString('base64') }),
    });
    await res.arrayBuffer();
    return res.status === 200;
  };

  // Warm-up: the pool starts its workers on first use.
  const [first] = await makeImageSet(SEED, 'clean', 1, ['resident']);
  await Promise.all([post(first!.image), post(first!.image)]);

  const sets = {
    clean: await makeImageSet(SEED, 'clean', PER_KIND),
    mild: await makeImageSet(SEED, 'mild', PER_KIND),
    hard: await makeImageSet(SEED, 'hard', PER_KIND),
    photo: await makePhotoSet(SEED + 10, PER_KIND),
  };
  console.log(`\n## ID / business registration reader (${service.runtime.databaseKind}, ${sets.clean.length} images per level)`);
  console.log(`warm workers: ${service.runtime.ocrStats().workers}; ${workerMemory(first!.image)}`);

  // Baseline first, while the machine is as loaded as for the service figures after it.
  const clean = sets.clean.map((image) => image.image);
  const bare = await createWorker('kor', OEM.LSTM_ONLY, { langPath: langPath(), gzip: true, cacheMethod: 'none' });
  await bare.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_BLOCK, debug_file: '/dev/null' });
  await bare.recognize(clean[0] as Buffer);
  const baseline = await load('bare tesseract.js, clean, 1 at a time', 1, clean.length, async (i) =>
    Boolean(await bare.recognize(clean[i % clean.length] as Buffer)),
  );
  await bare.terminate();

  const results: Figures[] = [];
  for (const concurrency of [1, 2]) {
    results.push(
      await load(`service, clean, ${concurrency} concurrent`, concurrency, clean.length, (i) => post(clean[i % clean.length] as Buffer)),
    );
  }
  for (const level of ['mild', 'hard', 'photo'] as const) {
    const images = sets[level].map((image) => image.image);
    results.push(await load(`service, ${level}, 1 at a time`, 1, images.length, (i) => post(images[i % images.length] as Buffer)));
  }
  const pdf = await pdfWithImage(sets.clean.find((image) => image.kind === 'business')!.image);
  results.push(await load('service, PDF certificate, 1 at a time', 1, 2, () => post(pdf)));

  await hostilePdfs(service.base, headers);

  // Where the time goes: preprocessing alone, in process.
  const prepare = await load('preprocessing only (sharp), clean', 1, clean.length, async (i) =>
    Boolean(await prepareImage(clean[i % clean.length] as Buffer)),
  );

  for (const figures of [...results, prepare, baseline]) print(figures);
  const single = results[0] as Figures;
  const photo = results.find((f) => f.label.includes('photo')) as Figures;
  console.log(`ratio service (clean, 1 at a time) / bare worker p50: ${(single.p50 / baseline.p50).toFixed(2)}`);
  console.log(
    `clean image warm, 1 at a time: p50 ${Math.round(single.p50)} ms (target ≤ 1000 ms); photo: p50 ${Math.round(photo.p50)} ms (target ≤ 2000 ms)`,
  );
  await service.close();
  await compareBinary([...sets.clean, ...sets.photo]);
}
