import { describe, expect, it } from 'vitest';
import { buildDetectionLists, teamEntries } from '../src/operations/url-detect/lists/detection-lists.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { LexicalModel } from '../src/operations/url-detect/model/lexical-model.js';
import { categoryThresholds, type ScoredExample } from '../src/operations/url-detect/model/lexical-calibration.js';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { modelSignals } from '../src/operations/url-detect/model/model-signals.js';
import type { Signal } from '../src/operations/url-detect/signals.js';
import { ListIndex } from '../src/operations/url-detect/lists/list-index.js';
import { seededRandom } from './helpers/seeded-random.js';

/**
 * Synthetic feeds (generated here, not taken from any real list): gambling hosts glue
 * made-up syllables to "spin"/"jackpot"-like stems, clean hosts are ordinary word pairs.
 * They pin the model's behaviour — it learns from the feeds it is given and explains
 * itself — not its accuracy, which `npm run eval:urls` measures on real lists.
 */
function syntheticFeeds(seed: number) {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const syllables = ['ka', 'zo', 'mi', 'ru', 'te', 'xo', 'vi', 'lu', 'pe', 'qa'];
  const stems = ['spinwin', 'jackpotz', 'luckyspin', 'megaspin', 'spinbonus'];
  const words = ['garden', 'river', 'paper', 'north', 'studio', 'coffee', 'travel', 'school', 'market', 'health', 'design', 'energy'];
  const tlds = ['com', 'net', 'org', 'co.kr'];
  const gambling = Array.from({ length: 600 }, (_, i) => `${pick(syllables)}${pick(stems)}${i % 97}.${pick(['xyz', 'top', 'com'])}/`);
  const clean = Array.from({ length: 1500 }, () => `${pick(words)}${pick(words)}.${pick(tlds)}/`);
  return [
    { name: 'syn-gambling', category: 'gambling' as const, entries: gambling },
    { name: 'syn-clean', category: 'clean' as const, entries: clean },
  ];
}

