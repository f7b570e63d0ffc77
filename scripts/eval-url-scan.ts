/**
 * `npx tsx scripts/eval-url-scan.ts [--full] [--screenshots=N] [--qr=N] [--texts=N] [--kor-only]
 * [--lines=page,first,fallback] [--offset=N] [--verbose]`: the message
 * check (`POST /url/scan`) on the real URLs of ../shared/data/url-lists-kr (read in place): KISA's
 * reported smishing URLs and the Korean clean references, each written into an SMS-like text from
 * templates written for this script (not real messages), some defanged or mangled, drawn as phone
 * screenshots (light and dark themes, four Korean fonts, three sizes) and as QR code photos.
 *
 * It prints the share of URLs recovered from texts, screenshots (through the real OCR engine) and
 * QR photos, the detector's verdicts on what was recovered (recall on KISA, false positives on the
 * clean lists) and the message verdict (`is_smishing`). The detector runs as the service does
 * offline: team lists and rules, no downloaded feeds, no LLM. Nothing here was tuned on these
 * figures. A sample by default (one URL per registered domain first, deterministic order), small
 * enough for a shared machine; `--full` takes every distinct URL for texts and QR codes.
 *
 * Screenshots: `--lines` names the readers compared on the same pictures (`page`: the page
 * reading alone; `first`: line by line with PaddleOCR's text-line detector, read-lines.ts;
 * `fallback`: the page, then line by line when it finds no link). `--offset=N` draws the
 * screenshot URLs from position N of each list's fixed order (a set never looked at);
 * `--verbose` prints every screenshot miss.
 */
import { createMessageJudge } from '../src/operations/url-scan/message-judge.js';
import { loadMessageModel } from '../src/operations/url-scan/model/message-model-file.js';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { getDomain } from 'tldts';
import { createLogger } from '../src/logger.js';
import { assembleDetectionLists } from '../src/operations/url-detect/lists/detection-lists.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { extractUrls } from '../src/operations/url-scan/extract-urls.js';
import { createUrlScanOperation } from '../src/operations/url-scan/url-scan.js';
import { screenText } from '../src/operations/url-scan/screen-text.js';
import { createMessageImageDecoder } from '../src/providers/message-image.js';
import { createTesseractPool, type OcrEngine } from '../src/providers/ocr/tesseract-pool.js';
import { createTextLineDetector } from '../src/providers/ocr/text-lines.js';
import { readByLines } from '../src/providers/ocr/read-lines.js';
import { operationContext } from '../test/helpers/operation-context.js';
import { registerCanvasFonts } from '../test/helpers/korean-fonts.js';
import { seededRandom } from '../test/helpers/seeded-random.js';
import { sharedDataPath } from '../test/helpers/shared-data.js';

