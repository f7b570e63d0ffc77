/**
 * The Korean part of `npm run eval:urls` (issue 31): KISA's phishing/smishing reports in
 * ../shared/data/url-lists-kr, read in place. Time split: the 2022-09..11 file is the loaded
 * feed (and the baseline's training data), the 2023-01..06 file is the test. Counted by
 * registered domain (one campaign is one item):
 *   new campaigns — 2023 domains no loaded feed names (one URL a domain);
 *   siblings      — another host of a domain the 2022 feed names as a whole host;
 *   short links   — one a shortener host, apart: judged on the link alone (no expansion here),
 *                   and "condemned whole" = an unreported link of that shortener flagged;
 *   clean         — clean-kr-devblogs.txt, clean-kr-sites.txt, the Korean hosts of the top sites.
 * 2023 domains are split by a hash of the registered domain into dev and held-out (≈ 30 %);
 * the held-out figures are printed only with `--heldout` (read once, never while tuning), and
 * no held-out URL is ever printed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { getDomain } from 'tldts';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { buildDetectionLists, expressionHost, type LoadedFeed } from '../src/operations/url-detect/lists/detection-lists.js';
import { createUrlEngine, type UrlEngine } from '../src/operations/url-detect/engine.js';
import { splitCsvLine, withoutCountNote } from '../src/operations/url-detect/lists/feed-csv.js';
import { parseFeed } from '../src/operations/url-detect/lists/feed-parse.js';
import { LexicalModel } from '../src/operations/url-detect/model/lexical-model.js';
import { shortenerOf } from '../src/operations/url-detect/expansion/shorteners.js';
import { CLEAN, LATEST, partOf, readReal, realListsPresent } from './data/url-real.js';
import { sharedDataPath } from './helpers/shared-data.js';

const DIR = sharedDataPath('url-lists-kr/');
export type KrPart = 'dev' | 'heldout';

interface Row {
  url: string;
  host: string;
  domain: string;
}

/** A 2023 domain's part: a hash of the registered domain, 3 buckets of 10 held out. */
export function krPartOf(domain: string): KrPart {
  return (createHash('sha1').update(`kr:${domain}`).digest()[0] ?? 0) % 10 < 3 ? 'heldout' : 'dev';
}

