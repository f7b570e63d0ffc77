/**
 * The Korean part of `npm run eval:urls` (issue 50 item 7): KISA's smishing reports judged
 * forward in time, through the service's door. For each fold the service is started as a user
 * starts it (scripts/lib/service-process.ts: `npm run lists:update`, then `npm start`, environment
 * only), its `URL_LIST_FEEDS` pointing at a local HTTP server that serves the shared lists in
 * place: KISA's reports of the training months only (as one CSV feed, `kisa-phishing`), the
 * latest global lists, and the top-sites list's train part as the clean feed. Then each judged
 * URL is one `POST /api/v1/url/detect` with a registered account's API key.
 *   fold 1: trained on 2022-09..11, judged on 2023-01..03 (the tuning fold: its misses may be read)
 *   fold 2: trained through 2023-03, judged on 2023-04..06 (reported apart; misses never printed)
 * Items, one URL a registered domain (a campaign), judged months only:
 *   new campaigns — domains never in the training months' reports, on no other loaded list
 *                   (a global list naming one, `source: list`, is left out and counted);
 *   siblings      — another host of a domain the training months reported;
 *   short links   — on a shipped or learned shortener, apart (judged alone: no expansion here),
 *                   and "condemned whole" = an unreported link of that shortener flagged;
 *   clean         — clean-kr-devblogs.txt, clean-kr-sites.txt, and the `.kr` hosts of the
 *                   top-sites list's parts the clean feed does not hold.
 * `--fast` judges in-process (buildDetectionLists + classifyRules) for quick tuning; the figures
 * reported come from the door. `--folds=1` runs fold 1 only; `--verbose` prints fold 1's misses.
 * `--qr` sends each URL as a QR code picture (drawn here: real URLs, generated pictures) to
 * `POST /api/v1/url/scan` and counts the message verdict users read there (`is_smishing`).
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import QRCode from 'qrcode';
import { getDomain } from 'tldts';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { entryExpression, expressionHost } from '../src/operations/url-detect/lists/expressions.js';
import { learnShorteners, learnedShortenerOf, ShortCodeCounter } from '../src/operations/url-detect/expansion/learned-shorteners.js';
import { splitCsvLine, withoutCountNote } from '../src/operations/url-detect/lists/feed-csv.js';
import { judgeInProcess, type FeedOnServer, type Judge, type Verdict } from './url-eval-judges.js';
import { startService, runNpmScript } from '../scripts/lib/service-process.js';
import { CLEAN, LATEST, partOf, readReal, REAL_LISTS_DIR } from './data/url-real.js';
import { sharedDataPath } from './helpers/shared-data.js';

const KR = sharedDataPath('url-lists-kr/');
const FILES = { 2022: 'kisa-phishing-2022-09-11.csv', 2023: 'kisa-phishing-2023-01-06.csv' } as const;

interface Fold {
  name: string;
  /** Last month (YYYY-MM) of the reports loaded as the feed. */
  trainUntil: string;
  judged: [string, string];
}
export const FOLDS: readonly Fold[] = [
  { name: 'fold 1 (tuning)', trainUntil: '2022-12', judged: ['2023-01', '2023-03'] },
  { name: 'fold 2 (last, never tuned on)', trainUntil: '2023-03', judged: ['2023-04', '2023-06'] },
];

interface Report {
  month: string;
  /** The CSV line as published (served to the service as is). */
  line: string;
  url: string;
  host: string;
  domain: string;
}

