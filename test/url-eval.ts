/**
 * `npm run eval:urls`: accuracy of the harmful-URL engine on the real public lists in
 * ../shared/data/url-lists (read in place). Four settings, each reported on the dev part and,
 * apart, on the held-out part (domains in buckets 0–1, never used for tuning):
 *   listed     — the latest lists loaded: are listed URLs caught?
 *   zero-hour  — lists and model built from the train part only; URLs on none of them
 *   time split — older snapshots loaded; URLs new in the later snapshot and on no loaded list
 *   no feeds   — team lists and hand-written rules only (the offline default)
 * Then the Korean smishing part, forward in time and through the service's door (url-eval-forward.ts).
 * Only the dev part is printed unless `--heldout` is passed (the held-out figures are read once,
 * at the end, by whoever closes the work; tuning never passes it). `--only=<word>` runs the
 * settings whose name contains the word; `--model` adds the lexical model's own ROC and the engine's bound.
 * Clean: top-sites hosts of the same parts that no harm list names (nor, under another suffix,
 * the adult and gambling lists), and the hand-written clean URLs.
 */
import { buildDetectionLists, expressionHost, type LoadedFeed } from '../src/operations/url-detect/lists/detection-lists.js';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { createUrlEngine, type UrlEngine } from '../src/operations/url-detect/engine.js';
import type { LexicalModel } from '../src/operations/url-detect/model/lexical-model.js';
import { HARM_CATEGORIES, type HarmCategory } from '../src/operations/url-detect/lists/list-index.js';
import { modelDecidesAlone } from '../src/operations/url-detect/model/model-signals.js';
import { getDomain, getDomainWithoutSuffix } from 'tldts';
import { FRESH, HOLDOUT, TUNE } from './data/url-labelled.js';
import { evalKoreanForward } from './url-eval-forward.js';
import { CLEAN, isKorean, LATEST, OLDER, partOf, readReal, realListsPresent, urlOf, type Part } from './data/url-real.js';

const SAMPLE = Number(process.env.EVAL_SAMPLE ?? 3000);
const PARTS: readonly Part[] = process.argv.includes('--heldout') ? ['dev', 'heldout'] : ['dev'];
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice(7);
const wanted = (setting: string) => !ONLY || setting.includes(ONLY);

interface Case {
  url: string;
  label: HarmCategory | 'clean';
  korean: boolean;
  /** A clean site's home page (one per registrable domain) rather than any popular host name. */
  site?: boolean;
}

/** A deterministic sample (every n-th), so runs compare. */
function sample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const step = items.length / max;
  return Array.from({ length: max }, (_, i) => items[Math.floor(i * step)]!);
}

function filterFeed(feed: LoadedFeed & { entries: string[] }, keep: (expression: string) => boolean): LoadedFeed {
  return { ...feed, entries: feed.entries.filter(keep), exceptions: [...(feed.exceptions ?? [])].filter(keep) };
}

function harmHosts(): Set<string> {
  const hosts = new Set<string>();
  for (const spec of [...LATEST, ...OLDER]) for (const e of readReal(spec).entries) hosts.add(expressionHost(e));
  return hosts;
}

/**
 * Names (left of the public suffix, 5+ characters) of the domains the adult and gambling lists
 * name. Those sites rotate suffixes (stripchat.com listed, stripchat.cam and stripchat.run in the
 * top-sites list): such a mirror is the listed site, not a clean example.
 */
function mirrorNames(): Set<string> {
  const names = new Set<string>();
  for (const spec of [...LATEST, ...OLDER]) {
    if (spec.category !== 'adult' && spec.category !== 'gambling') continue;
    for (const e of readReal(spec).entries) {
      const name = getDomainWithoutSuffix(expressionHost(e));
      if (name && name.length >= 5) names.add(name);
    }
  }
  return names;
}

/**
 * Clean cases of a part: top-sites host names that no harm list names (many are CDN and API
 * hosts nobody visits), and one home page per registrable domain (what users open).
 */
function cleanCases(part: Part, listed: Set<string>, mirrors: Set<string>): Case[] {
  const entries = readReal(CLEAN).entries.filter(
    (e) => partOf(e) === part && !listed.has(expressionHost(e)) && !mirrors.has(getDomainWithoutSuffix(expressionHost(e)) ?? ''),
  );
  const hosts = sample(entries, SAMPLE * 2).map((e): Case => ({ url: urlOf(e), label: 'clean', korean: isKorean(e) }));
  const domains = [...new Set(entries.flatMap((e) => getDomain(expressionHost(e)) ?? []))].filter((d) => !listed.has(d));
  const sites = sample(domains, SAMPLE * 2).map((d): Case => ({
    url: `https://${d}/`,
    label: 'clean',
    korean: /\.kr$/.test(d),
    site: true,
  }));
  return [...hosts, ...sites];
}

