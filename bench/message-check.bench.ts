import { loadMessageModel } from '../src/operations/url-scan/model/message-model-file.js';
import { percentile, postJson, startBenchService } from './lib.js';

/**
 * `npm run bench message-check`: `POST /api/v1/url/scan` with a 1,000-character message and no
 * link, no LLM (issue 50: p50 ≤ 20 ms, p99 ≤ 100 ms), one request at a time over real HTTP,
 * beside `GET /healthz` of the same server in the same run (the service's floor); then the
 * message model's load time and heap (≤ 1 s, ≤ 50 MB). Read the ratios on a busy machine.
 */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);

// Written for the bench: a long family-impersonation script, ordinary chat, a notice.
const MESSAGE = [
  '엄마 나야 폰 액정이 깨져서 수리 맡기고 임시폰으로 문자하는 중이야 통화는 안 되니까 문자로 답해줘.',
  '급하게 부탁할 게 있는데 온라인 문화상품권 10만원짜리 다섯 장만 대신 사서 사진 찍어 보내줄 수 있어?',
  '오늘 저녁에 폰 찾으면 바로 돈 보내줄게. 그리고 아빠한테는 아직 말하지 말아줘 걱정하실까 봐.',
  '회의는 내일 오전 10시로 옮겼습니다. 자료는 공유 폴더의 최신 버전으로 확인 부탁드립니다.',
  '주문하신 상품은 내일 오후 도착 예정이며, 부재 시 경비실에 맡겨 드리겠습니다. 감사합니다.',
]
  .join(' ')
  .repeat(4)
  .slice(0, 1000);

async function timed(rounds: number, call: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = process.hrtime.bigint();
    await call();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return samples;
}

const line = (label: string, samples: number[]) =>
  `${label.padEnd(46)} p50 ${percentile(samples, 50).toFixed(2)} ms  p99 ${percentile(samples, 99).toFixed(2)} ms`;

export async function run(): Promise<void> {
  console.log('\n## The message check: a 1,000-character message without a link, no LLM');
  const rssBefore = process.memoryUsage().rss;
  const loadStart = performance.now();
  const model = await loadMessageModel(undefined);
  const loadMs = performance.now() - loadStart;
  const rssMb = (process.memoryUsage().rss - rssBefore) / 1e6;
  console.log(
    `message model: loaded in ${loadMs.toFixed(0)} ms; weights ${(model.weightBytes().length / 1e6).toFixed(1)} MB; ` +
      `process RSS +${rssMb.toFixed(1)} MB (the load, with the tables and the module code)`,
  );
  const service = await startBenchService();
  try {
    await postJson(service.base, '/api/v1/subscriptions', { api: 'harmful-url-detection' }, { 'x-api-key': service.apiKey });
    const headers = { 'content-type': 'application/json', 'x-api-key': service.apiKey };
    const body = JSON.stringify({ text: MESSAGE });
    const scan = () => fetch(`${service.base}/api/v1/url/scan`, { method: 'POST', headers, body }).then((res) => res.json());
    const first = (await scan()) as { is_smishing: boolean; urls: unknown[] };
    if (first.urls.length !== 0) throw new Error('the bench message must have no link');
    await timed(50, scan);
    const health = await timed(ROUNDS, () => fetch(`${service.base}/healthz`).then((res) => res.text()));
    const scans = await timed(ROUNDS, scan);
    console.log(line('GET /healthz (floor, same server)', health));
    console.log(line(`POST /url/scan, ${MESSAGE.length} chars, no link`, scans));
    console.log(`ratio p50 scan/floor ${(percentile(scans, 50) / percentile(health, 50)).toFixed(1)}×`);
  } finally {
    await service.close();
  }
}