const { values: args } = parseArgs({
  options: {
    full: { type: 'boolean', default: false },
    texts: { type: 'string', default: '300' },
    screenshots: { type: 'string', default: '32' },
    qr: { type: 'string', default: '100' },
    /** Also read the screenshots with the ID reader's Korean-only engine (the comparison of the first evaluation). */
    'kor-only': { type: 'boolean', default: false },
    lines: { type: 'string', default: 'page' },
    offset: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const DIR = sharedDataPath('url-lists-kr/');
if (!existsSync(DIR)) {
  console.error(`${DIR} is missing: the evaluation reads ../shared/data/url-lists-kr in place.`);
  process.exit(1);
}

type Label = 'phishing' | 'clean';
interface Case {
  raw: string;
  expected: string;
  label: Label;
}

/** KISA rows: `날짜,홈페이지주소`, URLs as reported (no scheme, `Http://`, a trailing `외11건` note). */
function kisaUrls(file: string): string[] {
  return readFileSync(`${DIR}${file}`, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .slice(1)
    .map((line) =>
      line
        .slice(line.indexOf(',') + 1)
        .replace(/\s*외\s*\d*건?\s*$/, '')
        .trim(),
    )
    .filter((url) => url.length > 0);
}

const lines = (file: string) =>
  readFileSync(`${DIR}${file}`, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/** What a phone would open for a reported URL (a bare host is http). */
function expectedHref(raw: string): string | undefined {
  const withScheme = /^https?:\/\//i.test(raw) ? raw.replace(/^https?/i, (s) => s.toLowerCase()) : `http://${raw}`;
  return URL.canParse(withScheme) ? new URL(withScheme).href : undefined;
}

const sameUrl = (a: string, b: string) => a.replace(/\/$/, '') === b.replace(/\/$/, '');

/** Distinct URLs, one per registered domain first (campaigns repeat), in a fixed hash order. */
function spread(raws: string[], label: Label): Case[] {
  const byUrl = new Map<string, Case>();
  for (const raw of raws) {
    const expected = expectedHref(raw);
    if (expected && !byUrl.has(expected)) byUrl.set(expected, { raw, expected, label });
  }
  const hash = (text: string) => createHash('sha1').update(text).digest('hex');
  const ordered = [...byUrl.values()].sort((a, b) => hash(a.expected).localeCompare(hash(b.expected)));
  const seen = new Set<string>();
  const first: Case[] = [];
  const rest: Case[] = [];
  for (const item of ordered) {
    const domain = getDomain(new URL(item.expected).hostname) ?? item.expected;
    (seen.has(domain) ? rest : first).push(item);
    seen.add(domain);
  }
  return [...first, ...rest];
}

// ---- Messages: templates written for this evaluation (not real texts) ----

const SMISHING = [
  '[Web발신]\n[CJ대한통운] 고객님의 택배가 주소지 불일치로 반송 예정입니다. 주소확인 {url}',
  '[로젠택배] 운송장번호 5023-8812 배송지 확인이 필요합니다 {url}',
  '[우체국] 등기우편 2회 미배달, 반송 예정입니다. 확인: {url}',
  '[국민건강보험] 건강검진 결과 통보서가 발송되었습니다. 확인하기 {url}',
  '[서울중앙지검] 귀하의 사건조회 요청 건 출석요구서 열람 {url}',
  '[해외결제] 980,000원 결제승인 완료. 본인 아닐 시 즉시 신고 {url}',
  '[하이패스] 통행료 미납 안내. 미납 시 과태료 부과 {url}',
  '모바일 청첩장 보내드립니다♡ 꼭 와주세요 {url}',
  '엄마 나 폰 액정 깨져서 임시폰이야 이거 좀 눌러봐 {url}',
];
const BENIGN = [
  '이 글 한번 읽어봐 {url}',
  '[공지] 이번 주 자료는 여기 올렸습니다 {url}',
  '주말에 여기 가볼래? {url} 후기 좋더라',
  '회의 전에 참고하세요: {url}',
  '지난번 말한 사이트 {url} 입니다',
];

type Style = 'plain' | 'glued' | 'defanged' | 'spaced' | 'fullwidth' | 'slack' | 'markdown';
const STYLES: Style[] = ['plain', 'glued', 'defanged', 'spaced', 'fullwidth', 'slack', 'markdown'];

/** How the link is written: as sent, glued to the Hangul before it, defanged, with spaces around dots, full-width, in chat markup. */
function written(raw: string, style: Style): string {
  switch (style) {
    case 'plain':
      return ` ${raw} `;
    case 'glued':
      return ` 주소확인${raw} 클릭`;
    case 'defanged':
      return ` ${raw.replace(/^http/i, 'hxxp').replace(/\./g, '[.]')} `;
    case 'spaced':
      return ` ${raw.replace(/\./, ' . ')} `;
    case 'fullwidth':
      return ` ${[...raw].map((c) => (c >= '!' && c <= '~' ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('')} `;
    case 'slack':
      return ` <${expectedHref(raw)}|여기> `;
    case 'markdown':
      return ` [링크](${expectedHref(raw)}) `;
  }
}

function message(item: Case, index: number, style: Style): string {
  const templates = item.label === 'phishing' ? SMISHING : BENIGN;
  return templates[index % templates.length]!.replace(' {url}', written(item.raw, style)).replace('{url}', written(item.raw, style));
}

// ---- Pictures ----

/** Korean fonts from npm packages, by file (test/helpers/korean-fonts.ts): the same pictures on every machine. */
const FONTS = ['NanumGothic', 'Noto Sans KR', 'Gowun Dodum', 'Song Myung'];
registerCanvasFonts();
const SIZES = [34, 40, 46];
const THEMES = {
  light: { page: '#ffffff', bubble: '#e9e9eb', ink: '#111111', meta: '#8e8e93' },
  dark: { page: '#000000', bubble: '#262628', ink: '#f2f2f2', meta: '#8e8e93' },
} as const;

/** A phone's SMS screen (1080 wide): a header, the sender, one grey bubble, text wrapped at any character as phones wrap URLs. */
function screenshot(text: string, font: string, size: number, theme: keyof typeof THEMES): Buffer {
  const colours = THEMES[theme];
  const width = 1080;
  const probe = createCanvas(width, 100).getContext('2d');
  probe.font = `${size}px "${font}"`;
  const maxLine = 760;
  const wrapped: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const char of paragraph) {
      if (probe.measureText(line + char).width > maxLine) {
        // Break at the last space when there is one (words), else anywhere (a URL).
        const cut = line.lastIndexOf(' ');
        if (cut > 0 && line.length - cut < 12) {
          wrapped.push(line.slice(0, cut));
          line = line.slice(cut + 1);
        } else {
          wrapped.push(line);
          line = '';
        }
      }
      line += char;
    }
    wrapped.push(line);
  }
  const lineHeight = Math.round(size * 1.4);
  const height = 360 + wrapped.length * lineHeight + 200;
  const canvas = createCanvas(width, height);
  const g = canvas.getContext('2d');
  g.fillStyle = colours.page;
  g.fillRect(0, 0, width, height);
  g.fillStyle = colours.meta;
  g.font = `${Math.round(size * 0.8)}px "${font}"`;
  g.fillText('#1588-0000', 60, 120);
  g.fillText('문자 메시지 · 오늘 오후 2:14', 60, 250);
  g.fillStyle = colours.bubble;
  g.beginPath();
  g.roundRect(50, 290, maxLine + 80, wrapped.length * lineHeight + 60, 40);
  g.fill();
  g.fillStyle = colours.ink;
  g.font = `${size}px "${font}"`;
  wrapped.forEach((line, i) => g.fillText(line, 90, 330 + size + i * lineHeight));
  return canvas.toBuffer('image/png');
}

/** A QR code photographed: on a grey desk, slightly turned, JPEG-compressed. */
async function qrPhoto(url: string, rng: () => number): Promise<Buffer> {
  const size = 180 + Math.floor(rng() * 220);
  const code = await QRCode.toBuffer(url, { width: size, margin: 2 });
  const turned = await sharp(code)
    .rotate((rng() - 0.5) * 16, { background: '#ffffff' })
    .png()
    .toBuffer();
  const meta = await sharp(turned).metadata();
  return sharp({ create: { width: (meta.width ?? size) + 400, height: (meta.height ?? size) + 300, channels: 3, background: '#7d7a72' } })
    .composite([{ input: turned, left: 150 + Math.floor(rng() * 100), top: 100 + Math.floor(rng() * 100) }])
    .blur(0.6)
    .jpeg({ quality: 70 })
    .toBuffer();
}

// ---- Run ----

const share = (hit: number, total: number) => (total === 0 ? '—' : `${((100 * hit) / total).toFixed(1)}% (${hit}/${total})`);

const phishing = spread([...kisaUrls('kisa-phishing-2022-09-11.csv'), ...kisaUrls('kisa-phishing-2023-01-06.csv')], 'phishing');
const clean = spread([...lines('clean-kr-devblogs.txt'), ...lines('clean-kr-sites.txt')], 'clean');
console.log(`distinct URLs: KISA ${phishing.length}, clean ${clean.length}`);

const lists = await assembleDetectionLists([]);
const engine = createUrlEngine({ logger: createLogger('silent') });
engine.setLists(lists);
// The service's message engine, configured as src/runtime.ts `messageOcr` (one worker, Korean and English models).
const ocr = createTesseractPool({ size: 1, maxQueue: 4, timeoutMs: 60_000, languages: 'kor+eng' });
const images = createMessageImageDecoder();
let current: OcrEngine = ocr;
const judge = createMessageJudge({ model: await loadMessageModel(undefined) });
const operation = createUrlScanOperation({ checker: engine, judge, ocr: () => current, images });
const detector = createTextLineDetector();
async function readText(reader: Reader, png: Buffer): Promise<string> {
  const prepared = await images.ocrPng(png);
  const page = screenText(await current.recognize(prepared));
  if (reader === 'page' || (reader.startsWith('fallback') && extractUrls(page).urls.length > 0)) return page;
  return screenText(await readByLines(current, detector, prepared, undefined, undefined, reader.endsWith('+eng') ? latin() : undefined));
}
type Reader = 'page' | 'first' | 'fallback' | 'first+eng' | 'fallback+eng';
const READERS: Reader[] = ['page', 'first', 'fallback', 'first+eng', 'fallback+eng'];
const readers = args.lines.split(',').map((name) => {
  if (!READERS.includes(name as Reader)) throw new Error(`--lines: ${READERS.join(', ')}, not ${name}`);
  return name as Reader;
});
/** The Latin model alone, for `+eng` readers (a line that looks like a link is read again by it). */
let latinPool: OcrEngine | undefined;
const latin = () => (latinPool ??= createTesseractPool({ size: 1, maxQueue: 8, timeoutMs: 60_000, languages: 'eng' }));
/** The operation as the service would run it with each screenshot reader. */
const operationFor = (reader: Reader) =>
  reader === 'page'
    ? operation
    : createUrlScanOperation({
        checker: engine,
        judge,
        ocr: () => current,
        images,
        textLines: { detector, use: reader.startsWith('first') ? 'first' : 'fallback', latin: reader.endsWith('+eng') ? latin : undefined },
      });
const ctx = operationContext({ id: 1 }, createLogger('silent'), 1_000_000);

async function scan(input: { text?: string; base64_image?: string }) {
  return operation.run(ctx, operation.schema.parse(input));
}

// 1. Texts: every case in one style (round robin over styles), through the whole operation.
const textCount = {
  phishing: args.full ? phishing.length : Number(args.texts),
  clean: args.full ? clean.length : Math.round(Number(args.texts) * 0.67),
};
const textCases = [...phishing.slice(0, textCount.phishing), ...clean.slice(0, textCount.clean)];
const byStyle = new Map<string, { hit: number; total: number }>();
const verdicts = {
  phishing: { urls: 0, malicious: 0, messages: 0, smishing: 0 },
  clean: { urls: 0, malicious: 0, messages: 0, smishing: 0 },
};
const recovered = { phishing: { hit: 0, total: 0 }, clean: { hit: 0, total: 0 } };
for (const [index, item] of textCases.entries()) {
  const style = STYLES[index % STYLES.length]!;
  const result = await scan({ text: message(item, index, style) });
  const found = result.urls.find((entry) => sameUrl(entry.url, item.expected));
  const bucket = byStyle.get(style) ?? { hit: 0, total: 0 };
  bucket.total++;
  recovered[item.label].total++;
  if (found) {
    bucket.hit++;
    recovered[item.label].hit++;
    verdicts[item.label].urls++;
    if (found.is_malicious) verdicts[item.label].malicious++;
  }
  byStyle.set(style, bucket);
  verdicts[item.label].messages++;
  if (result.is_smishing) verdicts[item.label].smishing++;
}

// 2. Screenshots through the OCR engine (slow: a small sample, half KISA, half clean), drawn once, read by each engine.
// URLs the text sample did not use (when there are enough), so each part adds new addresses.
const unused = <T>(items: T[], used: number, n: number) => items.slice(Math.min(used, Math.max(0, items.length - n))).slice(0, n);
const shotCount = Number(args.screenshots);
const offset = args.offset === undefined ? undefined : Number(args.offset);
const shotCases =
  offset === undefined
    ? [...unused(phishing, textCount.phishing, Math.ceil(shotCount / 2)), ...unused(clean, textCount.clean, Math.floor(shotCount / 2))]
    : [...phishing.slice(offset, offset + Math.ceil(shotCount / 2)), ...clean.slice(offset, offset + Math.floor(shotCount / 2))];
if (offset !== undefined && shotCases.length < shotCount) throw new Error(`--offset=${offset}: the lists have too few URLs past it`);
const drawn = shotCases.map((item, index) => {
  const font = FONTS[index % FONTS.length]!;
  const size = SIZES[Math.floor(index / FONTS.length) % SIZES.length]!;
  const theme: keyof typeof THEMES = index % 2 === 0 ? 'light' : 'dark';
  const png = screenshot(message(item, index, index % 3 === 0 ? 'glued' : 'plain').trim(), font, size, theme);
  return { item, png, keys: [`list ${item.label === 'phishing' ? 'KISA' : 'clean'}`, `font ${font}`, `size ${size}px`, `theme ${theme}`] };
});
const engines: Array<[string, OcrEngine, Reader]> = readers.map((reader) => [
  `the service engine (kor+eng, as runtime messageOcr), reader ${reader}`,
  ocr,
  reader,
]);
if (args['kor-only'] && drawn.length > 0)
  engines.push(["the ID reader's engine (kor only)", createTesseractPool({ size: 1, maxQueue: 4, timeoutMs: 60_000 }), 'page']);
const shotResults: Array<{
  name: string;
  hit: number;
  total: number;
  by: Map<string, { hit: number; total: number }>;
  misses: string[];
  /** Screenshots where a URL other than the message's link was found (an OCR misreading taken for a link). */
  extra: { phishing: number; clean: number; examples: string[] };
  ms: number[];
}> = [];
for (const [name, engine, reader] of engines) {
  current = engine;
  const run = operationFor(reader);
  const result = {
    name,
    hit: 0,
    total: 0,
    by: new Map<string, { hit: number; total: number }>(),
    misses: [] as string[],
    extra: { phishing: 0, clean: 0, examples: [] as string[] },
    ms: [] as number[],
  };
  for (const { item, png, keys } of drawn) {
    const begun = performance.now();
    const scanned = await run.run(ctx, run.schema.parse({ base64_image: png.toString('base64') }));
    result.ms.push(performance.now() - begun);
    const hit = scanned.urls.some((entry) => sameUrl(entry.url, item.expected));
    const others = scanned.urls.filter((entry) => !sameUrl(entry.url, item.expected));
    if (others.length > 0) {
      result.extra[item.label]++;
      if (args.verbose) result.extra.examples.push(`${item.expected} + ${others.map((entry) => entry.url).join(' ')}`);
    }
    result.total++;
    if (hit) result.hit++;
    else {
      result.misses.push(`${item.expected} → ${scanned.urls.map((entry) => entry.url).join(' ') || '(none)'}`);
      // What the reader read (synthetic pictures only; the service never logs recognised text).
      if (args.verbose) result.misses.push(`    read: ${JSON.stringify(await readText(reader, png))}`);
    }
    for (const key of keys) {
      const bucket = result.by.get(key) ?? { hit: 0, total: 0 };
      bucket.total++;
      if (hit) bucket.hit++;
      result.by.set(key, bucket);
    }
  }
  shotResults.push(result);
}
for (const engine of new Set(engines.map(([, engine]) => engine))) await engine.close();
await latinPool?.close();
await detector.close();

// 3. QR code photos.
const rng = seededRandom(20261127);
const qrCount = Number(args.qr);
const qrCases = args.full
  ? [...phishing, ...clean]
  : [
      ...unused(phishing, textCount.phishing + shotCount, Math.ceil(qrCount / 2)),
      ...unused(clean, textCount.clean + shotCount, Math.floor(qrCount / 2)),
    ];
const qr = { hit: 0, total: 0 };
for (const item of qrCases) {
  const photo = await qrPhoto(item.expected, rng);
  const text = await images.qrText(photo);
  qr.total++;
  if (text !== undefined && extractUrls(text).urls.some((url) => sameUrl(url, item.expected))) qr.hit++;
}

console.log('\n## Recovery of the URL');
console.log(`texts, KISA URLs:        ${share(recovered.phishing.hit, recovered.phishing.total)}`);
console.log(`texts, clean URLs:       ${share(recovered.clean.hit, recovered.clean.total)}`);
for (const [style, bucket] of byStyle) console.log(`  ${style.padEnd(10)} ${share(bucket.hit, bucket.total)}`);
for (const result of shotResults.filter((shots) => shots.total > 0)) {
  console.log(`screenshots, ${result.name}: ${share(result.hit, result.total)}`);
  for (const [key, bucket] of [...result.by].sort()) console.log(`  ${key.padEnd(26)} ${share(bucket.hit, bucket.total)}`);
  const sorted = [...result.ms].sort((a, b) => a - b);
  const at = (q: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  console.log(`  time per screenshot (ms)   p50 ${at(0.5)}, p90 ${at(0.9)}, max ${at(1)}`);
  console.log(`  screenshots with another URL found: KISA ${result.extra.phishing}, clean ${result.extra.clean}`);
}
console.log(`QR code photos:          ${share(qr.hit, qr.total)}`);
console.log('\n## Verdicts (texts; detector offline: team lists and rules, no feeds, no LLM)');
console.log(`URL recall on KISA:           ${share(verdicts.phishing.malicious, verdicts.phishing.urls)}`);
console.log(`URL false positives, clean:   ${share(verdicts.clean.malicious, verdicts.clean.urls)}`);
console.log(`is_smishing, smishing texts:  ${share(verdicts.phishing.smishing, verdicts.phishing.messages)}`);
console.log(`is_smishing, ordinary texts:  ${share(verdicts.clean.smishing, verdicts.clean.messages)}`);
for (const result of shotResults) {
  if (args.verbose && result.misses.length > 0) console.log(`\nscreenshot misses, ${result.name}:\n  ${result.misses.join('\n  ')}`);
  if (args.verbose && result.extra.examples.length > 0)
    console.log(`\nother URLs found, ${result.name}:\n  ${result.extra.examples.join('\n  ')}`);
}