/** A KISA file's rows with their month (`09월 01일` is 2022's), the note `외N건` dropped. */
function reports(file: string, year: number): Report[] {
  return readFileSync(`${KR}${file}`, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .slice(1)
    .flatMap((line) => {
      const [date = '', cell = ''] = splitCsvLine(line);
      const korean = /^(\d{2})월/.exec(date);
      const month = korean ? `${year}-${korean[1]}` : date.slice(0, 7);
      const text = withoutCountNote(cell.trim()).replace(/^(https?);\/\//i, '$1://');
      if (!text) return [];
      try {
        const url = canonicalizeUrl(/^https?:\/\//i.test(text) ? text : `http://${text}`);
        return [{ month, line, url: url.href, host: url.host, domain: getDomain(url.host) ?? url.host }];
      } catch {
        return [];
      }
    });
}

function cleanUrls(file: string): string[] {
  return readFileSync(`${KR}${file}`, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^https?:\/\//.test(line));
}

/** The bodies the local feed server serves for a fold (nothing is written to disk). */
function feedBodies(training: readonly Report[]): Map<string, Buffer> {
  const bodies = new Map<string, Buffer>();
  bodies.set('/kisa.csv', Buffer.from(`\uFEFF날짜,홈페이지주소\n${training.map((r) => r.line).join('\n')}\n`));
  const clean = readReal(CLEAN).entries.filter((e) => partOf(e) === 'train');
  bodies.set('/top-sites.txt', Buffer.from(clean.map(expressionHost).join('\n')));
  for (const spec of LATEST) bodies.set(`/${spec.file}`, readFileSync(new URL(spec.file, REAL_LISTS_DIR)));
  return bodies;
}

async function serve(bodies: Map<string, Buffer>): Promise<{ server: Server; base: string }> {
  const server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    res.writeHead(body ? 200 : 404).end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** The fold's feeds: KISA's training months (a Korean feed by its name), the global lists, the clean part. */
function feedSpecs(): FeedOnServer[] {
  return [
    { name: 'kisa-phishing', category: 'phishing', format: 'csv', path: '/kisa.csv' },
    ...LATEST.map((spec) => ({
      name: spec.file.replace(/\.txt(\.gz)?$/, ''),
      category: spec.category,
      format: spec.format,
      path: `/${spec.file}`,
    })),
    { name: 'top-sites', category: 'clean', format: 'domains', path: '/top-sites.txt' },
  ];
}

const feedsSetting = (base: string) =>
  feedSpecs()
    .map((feed) => `${feed.name}=${feed.category}:${feed.format}:${base}${feed.path}`)
    .join(',');

interface Items {
  fresh: string[];
  siblings: string[];
  shorts: string[];
  unreported: string[];
  clean: string[];
}

function itemsOf(training: readonly Report[], judged: readonly Report[]): Items {
  const trainDomains = new Set(training.map((r) => r.domain));
  const trainHosts = new Set(training.map((r) => r.host));
  const counter = new ShortCodeCounter();
  for (const r of training) {
    const expression = entryExpression(r.url);
    if (expression) counter.add(r.host, expression);
  }
  const learned = learnShorteners([counter.finish()], new Date());
  const fresh = new Map<string, string>();
  const siblings = new Map<string, string>();
  const shorts = new Map<string, string>();
  for (const r of judged) {
    const shortener = learnedShortenerOf(r.host, learned);
    if (shortener) {
      if (!shorts.has(shortener) && canonicalizeUrl(r.url).path.length > 1) shorts.set(shortener, r.url);
    } else if (!trainDomains.has(r.domain)) {
      if (!fresh.has(r.domain)) fresh.set(r.domain, r.url);
    } else if (!trainHosts.has(r.host) && !siblings.has(r.domain)) siblings.set(r.domain, r.url);
  }
  const topKr = readReal(CLEAN)
    .entries.filter((e) => partOf(e) !== 'train' && /\.kr\/$/.test(e))
    .map((e) => `https://${expressionHost(e)}/`);
  return {
    fresh: [...fresh.values()],
    siblings: [...siblings.values()],
    shorts: [...shorts.values()],
    unreported: [...shorts.keys()].map((host) => `https://${host}/zq9Xw7unreported`),
    clean: [...new Set([...cleanUrls('clean-kr-devblogs.txt'), ...cleanUrls('clean-kr-sites.txt'), ...topKr])],
  };
}

/** Judges in batches of `parallel` (the door answers each in a few ms). */
async function judgeAll(urls: readonly string[], judge: Judge, parallel = 8): Promise<Map<string, Verdict>> {
  const out = new Map<string, Verdict>();
  for (let at = 0; at < urls.length; at += parallel) {
    const batch = urls.slice(at, at + parallel);
    const verdicts = await Promise.all(batch.map((url) => judge(url)));
    batch.forEach((url, i) => out.set(url, verdicts[i]!));
  }
  return out;
}

const pct = (hit: number, n: number) => (n === 0 ? '—' : `${((hit / n) * 100).toFixed(1)} % (${hit}/${n})`);

interface FoldOptions {
  fast: boolean;
  verbose: boolean;
  qr: boolean;
}

async function runFold(fold: Fold, all: readonly Report[], options: FoldOptions): Promise<void> {
  const started = performance.now();
  const training = all.filter((r) => r.month <= fold.trainUntil);
  const judged = all.filter((r) => r.month >= fold.judged[0] && r.month <= fold.judged[1]);
  const items = itemsOf(training, judged);
  const bodies = feedBodies(training);
  const { server, base } = await serve(bodies);
  const dir = mkdtempSync(join(tmpdir(), 'aih-eval-urls-'));
  let stop = async () => {};
  try {
    let judge: Judge;
    let models = '';
    if (options.fast) {
      judge = await judgeInProcess(bodies, feedSpecs());
    } else {
      const env = {
        DATA_DIR: join(dir, 'data'),
        URL_LIST_FEEDS: feedsSetting(base),
        URL_LIST_REFRESH: 'off',
        URL_EXPAND: 'off',
        LOG_LEVEL: 'warn',
      };
      const update = await runNpmScript('lists:update', env);
      const service = await startService(env);
      stop = () => service.stop();
      const { apiKey } = await service.signUp({ subscribe: ['harmful-url-detection'] });
      models = JSON.stringify((await service.get('/healthz/ready')).body.models);
      console.log(`(lists:update: ${update.trim().split('\n').join('; ')})`);
      const detect = async (url: string) => {
        const { status, body } = await service.post('/api/v1/url/detect', { url }, apiKey);
        if (status !== 200) throw new Error(`${url}: HTTP ${status} ${JSON.stringify(body)}`);
        return { malicious: body.is_malicious === true, source: String(body.source) };
      };
      // The detector's `source` still decides which new campaigns a global list names (left out).
      judge = options.qr ? async (url) => ({ ...(await detect(url)), malicious: await scanQr(service, apiKey, url) }) : detect;
    }
    const verdicts = await judgeAll([...items.fresh, ...items.siblings, ...items.shorts, ...items.unreported, ...items.clean], judge);
    const fresh = items.fresh.filter((url) => verdicts.get(url)?.source !== 'list');
    const hits = (urls: readonly string[]) => urls.filter((url) => verdicts.get(url)?.malicious).length;
    console.log(`\n## Korean smishing forward, ${fold.name}: feeds through ${fold.trainUntil}, judged ${fold.judged.join('..')}`);
    console.log(
      `(${options.fast ? 'in-process, fast mode' : options.qr ? 'through the door: npm start, a QR code of each URL to POST /api/v1/url/scan, is_smishing' : 'through the door: npm start, POST /api/v1/url/detect'}; ${training.length} reports loaded)`,
    );
    if (models) console.log(`(models: ${models})`);
    console.log('| item | caught / flagged |');
    console.log('|---|---|');
    console.log(
      `| new campaigns (${fresh.length}; ${items.fresh.length - fresh.length} more named by a global list, left out) | ${pct(hits(fresh), fresh.length)} |`,
    );
    console.log(`| siblings (${items.siblings.length}) | ${pct(hits(items.siblings), items.siblings.length)} |`);
    console.log(`| short links, link alone (${items.shorts.length}) | ${pct(hits(items.shorts), items.shorts.length)} |`);
    console.log(`| shorteners condemned whole (${items.unreported.length}) | ${pct(hits(items.unreported), items.unreported.length)} |`);
    console.log(`| Korean clean pages flagged (${items.clean.length}) | ${pct(hits(items.clean), items.clean.length)} |`);
    if (options.verbose && fold === FOLDS[0]) {
      console.log('  missed new campaigns:', fresh.filter((url) => !verdicts.get(url)?.malicious).join('  '));
      console.log('  Korean clean flagged:', items.clean.filter((url) => verdicts.get(url)?.malicious).join('  '));
    }
  } finally {
    await stop();
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`(${fold.name}: ${((performance.now() - started) / 1000).toFixed(0)} s)`);
}

/** The message check's verdict on a picture of the URL's QR code. */
async function scanQr(service: Awaited<ReturnType<typeof startService>>, apiKey: string, url: string): Promise<boolean> {
  const picture = await QRCode.toBuffer(url, { width: 300, margin: 2 });
  const { status, body } = await service.post('/api/v1/url/scan', { base64_image: picture.toString('base64') }, apiKey);
  if (status !== 200) throw new Error(`${url} as a QR code: HTTP ${status} ${JSON.stringify(body)}`);
  return body.is_smishing === true;
}

export async function evalKoreanForward(argv: readonly string[]): Promise<void> {
  try {
    readFileSync(`${KR}${FILES[2023]}`);
  } catch {
    console.log('\n(../shared/data/url-lists-kr absent: no Korean part)');
    return;
  }
  const all = [...reports(FILES[2022], 2022), ...reports(FILES[2023], 2023)];
  const count = Number(argv.find((a) => a.startsWith('--folds='))?.slice(8) ?? FOLDS.length);
  for (const fold of FOLDS.slice(0, count))
    await runFold(fold, all, { fast: argv.includes('--fast'), verbose: argv.includes('--verbose'), qr: argv.includes('--qr') });
}
