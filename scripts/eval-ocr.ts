import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '../src/logger.js';
import { createOcrIdcardOperation } from '../src/operations/ocr-idcard/ocr-idcard.js';
import { createTesseractCli } from '../src/providers/ocr/tesseract-cli.js';
import { createTesseractPool } from '../src/providers/ocr/tesseract-pool.js';
import { createTextLineDetector } from '../src/providers/ocr/text-lines.js';
import { makeIndependentSet, type IndependentLevel, type IndependentPart } from '../test/helpers/id-independent.js';
import { makeImageSet, type Level } from '../test/helpers/id-images.js';
import { makePhotoSet } from '../test/helpers/id-photos.js';
import { sharedDataPath } from '../test/helpers/shared-data.js';
import { fieldRead, normalise, outsideSet, type Item } from './lib/ocr-samples.js';

/**
 * `npm run eval:ocr`: field and type accuracy of the ID reader, per set, through the real
 * operation (decoding, preparation, the warm Tesseract pool, parsing).
 *
 * - clean+mild / hard: the synthetic generator (test/helpers/id-documents.ts) at three levels;
 * - photo: phone-style photos of it (test/helpers/id-photos.ts);
 * - outside: the seven specimen images in ../shared/data/ocr-samples, read in place (the reader
 *   was tuned on them: they are not a never-tuned measure);
 * - independent: the second generator (test/helpers/id-independent.ts, other fonts, layouts and
 *   degradations, no code shared with the first) at clean+mild, hard and photo; its `measure`
 *   part (`--independent-part measure`, the default) is never tuned on, its `tune` part may be.
 *
 * Synthetic sets come from a tuning seed and set-aside seeds that nobody looks at while
 * tuning: `--part aside` (reported since the second round), `--part fresh` (first run at the
 * end of the fourth round, after its tuning; the fifth round tuned photos on both) and
 * `--part final` (drawn for the fifth round and first run at its end). A field is right when it
 * equals the truth after removing whitespace and punctuation; numbers compare by digits, dates by year, month and day.
 * `--detect` turns on document detection and perspective correction, to measure it;
 * `--show <label part>` prints the text read from matching images; `--engine cli` (with
 * `--psm`, `--oem`) reads with the Debian `tesseract` binary instead of tesseract.js;
 * `--lines none` reads without PaddleOCR's text-line detector (the service looks for fields
 * left missing or unsure line by line: `--lines-use fallback`, the default; `first` reads every
 * page line by line; `--lines-side` is the detector's input size).
 * Each set's line also gives the median and 90th-percentile time per image (two at a time).
 */

const SEEDS = {
  tune: { cards: 1, photo: 11 },
  aside: { cards: 5, photo: 12 },
  fresh: { cards: 7, photo: 13 },
  final: { cards: 17, photo: 19 },
} as const;
type Part = keyof typeof SEEDS;

const { values: args } = parseArgs({
  options: {
    sets: { type: 'string', default: 'clean+mild,hard,photo,outside,independent' },
    'independent-part': { type: 'string', default: 'measure' },
    'independent-per': { type: 'string', default: '8' },
    /** Only independent documents whose level is in this list (clean, mild, hard, photo). */
    levels: { type: 'string', default: 'clean,mild,hard,photo' },
    part: { type: 'string', default: 'tune,aside' },
    per: { type: 'string', default: '6' },
    verbose: { type: 'boolean', default: false },
    show: { type: 'string' },
    /** Write each item's label, truth and text read to this JSON file (for replaying the parser while tuning). */
    dump: { type: 'string' },
    detect: { type: 'boolean', default: false },
    engine: { type: 'string', default: 'js' },
    psm: { type: 'string', default: '6' },
    /** `paddle` (as the service): PaddleOCR's text-line detector in front of Tesseract; `none`: the page reading alone. */
    lines: { type: 'string', default: 'paddle' },
    /** `fallback` (as the service: only for fields left missing or unsure) or `first` (the first reading is line by line). */
    'lines-use': { type: 'string', default: 'fallback' },
    /** The detector's input long side (PaddleOCR's default 960). */
    'lines-side': { type: 'string', default: '960' },
    oem: { type: 'string', default: '1' },
  },
});
const PER_KIND = Number(args.per);

