import { readFileSync } from 'node:fs';
import { billionLaughsDocx, docxBomb, nestedHtml, pdfOfPages, pngPixelBomb } from '../test/helpers/hostile-files.js';
import { percentile, postJson, signUp, startBenchService } from './lib.js';

/**
 * Issue 46: while one tenant sends hostile files, 20 at once in waves (the 400 MB DOCX,
 * entity expansion, a 5,000-page PDF, a million nested HTML elements, a 20,000² PNG to the ID
 * reader), another tenant asks the chatbot one question after another. Printed: that tenant's
 * p50/p99 quiet and under attack (target p99 < 1 s), how the hostile files were answered
 * (413/422, or 503 with Retry-After past the document queue), their slowest answer (target
 * ≤ 30 s), and the service's RSS rise over its warm baseline (/proc/self/status; target ≤ 300 MB).
 */
const HOSTILE_AT_ONCE = 20;
const WAVES = 3;
const QUIET_CALLS = 40;

const kb = (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);

export async function run(): Promise<void> {
  const service = await startBenchService();
  try {
    const attacker = service.apiKey;
    const tenant = await signUp(service.base);
    const rag = (key: string, body: unknown) => timed('/api/v1/chatbot/rag', body, key);
    const timed = async (path: string, body: unknown, key: string) => {
      const started = performance.now();
      const res = await fetch(service.base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key },
        body: JSON.stringify(body),
      });
      await res.arrayBuffer();
      return { status: res.status, ms: performance.now() - started };
    };
    await postJson(
      service.base,
      '/api/v1/chatbot/rag',
      { action: 'index', content: '회의실 예약은 사내 포털의 예약 메뉴에서 합니다. 취소는 하루 전까지 가능합니다.' },
      { 'x-api-key': tenant },
    );
    const question = () => rag(tenant, { action: 'chat', message: '회의실 예약은 어디서 하나요?' });

    const file = (name: string, bytes: Buffer) => ({ action: 'index', file: { name, base64: bytes.toString('base64') } });
    const hostile: Array<[string, unknown]> = [
      ['/api/v1/chatbot/rag', file('bomb.docx', await docxBomb(400_000_000))],
      ['/api/v1/chatbot/rag', file('laughs.docx', billionLaughsDocx())],
      ['/api/v1/chatbot/rag', file('pages.pdf', pdfOfPages(5_000))],
      ['/api/v1/chatbot/rag', file('deep.html', nestedHtml(1_000_000))],
      ['/api/v1/ocr/idcard', { base64_image: pngPixelBomb(20_000).toString('base64') }],
    ];

    // Warm: one refused file of each kind, then the quiet figures and the baseline.
    for (const [path, body] of hostile) await timed(path, body, attacker);
    const quiet: number[] = [];
    for (let i = 0; i < QUIET_CALLS; i++) quiet.push((await question()).ms);
    const baseline = kb('VmRSS');
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, kb('VmRSS'))), 20);

    const statuses = new Map<number, number>();
    let slowestHostile = 0;
    let attacking = true;
    const attacked: number[] = [];
    const asking = (async () => {
      while (attacking) attacked.push((await question()).ms);
    })();
    for (let wave = 0; wave < WAVES; wave++) {
      const answers = await Promise.all(
        Array.from({ length: HOSTILE_AT_ONCE }, (_, i) =>
          timed(hostile[i % hostile.length]![0], hostile[i % hostile.length]![1], attacker),
        ),
      );
      for (const answer of answers) {
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        slowestHostile = Math.max(slowestHostile, answer.ms);
      }
    }
    attacking = false;
    await asking;
    clearInterval(sampler);

    const ms = (value: number) => `${Math.round(value)} ms`;
    const answered = [...statuses].map(([status, n]) => `${status}×${n}`).join(' ');
    console.log('\n## hostile files (issue 46)');
    console.log(
      `other tenant's chat, quiet:        p50 ${ms(percentile(quiet, 50))}, p99 ${ms(percentile(quiet, 99))} (${quiet.length} calls)`,
    );
    console.log(
      `other tenant's chat, under attack: p50 ${ms(percentile(attacked, 50))}, p99 ${ms(percentile(attacked, 99))} (${attacked.length} calls; target p99 < 1 s)`,
    );
    console.log(`hostile files (${WAVES} waves of ${HOSTILE_AT_ONCE}): ${answered}; slowest answer ${ms(slowestHostile)} (target ≤ 30 s)`);
    console.log(
      `service RSS: baseline ${Math.round(baseline / 1024)} MB, peak rise ${Math.round((peak - baseline) / 1024)} MB (sampled every 20 ms; target ≤ 300 MB), VmHWM ${Math.round(kb('VmHWM') / 1024)} MB`,
    );
  } finally {
    await service.close();
  }
}