function unlisted(engine: UrlEngine, url: string): boolean {
  try {
    return engine.listCheck(url) === undefined;
  } catch {
    return false;
  }
}

/** A few list names are no valid URL host (WHATWG rejects them): they are left out. */
function classifyOrUndefined(engine: UrlEngine, url: string) {
  try {
    return engine.classifyRules(url);
  } catch {
    return undefined;
  }
}

interface Row {
  name: string;
  recall: Record<string, string>;
  fpr: string;
  siteFpr: string;
}

function measure(
  engine: UrlEngine,
  cases: Case[],
): { recall: Record<string, string>; fpr: string; siteFpr: string; fp: string[]; misses: Map<string, string[]> } {
  const total = new Map<string, number>();
  const hit = new Map<string, number>();
  const misses = new Map<string, string[]>();
  const fp: string[] = [];
  const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const item of cases) {
    const verdict = classifyOrUndefined(engine, item.url);
    if (!verdict) continue;
    const keys = item.label === 'clean' ? [item.site ? 'site' : 'clean'] : [item.label, 'all', ...(item.korean ? ['korean'] : [])];
    for (const key of keys) {
      bump(total, key);
      if (verdict.isMalicious) bump(hit, key);
      else if (item.label !== 'clean' && key !== 'all' && key !== 'korean') misses.set(key, [...(misses.get(key) ?? []), item.url]);
    }
    if (item.label === 'clean' && verdict.isMalicious) fp.push(`${item.url} → ${verdict.category}: ${verdict.reason}`);
  }
  const pct = (key: string) => {
    const n = total.get(key) ?? 0;
    return n === 0 ? '—' : `${(((hit.get(key) ?? 0) / n) * 100).toFixed(1)}% (${n})`;
  };
  const recall = Object.fromEntries([...HARM_CATEGORIES, 'all', 'korean'].map((key) => [key, pct(key)]));
  return { recall, fpr: pct('clean'), siteFpr: pct('site'), fp, misses };
}

const rows: Row[] = [];
const verbose = process.argv.includes('--verbose');

function report(name: string, engine: UrlEngine, cases: Case[]): void {
  const result = measure(engine, cases);
  rows.push({ name, recall: result.recall, fpr: result.fpr, siteFpr: result.siteFpr });
  // The held-out part is reported, never inspected: no examples printed for it.
  if (verbose && !name.includes('heldout')) {
    console.log(`\n# ${name}: false positives`, result.fp.slice(0, 15));
    for (const [category, urls] of result.misses) console.log(`  misses ${category}:`, urls.slice(0, 8).join('  '));
  }
}

function harmCases(feeds: readonly LoadedFeed[], keep: (expression: string) => boolean, engine?: UrlEngine): Case[] {
  return feeds.flatMap((feed) => {
    if (feed.category === 'clean') return [];
    const chosen = [...feed.entries]
      .filter(keep)
      .map((e) => ({ url: urlOf(e), label: feed.category as HarmCategory, korean: isKorean(e) }));
    return sample(engine ? chosen.filter((c) => unlisted(engine, c.url)) : chosen, SAMPLE);
  });
}