/** Generated images are cached under the system temp directory, keyed by the generator's source. */
function cacheDir(files = ['id-documents.ts', 'id-images.ts', 'id-photos.ts']): string {
  const sources = files.map((f) => readFileSync(new URL(`../test/helpers/${f}`, import.meta.url)));
  const key = createHash('sha256').update(Buffer.concat(sources)).digest('hex').slice(0, 12);
  const dir = join(tmpdir(), `aih-ocr-eval-${key}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function cached(
  name: string,
  make: () => Promise<Array<{ image: Buffer; expected: object; kind: string }>>,
): Promise<Array<{ image: Buffer; expected: Record<string, string>; kind: string }>> {
  const file = join(cacheDir(), `${name}.json`);
  if (existsSync(file)) {
    const rows = JSON.parse(readFileSync(file, 'utf8')) as Array<{ image: string; expected: Record<string, string>; kind: string }>;
    return rows.map((row) => ({ ...row, image: Buffer.from(row.image, 'base64') }));
  }
  const items = await make();
  writeFileSync(
    file,
    JSON.stringify(items.map((item) => ({ kind: item.kind, expected: item.expected, image: item.image.toString('base64') }))),
  );
  return items as Array<{ image: Buffer; expected: Record<string, string>; kind: string }>;
}

async function syntheticSet(set: string, part: Part): Promise<Item[]> {
  const seeds = SEEDS[part];
  const levels: Level[] | ['photo'] = set === 'clean+mild' ? ['clean', 'mild'] : set === 'hard' ? ['hard'] : ['photo'];
  const items: Item[] = [];
  for (const level of levels) {
    const rows =
      level === 'photo'
        ? await cached(`photo-${seeds.photo}-${PER_KIND}`, () => makePhotoSet(seeds.photo, PER_KIND))
        : await cached(`${level}-${seeds.cards}-${PER_KIND}`, () => makeImageSet(seeds.cards, level, PER_KIND));
    rows.forEach((row, i) => {
      const { representative, biz_type, biz_item, ...card } = row.expected;
      const truth = row.kind === 'business' ? row.expected : card;
      (void representative, biz_type, biz_item);
      items.push({ set, label: `${part} ${level} ${row.kind} #${i}`, image: row.image, truth, skip: [] });
    });
  }
  return items;
}

/** The second generator's documents: clean and mild together, hard, photo (as the first set's). */
async function independentSets(part: IndependentPart): Promise<Array<[string, Item[]]>> {
  const per = Number(args['independent-per']);
  const wanted = new Set(args.levels.split(','));
  const groups: Array<[string, IndependentLevel[]]> = [
    ['clean+mild', ['clean', 'mild']],
    ['hard', ['hard']],
    ['photo', ['photo']],
  ];
  const dir = cacheDir(['id-independent.ts']);
  const out: Array<[string, Item[]]> = [];
  for (const [name, levels] of groups) {
    const items: Item[] = [];
    for (const level of levels.filter((l) => wanted.has(l))) {
      const file = join(dir, `independent-${part}-${level}-${per}.json`);
      let rows: Array<{ kind: string; variant: string; truth: Record<string, string>; image: string }>;
      if (existsSync(file)) rows = JSON.parse(readFileSync(file, 'utf8'));
      else {
        const made = await makeIndependentSet(part, level, per);
        rows = made.map((item) => ({ kind: item.kind, variant: item.variant, truth: item.truth, image: item.image.toString('base64') }));
        writeFileSync(file, JSON.stringify(rows));
      }
      rows.forEach((row, i) =>
        items.push({
          set: 'independent',
          label: `${part} ${level} ${row.kind} #${i} [${row.variant}]`,
          image: Buffer.from(row.image, 'base64'),
          truth: row.truth,
          skip: [],
        }),
      );
    }
    if (items.length > 0) out.push([`independent ${name} (${part})`, items]);
  }
  return out;
}