describe('lexical model trained from the loaded feeds', () => {
  it('learns the feeds it is given, flags a new host of that kind with a Korean reason, and keeps ordinary names clean', async () => {
    const lists = await buildDetectionLists(syntheticFeeds(7), { yieldEvery: 100 });
    expect(lists.model?.info.examples.gambling).toBeGreaterThan(400);
    const engine = createUrlEngine(lists);
    const fresh = engine.classifyRules('https://zeluckyspin4.xyz/');
    expect(fresh).toMatchObject({ isMalicious: true, category: 'gambling', source: 'rules' });
    expect(fresh.reason).toMatch(/공개 차단 목록으로 학습한 주소 모델이 불법 도박 사이트 주소와 닮았다고 판단함\(확률 \d+%, 근거: '[^']+'/);
    expect(engine.classifyRules('https://coffeegarden.com/menu').isMalicious).toBe(false);
    // The clean feed teaches the model; it never allowlists and never blocks by itself.
    expect(engine.listCheck('https://gardenriver.com/')).toBeUndefined();
  });

  it('is not trained without a clean feed (nothing to tell harm from) and is deterministic', async () => {
    const [gambling] = syntheticFeeds(3);
    expect((await buildDetectionLists([gambling!])).model).toBeUndefined();
    const a = await LexicalModel.train(new Map([['gambling', ['abcspin.xyz']]]));
    expect(a).toBeUndefined();
    const one = (await buildDetectionLists(syntheticFeeds(11))).model!;
    const two = (await buildDetectionLists(syntheticFeeds(11))).model!;
    expect(one.predict('kaspinwin3.top').harm).toBe(two.predict('kaspinwin3.top').harm);
  });

  it('does not condemn a shared-hosting page on its name alone', async () => {
    const feeds = syntheticFeeds(5);
    feeds[0]!.entries.push(...Array.from({ length: 300 }, (_, i) => `zospinwin${i}.github.io/`));
    const engine = createUrlEngine(await buildDetectionLists(feeds));
    const verdict = engine.classifyRules('https://mispinwin999.github.io/');
    expect(verdict.isMalicious).toBe(false);
    expect(verdict.signals.some((s) => s.reason.includes('주소 모델'))).toBe(true);
  });
});

describe('training examples', () => {
  it('drops a popular mirror of a listed adult or gambling name from the clean examples, not the platforms phishing uses', async () => {
    const [gambling, clean] = syntheticFeeds(19);
    const hosts = (entries: string[]) => entries.map((e) => e.slice(0, -1));
    const train = async (extraClean: string[]) =>
      (await LexicalModel.train(
        new Map([
          ['gambling', [...hosts(gambling!.entries), 'spinpalace.com']],
          ['phishing', Array.from({ length: 150 }, (_, i) => `login-check${i}.github.io`)],
          ['clean', [...hosts(clean!.entries), ...extraClean]],
        ] as const),
        { epochs: 1 },
      ))!.info.examples.clean;
    const base = await train([]);
    // spinpalace.cam is the listed spinpalace.com under another suffix; github.com stays clean.
    expect(await train(['spinpalace.cam', 'spinpalace.run'])).toBe(base);
    expect(await train(['github.com'])).toBe(base + 1);
  });
});

describe('model levels', () => {
  it('calibrates a suspicious level below the threshold and refuses weights of another feature set', async () => {
    const model = (await buildDetectionLists(syntheticFeeds(13))).model!;
    expect(model.info.suspicious).toBeGreaterThan(0);
    expect(model.info.suspicious).toBeLessThanOrEqual(model.info.threshold);
    expect(LexicalModel.fromBytes(model.toBytes(), model.info)).toBeDefined();
    expect(LexicalModel.fromBytes(model.toBytes(), { ...model.info, features: undefined })).toBeUndefined();
  });

  it('between the suspicious level and the threshold, counts only when a rule other than the shape agrees', () => {
    const fake = (harm: number) =>
      ({
        info: { threshold: 0.99, suspicious: 0.9 },
        predict: () => ({ harm, category: 'adult', flagged: harm >= 0.99, evidence: ['babe'] }),
      }) as unknown as LexicalModel;
    const url = canonicalizeUrl('https://hotbabe.top/');
    const cheapTld: Signal = { category: 'generic', weight: 15, reason: 'cheap', shape: true };
    const word: Signal = { category: 'adult', weight: 15, reason: 'word' };
    expect(modelSignals(url, fake(0.95), [cheapTld])).toEqual([]);
    expect(modelSignals(url, fake(0.95), [cheapTld, word])).toEqual([expect.objectContaining({ category: 'adult', weight: 35 })]);
    expect(modelSignals(url, fake(0.995), [])).toEqual([expect.objectContaining({ weight: 50 })]);
    expect(modelSignals(url, fake(0.5), [word])).toEqual([]);
  });
});

describe('false positives that hurt Korean users', () => {
  const engine = createUrlEngine({ index: ListIndex.build(teamEntries()) });
  const clean = (url: string) => expect(engine.classifyRules(url), url).toMatchObject({ isMalicious: false });

  it('regional banks are not typos of KB or NH', () => {
    for (const url of [
      'https://www.jbbank.co.kr/',
      'https://www.kjbank.com/',
      'https://www.busanbank.co.kr/',
      'https://www.jejubank.co.kr/',
      'https://www.imbank.co.kr/',
    ])
      clean(url);
  });

  it('foreign government sites are not 정부24 impersonation', () => {
    for (const url of [
      'https://www.gov.uk/',
      'https://www.usa.gov/',
      'https://www.gov.pl/web/gov',
      'https://www.gob.mx/',
      'https://www.service-public.fr/',
      'https://gov.aniview.com/',
      'https://www.govt.nz/',
    ])
      clean(url);
    expect(engine.classifyRules('https://gov24-refund.com/login')).toMatchObject({ isMalicious: true, category: 'phishing' });
  });

  it('legitimate pages on shared hosting stay clean unless something specific says otherwise', () => {
    for (const url of [
      'https://vitejs.github.io/vite-plugin-react/',
      'https://team-handbook.notion.site/Onboarding-1a2b3c',
      'https://devlog.tistory.com/123',
      'https://blog.naver.com/travel_kim/223456789012',
      'https://my-portfolio.vercel.app/',
      'https://docs-site.pages.dev/guide/',
    ])
      clean(url);
    expect(engine.classifyRules('https://kakaobank-login.vercel.app/')).toMatchObject({ isMalicious: true, category: 'phishing' });
  });

  it('CDN host names that repeat a customer name are not brand impersonation', () => {
    for (const url of [
      'https://itunes-apple.com.akadns.net/',
      'https://paypal.com.cdn.cloudflare.net/',
      'https://m.media-amazon.com/images/x.jpg',
      'https://www.gstatic.com/',
    ])
      clean(url);
  });
});

describe('per-category thresholds', () => {
  it('spends the false-positive budget where it buys recall, never below the floor', () => {
    const examples: ScoredExample[] = [
      // Malware: its clean look-alikes score as high as its own examples.
      ...Array.from({ length: 50 }, (_, i): ScoredExample => ({ harm: 0.99 - i * 0.001, category: 'malware', label: 'clean' })),
      ...Array.from({ length: 20 }, (_, i): ScoredExample => ({ harm: 0.99 - i * 0.002, category: 'malware', label: 'malware' })),
      // Spam: one clean site above most of its examples.
      { harm: 0.97, category: 'spam', label: 'clean' },
      ...Array.from({ length: 20 }, (_, i): ScoredExample => ({ harm: 0.969 - i * 0.001, category: 'spam', label: 'spam' })),
      ...Array.from({ length: 900 }, (): ScoredExample => ({ harm: 0.6, category: 'adult', label: 'clean' })),
    ];
    const cuts = categoryThresholds(examples, 0.002, 0.9);
    expect(cuts.spam).toBeLessThan(0.951);
    expect(cuts.malware).toBeGreaterThan(0.98);
    expect(Object.values(cuts).every((cut) => cut >= 0.9)).toBe(true);
    const flagged = (category: 'spam' | 'malware') =>
      examples.filter((e) => e.label === 'clean' && e.category === category && e.harm >= cuts[category]).length;
    expect(flagged('spam') + flagged('malware')).toBeLessThanOrEqual(Math.floor(0.002 * 951));
  });

  it('a flagged name under a suffix only public bodies register only adds weight', () => {
    const model = {
      info: { threshold: 0.99, suspicious: 0.9 },
      predict: () => ({ harm: 0.995, category: 'malware', flagged: true, evidence: ['kemen'] }),
    } as unknown as LexicalModel;
    expect(modelSignals(canonicalizeUrl('https://kemendikbud.go.id/'), model, [])).toEqual([expect.objectContaining({ weight: 30 })]);
    expect(modelSignals(canonicalizeUrl('https://kemendikbud.top/'), model, [])).toEqual([expect.objectContaining({ weight: 50 })]);
  });
});
