/**
 * `npm run eval:ocr-door`: the ID reader measured the way users meet it. The service is started
 * as `npm start` starts it (environment only, no LLM), and each outside specimen of
 * ../shared/data/ocr-samples goes through `POST /api/v1/ocr/idcard`; fields are scored as
 * `npm run eval:ocr` scores them (scripts/lib/ocr-samples.ts). The reader was tuned on these
 * seven images: the figure shows that the door gives what the in-process evaluation reports,
 * not an untouched accuracy. No text read is printed, only which fields missed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fieldRead, normalise, outsideSet } from './lib/ocr-samples.js';
import { startService } from './lib/service-process.js';

async function main(): Promise<void> {
  const items = outsideSet();
  if (items.length === 0) return;
  const dataDir = await mkdtemp(join(tmpdir(), 'aih-eval-ocr-'));
  const service = await startService({
    DATA_DIR: dataDir,
    URL_LIST_REFRESH: 'off',
    URL_RESCAN: 'off',
    WATCH_CRON: 'off',
    LOG_LEVEL: 'warn',
  });
  try {
    const { apiKey } = await service.signUp();
    let fields = 0;
    let right = 0;
    let types = 0;
    const misses: string[] = [];
    const times: number[] = [];
    for (const item of items) {
      const begun = performance.now();
      const answer = await service.post('/api/v1/ocr/idcard', { base64_image: item.image.toString('base64'), mask: false }, apiKey);
      times.push(performance.now() - begun);
      if (answer.status !== 200) throw new Error(`${item.label}: HTTP ${answer.status} ${answer.body?.error_code ?? ''}`);
      const info = answer.body.info as Record<string, string>;
      if (info.type === item.truth.type) types++;
      else misses.push(`${item.label} type`);
      for (const [field, want] of Object.entries(item.truth)) {
        if (field === 'type' || item.skip.includes(field)) continue;
        fields++;
        if (normalise(field, fieldRead(item, field, info)) === normalise(field, want)) right++;
        else misses.push(`${item.label} ${field}`);
      }
    }
    times.sort((a, b) => a - b);
    const pct = (n: number, d: number) => `${((n / d) * 100).toFixed(1)}% (${n}/${d})`;
    console.log(
      `outside specimens through POST /api/v1/ocr/idcard (tuned on): fields ${pct(right, fields)}, types ${pct(types, items.length)}`,
    );
    console.log(
      `  time per image: median ${Math.round(times[Math.floor(times.length / 2)]!)} ms, slowest ${Math.round(times.at(-1)!)} ms (one at a time)`,
    );
    if (misses.length > 0) console.log(`  missed: ${misses.join(', ')}`);
  } finally {
    await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