interface Tally {
  fields: number;
  right: number;
  types: number;
  typesRight: number;
  misses: string[];
  times: number[];
  /** Fields with a warning, wrong (the warning was useful) and right (a false alarm). */
  warnedWrong: number;
  warnedRight: number;
  /** Each field's reported confidence and whether it was right: how well confidence separates misreads. */
  scored: Array<{ confidence: number; right: boolean }>;
  /** Per document type, then per `type field`: [right, count]. */
  byField: Map<string, [number, number]>;
}

function count(map: Map<string, [number, number]>, key: string, right: boolean): void {
  const entry = map.get(key) ?? [0, 0];
  map.set(key, [entry[0] + (right ? 1 : 0), entry[1] + 1]);
}

/** "주민등록증 94% (45/48): name 15/16 …": where the misses are, per document type and field. */
function fieldBreakdown(byField: Map<string, [number, number]>): string[] {
  const types = [...new Set([...byField.keys()].map((key) => key.split(' ')[0] as string))];
  return types.map((type) => {
    const fields = [...byField.entries()].filter(([key]) => key.startsWith(`${type} `));
    const [right, total] = fields.reduce(([r, t], [, [a, b]]) => [r + a, t + b], [0, 0]);
    const parts = fields.map(([key, [a, b]]) => `${key.slice(type.length + 1)} ${a}/${b}`);
    return `    ${type} ${((right / total) * 100).toFixed(1)}% (${right}/${total}): ${parts.join(', ')}`;
  });
}

/** For a few thresholds: how many wrong and how many right fields score under it (what a warning there would flag). */
function belowThresholds(scored: Tally['scored']): string {
  const wrong = scored.filter((s) => !s.right);
  const right = scored.filter((s) => s.right);
  return [0.5, 0.6, 0.7, 0.8, 0.9]
    .map(
      (t) =>
        `< ${t}: ${wrong.filter((s) => s.confidence < t).length}/${wrong.length} wrong, ${right.filter((s) => s.confidence < t).length}/${right.length} right`,
    )
    .join(' · ');
}

