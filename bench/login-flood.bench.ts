import { makeImageSet } from '../test/helpers/id-images.js';
import { percentile, startBenchService } from './lib.js';

/**
 * Issue 33 item 8: does a flood of wrong log-ins slow a paying call? One OCR call at a time
 * (POST /api/v1/ocr/idcard, a synthetic resident card, seed 3), quiet and then while 32
 * connections send wrong log-ins for unknown e-mails without pause (each costs a real scrypt
 * hash: unknown e-mails are hashed like known ones). Run for the old lane's settings (2 hashes at
 * once, 64 waiting) and the new one (1 at once, 8 waiting, 429 beyond); the figure is the
 * ratio of the flooded p50 to the quiet p50 of the same run (target ≤ 2).
 */
const OCR_CALLS = 6;
const FLOOD_CONNECTIONS = 32;

async function measure(label: string, env: Record<string, string>, passwords?: { maxWaiting: number }): Promise<void> {
  const service = await startBenchService(env, passwords ? { passwords } : {});
  try {
    const headers = { 'content-type': 'application/json', 'x-api-key': service.apiKey };
    const [card] = await makeImageSet(3, 'clean', 1, ['resident']);
    const body = JSON.stringify({ base64_image: card!.image.toString('base64') });
    let ocrFailures = 0;
    const ocr = async () => {
      const started = performance.now();
      const res = await fetch(`${service.base}/api/v1/ocr/idcard`, { method: 'POST', headers, body });
      await res.arrayBuffer();
      if (res.status !== 200) ocrFailures++; // a 504 on a saturated machine still counts its time
      return performance.now() - started;
    };
    const series = async () => {
      const times: number[] = [];
      for (let i = 0; i < OCR_CALLS; i++) times.push(await ocr());
      return percentile(times, 50);
    };
    await ocr(); // warm the workers
    const quiet = await series();

    let flooding = true;
    const statuses = new Map<number, number>();
    let serial = 0;
    const flood = Array.from({ length: FLOOD_CONNECTIONS }, async () => {
      while (flooding) {
        const res = await fetch(`${service.base}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `nobody-${++serial}@example.com`, password: 'wrong password' }),
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    });
    const flooded = await series();
    flooding = false;
    await Promise.all(flood);
    const answers = [...statuses].map(([status, n]) => `${status}×${n}`).join(' ');
    console.log(
      `${label.padEnd(44)} OCR p50 quiet ${Math.round(quiet)} ms, flooded ${Math.round(flooded)} ms: ×${(flooded / quiet).toFixed(2)}  (log-ins ${answers}${ocrFailures ? `; OCR failures ${ocrFailures}` : ''})`,
    );
  } finally {
    await service.close();
  }
}

export async function run(): Promise<void> {
  console.log(`\n## Log-in flood beside OCR (${FLOOD_CONNECTIONS} connections of wrong log-ins; measured on a possibly busy machine)`);
  await measure('old lane: 2 hashes at once, 64 waiting', { PASSWORD_HASH_CONCURRENCY: '2' }, { maxWaiting: 64 });
  await measure('new lane: 1 hash at once, 8 waiting, 429', {});
}