/** The rows of a KISA file as URLs (the note `외N건` dropped, a scheme added, `http;//` read as `http://`). */
function kisaRows(file: string): Row[] {
  const lines = readFileSync(`${DIR}${file}`, 'utf8')
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .slice(1);
  return lines.flatMap((line) => {
    const cell = withoutCountNote((splitCsvLine(line)[1] ?? '').trim()).replace(/^(https?);\/\//i, '$1://');
    if (!cell) return [];
    try {
      const url = canonicalizeUrl(/^https?:\/\//i.test(cell) ? cell : `http://${cell}`);
      return [{ url: url.href, host: url.host, domain: getDomain(url.host) ?? url.host }];
    } catch {
      return [];
    }
  });
}

function cleanUrls(file: string): string[] {
  return readFileSync(`${DIR}${file}`, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^https?:\/\//.test(line));
}

interface Tally {
  n: number;
  hit: number;
}
const pct = (t: Tally) => (t.n === 0 ? '—' : `${((t.hit / t.n) * 100).toFixed(1)}% (${t.hit}/${t.n})`);

/** Judge: true when the URL is called harmful. */
type Judge = (url: string) => boolean;

function tally(urls: readonly string[], judge: Judge): Tally {
  let hit = 0;
  for (const url of urls) if (judge(url)) hit++;
  return { n: urls.length, hit };
}

export async function evalKorean(parts: readonly KrPart[], verbose: boolean): Promise<void> {
  if (!existsSync(`${DIR}kisa-phishing-2023-01-06.csv`) || !realListsPresent()) {
    console.log('\n(../shared/data/url-lists-kr or url-lists absent: no Korean part)');
    return;
  }
  const started = performance.now();
  const trainRows = kisaRows('kisa-phishing-2022-09-11.csv');
  const testRows = kisaRows('kisa-phishing-2023-01-06.csv');
  const kisaFeed = parseFeed(readFileSync(`${DIR}kisa-phishing-2022-09-11.csv`), 'csv');
  const kisa: LoadedFeed = { name: 'kisa-2022', category: 'phishing', entries: kisaFeed.entries };
  const clean = readReal(CLEAN);
  const cleanTrain = { ...clean, entries: clean.entries.filter((e) => partOf(e) === 'train') };
  const latest = LATEST.map(readReal);

  const trainDomains = new Set(trainRows.map((r) => r.domain));
  const listedHosts = new Set([...kisaFeed.entries].map(expressionHost));

  // The systems compared.
  const full = await buildDetectionLists([...latest, kisa, cleanTrain]);
  const engine = createUrlEngine(full);
  const noFeeds = createUrlEngine(await buildDetectionLists([], { model: false }));
  const baseline = await LexicalModel.train(
    new Map([
      ['phishing', trainRows.filter((r) => !shortenerOf(r.host)).map((r) => r.host)],
      ['clean', cleanTrain.entries.map(expressionHost)],
    ]),
  );
  const judges: [string, Judge][] = [
    [
      'baseline: host n-gram LR (KISA 2022 vs top sites)',
      (url) => (baseline ? baseline.predict(canonicalizeUrl(url).host).flagged : false),
    ],
    ['no feeds (rules, team lists)', engineJudge(noFeeds)],
    ['service: global lists + KISA 2022 feed', engineJudge(engine)],
  ];

  const isListedElsewhere = (url: string) => engine.listCheck(url) !== undefined;
  for (const part of parts) {
    const firstOf = new Map<string, Row>();
    const siblingOf = new Map<string, Row>();
    const shortOf = new Map<string, Row>();
    for (const row of testRows) {
      if (krPartOf(row.domain) !== part) continue;
      const shortener = shortenerOf(row.host);
      if (shortener) {
        if (!shortOf.has(shortener) && canonicalizeUrl(row.url).path.length > 1) shortOf.set(shortener, row);
      } else if (trainDomains.has(row.domain)) {
        if (!siblingOf.has(row.domain) && !listedHosts.has(row.host) && row.host !== row.domain && listedSubdomain(row.domain, listedHosts))
          siblingOf.set(row.domain, row);
      } else if (!firstOf.has(row.domain)) firstOf.set(row.domain, row);
    }
    // New campaigns: no loaded feed names the domain (the global lists included).
    const fresh = [...firstOf.values()].map((r) => r.url).filter((url) => !isListedElsewhere(url));
    const siblings = [...siblingOf.values()].map((r) => r.url);
    const shorts = [...shortOf.values()].map((r) => r.url);
    const unreported = [...shortOf.keys()].map((host) => `https://${host}/zq9Xw7unreported`);
    const cleanKr = koreanClean(part, clean.entries);
    console.log(`\n## Korean smishing (KISA), ${part} part`);
    console.log(
      `items: ${fresh.length} new-campaign domains, ${siblings.length} sibling domains, ${shorts.length} shortener hosts, ${cleanKr.length} Korean clean URLs`,
    );
    console.log('| system | new campaigns | siblings | short links (link alone) | shorteners condemned whole | Korean clean FPs |');
    console.log('|---|---|---|---|---|---|');
    for (const [name, judge] of judges) {
      console.log(
        `| ${name} | ${pct(tally(fresh, judge))} | ${pct(tally(siblings, judge))} | ${pct(tally(shorts, judge))} | ${pct(tally(unreported, judge))} | ${pct(tally(cleanKr, judge))} |`,
      );
    }
    if (verbose && part === 'dev') {
      const [, service] = judges[2]!;
      console.log(
        '  missed new campaigns:',
        fresh
          .filter((u) => !service(u))
          .slice(0, 25)
          .join('  '),
      );
      console.log(
        '  Korean clean FPs:',
        cleanKr
          .filter((u) => service(u))
          .slice(0, 15)
          .join('  '),
      );
    }
  }
  console.log(`(Korean part: ${((performance.now() - started) / 1000).toFixed(1)} s)`);
}

function engineJudge(engine: UrlEngine): Judge {
  return (url) => {
    try {
      return engine.classifyRules(url).isMalicious;
    } catch {
      return false;
    }
  };
}

function listedSubdomain(domain: string, listedHosts: Set<string>): boolean {
  for (const host of listedHosts) if (host.endsWith(`.${domain}`) && host !== `www.${domain}`) return true;
  return false;
}

/** Korean clean URLs of a part (by a hash of the host: a blog platform's blogs fall in both parts). */
function koreanClean(part: KrPart, topSites: readonly string[]): string[] {
  const lists = [...cleanUrls('clean-kr-devblogs.txt'), ...cleanUrls('clean-kr-sites.txt')];
  const top = topSites.filter((e) => /\.kr\/$/.test(e)).map((e) => `https://${expressionHost(e)}/`);
  return [...new Set([...lists, ...top])].filter((url) => {
    try {
      return krPartOf(canonicalizeUrl(url).host) === part;
    } catch {
      return false;
    }
  });
}
