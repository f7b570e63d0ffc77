import { buildDetectionLists, expressionHost } from '../src/operations/url-detect/detection-lists.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { getDomain } from 'tldts';
import { CLEAN, LATEST, partOf, readReal, urlOf } from '../test/data/url-real.js';

const part = (process.env.PART ?? 'dev') as 'dev';
const latest = LATEST.map(readReal);
const clean = readReal(CLEAN);
const f = (feed: any, keep: (e: string) => boolean) => ({ ...feed, entries: feed.entries.filter(keep), exceptions: [] });
const t0 = performance.now();
const lists = await buildDetectionLists([...latest.map((x) => f(x, (e) => partOf(e) === 'train')), f(clean, (e) => partOf(e) === 'train')], { maxPerCategory: Number(process.env.CAP ?? 40000) });
console.log('train ms', Math.round(performance.now() - t0), lists.model!.info);
const model = lists.model!;
const listed = new Set<string>();
for (const x of latest) for (const e of x.entries) listed.add(expressionHost(e));
const cleanHosts = clean.entries.filter((e) => partOf(e) === part && !listed.has(expressionHost(e))).map(expressionHost);
const sites = [...new Set(cleanHosts.map((h) => getDomain(h) ?? h))];
const score = (h: string) => model.predict(h).harm;
const cs = cleanHosts.map(score).sort((a, b) => a - b);
const ss = sites.map(score).sort((a, b) => a - b);
const q = (arr: number[], p: number) => arr[Math.floor(arr.length * (1 - p))]!;
console.log('threshold', model.info.threshold.toFixed(4), 'hostFPR', (cs.filter((x) => x >= model.info.threshold).length / cs.length * 100).toFixed(2), 'siteFPR', (ss.filter((x) => x >= model.info.threshold).length / ss.length * 100).toFixed(2));
const thr = Math.max(q(cs, 0.008), q(ss, 0.008));
console.log('thr@0.8%', thr.toFixed(4));
let tot = 0, hit = 0, hitT = 0;
for (const feed of latest) {
  const hosts = [...new Set(feed.entries.filter((e) => partOf(e) === part).map(expressionHost))].filter((h) => !h.match(/^\d+\.\d+\.\d+\.\d+$/));
  const sc = hosts.map(score);
  const r = sc.filter((x) => x >= thr).length / sc.length;
  const rT = sc.filter((x) => x >= model.info.threshold).length / sc.length;
  tot += sc.length; hit += r * sc.length; hitT += rT * sc.length;
  console.log(feed.category, sc.length, 'recall@0.8%', (r * 100).toFixed(1), 'recall@own', (rT * 100).toFixed(1));
}
console.log('all', (hit / tot * 100).toFixed(1), (hitT / tot * 100).toFixed(1));
