import { buildDetectionLists, expressionHost } from '../src/operations/url-detect/detection-lists.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { getDomain } from 'tldts';
import { CLEAN, LATEST, OLDER, partOf, readReal, urlOf } from '../test/data/url-real.js';
const noModel = process.env.NOMODEL === '1';
const latest = LATEST.map(readReal);
const clean = readReal(CLEAN);
const f = (feed: any, keep: (e: string) => boolean) => ({ ...feed, entries: feed.entries.filter(keep), exceptions: [] });
const lists = noModel ? await buildDetectionLists([], { model: false }) : await buildDetectionLists([...latest.map((x) => f(x, (e) => partOf(e) === 'train')), f(clean, (e) => partOf(e) === 'train')]);
const engine = createUrlEngine(lists);
const listed = new Set<string>();
for (const x of [...latest, ...OLDER.map(readReal)]) for (const e of x.entries) listed.add(expressionHost(e));
const entries = clean.entries.filter((e) => partOf(e) === 'dev' && !listed.has(expressionHost(e)));
const domains = [...new Set(entries.flatMap((e) => getDomain(expressionHost(e)) ?? []))].filter((d) => !listed.has(d));
let n = 0; const fps: string[] = [];
for (const d of domains) { let v; try { v = engine.classifyRules(`https://${d}/`); } catch { continue; } n++; if (v.isMalicious) fps.push(`${d}\t${v.category}\t${v.signals.map((s) => s.category[0] + s.weight + (s.reason.includes('모델') ? 'M' : '')).join(',')}\t${v.reason.slice(0, 120)}`); }
console.log('sites', n, fps.length, (fps.length / n * 100).toFixed(2));
console.log(fps.join('\n'));