async function main(): Promise<void> {
  if (!realListsPresent()) {
    console.log('../shared/data/url-lists is absent: nothing to evaluate.');
    return;
  }
  const started = performance.now();
  const latest = LATEST.map(readReal);
  const older = OLDER.map(readReal);
  const clean = readReal(CLEAN);
  const listed = harmHosts();
  const cleanTrain = filterFeed(clean, (e) => partOf(e) === 'train');
  const labelledClean: Case[] = [...TUNE, ...HOLDOUT, ...FRESH]
    .filter((x) => x.label === 'clean')
    .map((x) => ({ url: x.url, label: 'clean', korean: true }));
  const mirrors = mirrorNames();
  const cleanOf = (part: Part) => [...cleanCases(part, listed, mirrors)];

  // 1. Listed: the production path, latest lists and the model trained on them.
  if (wanted('listed')) {
    const full = await buildDetectionLists([...latest, cleanTrain]);
    const fullEngine = createUrlEngine(full);
    for (const part of PARTS) {
      report(`listed, ${part}`, fullEngine, [...harmCases(latest, (e) => partOf(e) === part), ...cleanOf(part)]);
    }
    report('listed, hand-written clean URLs with paths', fullEngine, labelledClean);
    console.log(
      `(${full.index.size.toLocaleString()} entries loaded; model threshold ${full.model?.info.threshold.toFixed(3)}, trained in ${full.model?.info.trainedMs} ms on ${JSON.stringify(full.model?.info.examples)})`,
    );
  }

  // 2. Zero-hour with the other feeds: lists and model from the train part only.
  if (wanted('zero-hour')) {
    const trainOnly = await buildDetectionLists([...latest.map((f) => filterFeed(f, (e) => partOf(e) === 'train')), cleanTrain]);
    const zeroEngine = createUrlEngine(trainOnly);
    console.log(
      `(zero-hour model: threshold ${trainOnly.model?.info.threshold.toFixed(3)}, suspicious ${trainOnly.model?.info.suspicious?.toFixed(3)}, trained in ${trainOnly.model?.info.trainedMs} ms)`,
    );
    for (const part of PARTS) {
      const cases = [...harmCases(latest, (e) => partOf(e) === part, zeroEngine), ...cleanOf(part)];
      report(`zero-hour (train part loaded), ${part}`, zeroEngine, cases);
      // Figures only, no examples: the held-out part may be measured this way too.
      if (process.argv.includes('--model') && trainOnly.model) {
        console.log(`# model and its bound, ${part}`);
        modelRoc(trainOnly.model, cases, createUrlEngine({ ...trainOnly, model: undefined }));
      }
    }
  }

  // 3. Time split: older snapshots loaded, URLs new in the later ones.
  if (wanted('time')) {
    const oldLists = await buildDetectionLists([...older, cleanTrain]);
    const oldEngine = createUrlEngine(oldLists);
    const before = new Set(older.flatMap((f) => f.entries));
    const newer = latest.filter((f) => f.category !== 'malware');
    for (const part of PARTS) {
      report(`time split (older loaded), ${part}`, oldEngine, [
        ...harmCases(newer, (e) => !before.has(e) && partOf(e) === part, oldEngine),
        ...cleanOf(part),
      ]);
    }
  }

  // 4. No feeds: team lists and rules only.
  if (wanted('no feeds')) {
    const bare = createUrlEngine(await buildDetectionLists([], { model: false }));
    for (const part of PARTS) {
      report(`no feeds, ${part}`, bare, [...harmCases(latest, (e) => partOf(e) === part, bare), ...cleanOf(part)]);
    }
    report('no feeds, hand-written clean URLs with paths', bare, labelledClean);
  }

  if (rows.length > 0) printTable();
  // 5. Korean smishing (KISA) forward in time, through the door: its own folds and table (url-eval-forward.ts).
  if (wanted('korean')) await evalKoreanForward(process.argv);
  console.log(
    `\n(${((performance.now() - started) / 1000).toFixed(1)} s; sample ≤ ${SAMPLE} a category and part; set EVAL_SAMPLE to change)`,
  );
}

/**
 * The lexical model alone (host only, no rules): recall per category at fixed clean-site FPRs.
 * Then the most the engine could make of the same cut: the rules' verdicts joined by the model
 * wherever the engine lets it decide alone (not on shared hosting nor under public-body
 * suffixes), with the clean sites that union flags.
 */
function modelRoc(model: LexicalModel, cases: Case[], rulesOnly: UrlEngine): void {
  const scored = cases.flatMap((c) => {
    const verdict = classifyOrUndefined(rulesOnly, c.url);
    if (!verdict) return [];
    const url = canonicalizeUrl(c.url);
    return [{ ...c, harm: model.predict(url.host).harm, rules: verdict.isMalicious, alone: modelDecidesAlone(url) }];
  });
  const sites = scored.filter((c) => c.label === 'clean' && c.site);
  const clean = sites.map((c) => c.harm).sort((x, y) => y - x);
  const harmful = scored.filter((c) => c.label !== 'clean');
  const share = (items: typeof scored, hit: (c: (typeof scored)[number]) => boolean) =>
    `${((items.filter(hit).length / Math.max(1, items.length)) * 100).toFixed(1)}%`;
  for (const rate of [0.005, 0.01, 0.02]) {
    const cut = clean[Math.floor(clean.length * rate)] ?? 1;
    const recall = [...HARM_CATEGORIES, 'all'].map((category) => {
      const items = harmful.filter((c) => category === 'all' || c.label === category);
      return `${category} ${share(items, (c) => c.harm > cut)}`;
    });
    console.log(`model alone at ${(rate * 100).toFixed(1)}% clean-site FPR (harm > ${cut.toFixed(3)}): ${recall.join(', ')}`);
    const union = (c: (typeof scored)[number]) => c.rules || (c.alone && c.harm > cut);
    console.log(`  rules or that model where it may decide alone: all ${share(harmful, union)} at ${share(sites, union)} of clean sites`);
  }
}

function printTable(): void {
  const columns = [...HARM_CATEGORIES, 'all', 'korean'];
  console.log(`\n| setting | ${columns.join(' | ')} | clean hosts FPR | clean sites FPR |`);
  console.log(`|---|${columns.map(() => '---').join('|')}|---|---|`);
  for (const row of rows) console.log(`| ${row.name} | ${columns.map((c) => row.recall[c]).join(' | ')} | ${row.fpr} | ${row.siteFpr} |`);
}

await main();
