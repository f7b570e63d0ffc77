import { buildDetectionLists, expressionHost } from '../src/operations/url-detect/detection-lists.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { CLEAN, LATEST, partOf, readReal, urlOf } from '../test/data/url-real.js';
const noModel = process.env.NOMODEL === '1';
const latest = LATEST.map(readReal);
const clean = readReal(CLEAN);
const f = (feed: any, keep: (e: string) => boolean) => ({ ...feed, entries: feed.entries.filter(keep), exceptions: [] });
const lists = noModel ? await buildDetectionLists([], { model: false }) : await buildDetectionLists([...latest.map((x) => f(x, (e) => partOf(e) === 'train')), f(clean, (e) => partOf(e) === 'train')]);
const engine = createUrlEngine(lists);
const cat = process.env.CAT ?? 'phishing';
const feed = latest.find((x) => x.category === cat)!;
const entries = feed.entries.filter((e) => partOf(e) === 'dev');
const step = Math.max(1, Math.floor(entries.length / 3000));
let n = 0, hit = 0; const out: string[] = [];
for (let i = 0; i < entries.length; i += step) {
  const url = urlOf(entries[i]!);
  let v; try { if (engine.listCheck(url)) continue; v = engine.classifyRules(url); } catch { continue; }
  n++; if (v.isMalicious) hit++; else out.push(`${v.score}\t${url}\t${v.signals.map((s) => s.category[0] + s.weight).join(',')}`);
}
console.log(cat, n, (hit / n * 100).toFixed(1));
console.log(out.filter((_, i) => i % Math.max(1, Math.floor(out.length / Number(process.env.N ?? 150))) === 0).join('\n'));