async function main(): Promise<void> {
  const pool =
    args.engine === 'cli'
      ? createTesseractCli({ concurrency: 2, timeoutMs: 120_000, psm: Number(args.psm), oem: Number(args.oem) })
      : createTesseractPool({ size: 2, maxQueue: 10_000, timeoutMs: 120_000 });
  // Two images at a time from one caller: the per-account limit (2) is not reached.
  // No time budget: accuracy is measured as on a quiet machine, where the budget is not reached.
  const detector = args.lines === 'paddle' ? createTextLineDetector({ limitSide: Number(args['lines-side']) }) : undefined;
  const use = args['lines-use'] === 'first' ? 'first' : 'fallback';
  const operation = createOcrIdcardOperation({
    ocr: () => pool,
    detectDocument: args.detect,
    budgetMs: Number.POSITIVE_INFINITY,
    ...(detector ? { textLines: { detector, use } } : {}),
  });
  if (detector) console.log(`text lines: PaddleOCR detector (${args['lines-side']} px), ${use}`);
  const ctx = {
    account: { id: 0, email: 'eval@example.com' },
    logger: createLogger('silent'),
    requestId: 'eval',
    charge: () => Promise.reject(new Error('not charged in the evaluation')),
  };
  const parts = args.part.split(',') as Part[];
  const tallies = new Map<string, Tally>();
  const dumped: Array<{ label: string; truth: Record<string, string>; raw_text: string }> = [];
  const started = performance.now();
  for (const set of args.sets.split(',')) {
    const groups: Array<[string, Item[]]> =
      set === 'outside'
        ? [['outside (tuned on)', outsideSet()]]
        : set === 'independent'
          ? (await Promise.all(args['independent-part'].split(',').map((part) => independentSets(part as IndependentPart)))).flat()
          : await Promise.all(parts.map(async (part) => [`${set} (${part})`, await syntheticSet(set, part)] as [string, Item[]]));
    for (const [name, items] of groups) {
      if (items.length === 0) continue;
      const tally: Tally = {
        fields: 0,
        right: 0,
        types: 0,
        typesRight: 0,
        misses: [],
        times: [],
        warnedWrong: 0,
        warnedRight: 0,
        scored: [],
        byField: new Map(),
      };
      tallies.set(name, tally);
      let next = 0;
      await Promise.all(
        [0, 1].map(async () => {
          while (next < items.length) {
            const item = items[next++] as Item;
            let warned = new Set<string>();
            let confidence: Record<string, number> = {};
            const begun = performance.now();
            const info = await operation
              .run(ctx, { base64_image: item.image.toString('base64'), mask: false })
              .then((out) => {
                if (args.dump) dumped.push({ label: item.label, truth: item.truth, raw_text: out.raw_text });
                if (args.show && item.label.includes(args.show))
                  console.log(`--- ${item.label}\n${out.raw_text}\n${JSON.stringify(out.warnings)}`);
                warned = new Set(out.warnings.map((warning) => warning.field));
                confidence = out.confidence as Record<string, number>;
                return out.info as unknown as Record<string, string>;
              })
              .catch(() => ({}) as Record<string, string>);
            tally.times.push(performance.now() - begun);
            tally.types++;
            if (info.type === item.truth.type) tally.typesRight++;
            else tally.misses.push(`${item.label} type: got ${JSON.stringify(info.type ?? '')}`);
            for (const [field, want] of Object.entries(item.truth)) {
              if (field === 'type' || item.skip.includes(field)) continue;
              tally.fields++;
              const got = fieldRead(item, field, info);
              const right = normalise(field, got) === normalise(field, want);
              count(tally.byField, `${item.truth.type} ${field}`, right);
              if (right) tally.right++;
              else
                tally.misses.push(
                  `${item.label} ${field}: got ${JSON.stringify(got)} want ${JSON.stringify(want)} (confidence ${confidence[field] ?? 0})`,
                );
              if (warned.has(field)) tally[right ? 'warnedRight' : 'warnedWrong']++;
              tally.scored.push({ confidence: confidence[field] ?? 0, right });
            }
          }
        }),
      );
      const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(1)}%`;
      const sorted = [...tally.times].sort((a, b) => a - b);
      const at = (q: number) => ((sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0) / 1000).toFixed(2);
      console.log(
        `${name.padEnd(34)} fields ${pct(tally.right, tally.fields).padStart(6)} (${tally.right}/${tally.fields})  type ${pct(tally.typesRight, tally.types).padStart(6)} (${tally.typesRight}/${tally.types})` +
          `  warned: ${tally.warnedWrong}/${tally.fields - tally.right} wrong, ${tally.warnedRight}/${tally.right} right` +
          `  p50 ${at(0.5)} s p90 ${at(0.9)} s`,
      );
      for (const line of fieldBreakdown(tally.byField)) console.log(line);
      if (args.verbose) {
        for (const miss of tally.misses) console.log(`    ${miss}`);
        console.log(`    ${belowThresholds(tally.scored)}`);
      }
    }
  }
  console.log(
    `(${PER_KIND} documents per type and level, ${args['independent-per']} in the independent set; ${Math.round((performance.now() - started) / 1000)} s)`,
  );
  if (args.dump) writeFileSync(args.dump, JSON.stringify(dumped, null, 1));
  await pool.close();
  await detector?.close();
}

await main();
