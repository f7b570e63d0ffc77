import { describe, expect, it } from 'vitest';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { learnShorteners, ShortCodeCounter } from '../src/operations/url-detect/expansion/learned-shorteners.js';
import { buildDetectionLists, FeedCompactor } from '../src/operations/url-detect/lists/detection-lists.js';
import { entryExpression, expressionHost } from '../src/operations/url-detect/lists/expressions.js';
import { parseFeedSpecs } from '../src/operations/url-detect/lists/feeds.js';
import { lookalikeSignals } from '../src/operations/url-detect/rules/lookalike.js';
import { describeLearnedModels } from '../src/operations/url-detect/learned-model-info.js';
import { learnedModelRegistry } from '../src/platform/learned-models.js';

const NOW = new Date('2026-11-28T06:00:00.000Z');

/** Counts reported URLs as the feed store does (each through its list expression). */
function countLinks(urls: readonly string[]): string {
  const counter = new ShortCodeCounter();
  for (const url of urls) {
    const expression = entryExpression(url)!;
    counter.add(expressionHost(expression), expression);
  }
  return counter.finish();
}

describe('shorteners learned from the feeds (issue 50 item 6)', () => {
  it('learns a registered domain whose reported links are distinct short opaque codes', () => {
    const links = countLinks([
      'http://newshort.kr/Ab3dE',
      'http://newshort.kr/x9Kq2',
      'https://www.newshort.kr/7TzQw',
      // A kit's pages under one throw-away sub-domain, word-like slugs and folders are no codes.
      'http://a1.kitdomain.xyz/Ab3dE',
      'http://a1.kitdomain.xyz/x9Kq2',
      'http://a1.kitdomain.xyz/7TzQw',
      'http://blog.example.com/event',
      'http://shop.example.com/login',
      'http://shop.example.com/path/Ab3dE',
      'http://tiny.example.net/Qw12e',
      'http://tiny.example.net/Qw12e',
      // A shipped shortener is known already: not learned again.
      'https://han.gl/Ab3dE',
      'https://han.gl/x9Kq2',
      'https://han.gl/7TzQw',
    ]);
    const learned = learnShorteners([links], NOW);
    expect([...learned.hosts]).toEqual(['newshort.kr']);
    expect(learned.trainedAt).toBe('2026-11-28T06:00:00.000Z');
    // Two codes on tiny.example.net are not enough, and a code repeated counts once.
    expect(learnShorteners([countLinks(['http://tiny.example.net/Qw12e', 'http://tiny.example.net/Zx34r'])], NOW).hosts.size).toBe(0);
    // Counted per feed, summed across feeds.
    const two = countLinks(['http://other.kr/Ab3dE', 'http://other.kr/x9Kq2']);
    const one = countLinks(['http://other.kr/7TzQw']);
    expect([...learnShorteners([two, one], NOW).hosts]).toEqual(['other.kr']);
  });

  it('loads with the lists: a learned shortener’s link hides its target, its host is no smishing example, the engine names it', async () => {
    const reports = ['Ab3dE', 'x9Kq2', '7TzQw', 'Pq81z'].map((code) => `http://newshort.kr/${code}`);
    const lists = await buildDetectionLists(
      [{ name: 'kisa-test', category: 'phishing', entries: reports.map((u) => entryExpression(u)!) }],
      {
        model: false,
        now: () => NOW,
      },
    );
    expect([...(lists.shorteners?.hosts ?? [])]).toEqual(['newshort.kr']);
    const engine = createUrlEngine(lists);
    const verdict = engine.classifyRules('http://newshort.kr/Zz99y');
    expect(verdict.signals.map((s) => s.reason)).toContain(
      '단축 URL이라 최종 목적지를 확인할 수 없음(신고된 링크로 알아낸 단축 URL 서비스 newshort.kr)',
    );
    // The link alone is not condemned, nor the shortener's root.
    expect(verdict.isMalicious).toBe(false);
    expect(engine.classifyRules('http://newshort.kr/').signals).toEqual([]);
    expect(engine.shortenerOf('www.newshort.kr')).toBe('newshort.kr');
    expect(engine.shortenerOf('han.gl')).toBe('han.gl');
    expect(engine.shortenerOf('example.com')).toBeUndefined();
  });

  it('keeps the learned codes with a compacted feed (stored with its other chunks)', () => {
    const compactor = new FeedCompactor('kisa-test', 'phishing');
    for (const code of ['Ab3dE', 'x9Kq2', '7TzQw']) compactor.add(entryExpression(`http://newshort.kr/${code}`)!);
    expect(compactor.finish().shortLinks).toBe('newshort.kr\t3');
  });
});

describe('look-alikes of Korean exchanges and card companies (issue 50 item 6)', () => {
  const brandOf = (url: string) => lookalikeSignals(canonicalizeUrl(url))[0]?.reason ?? '';

  it('reads exchanges’ and card companies’ names glued to meaningless letters, never their own domains', () => {
    expect(brandOf('http://coinonekr.com/')).toContain('코인원');
    expect(brandOf('http://upbitkr.com/login')).toContain('업비트');
    expect(brandOf('http://bithumbs.com/')).toContain('빗썸');
    expect(brandOf('http://korbitx.com/')).toContain('코빗');
    expect(brandOf('http://shinhancardm.com/')).toContain('신한카드');
    expect(brandOf('http://kbcardsm.com/')).toContain('KB국민카드');
    expect(brandOf('http://wooricardk.com/')).toContain('우리카드');
    expect(brandOf('http://hanacardz.com/')).toContain('하나카드');
    expect(brandOf('http://lottecardx.com/')).toContain('롯데카드');
    expect(brandOf('http://nhcardpm.com/')).toContain('NH농협카드');
    for (const own of [
      'https://coinone.co.kr/',
      'https://upbit.com/',
      'https://www.bithumb.com/',
      'https://www.korbit.co.kr/',
      'https://www.shinhancard.com/',
      'https://card.kbcard.com/',
      'https://www.lottecard.co.kr/',
      'https://card.nonghyup.com/',
    ])
      expect(lookalikeSignals(canonicalizeUrl(own))).toEqual([]);
  });
});

describe('no configuration switches a learned model off silently (CONTRACT §5)', () => {
  it('keeps the built-in clean reference when URL_LIST_FEEDS names no clean feed, and says so', () => {
    const specs = parseFeedSpecs('mine=phishing:domains:https://lists.example/phish.txt');
    expect(specs.feeds.map((f) => [f.name, f.category])).toEqual([
      ['mine', 'phishing'],
      ['umbrella-top', 'clean'],
    ]);
    expect(specs.notices?.[0]).toContain('URL_LIST_FEEDS has no clean feed: the built-in clean reference (umbrella-top) is kept');
    const own = parseFeedSpecs('mine=phishing:domains:https://lists.example/p.txt, top=clean:domains:https://lists.example/top.txt');
    expect(own.feeds.map((f) => f.name)).toEqual(['mine', 'top']);
    expect(own.notices).toEqual([]);
  });

  it('lists the URL models, trained or not, in the runtime’s registry', () => {
    const untrained = describeLearnedModels({ model: undefined, smishingModel: undefined, learnedShorteners: undefined });
    expect(untrained).toEqual([
      { name: 'url-host-model', trained: false, examples: 0, trained_at: null },
      { name: 'url-smishing-model', trained: false, examples: 0, trained_at: null },
      { name: 'url-shorteners', trained: false, examples: 0, trained_at: null },
    ]);
    const registry = learnedModelRegistry([
      () => untrained,
      () => [{ name: 'message-model', trained: true, examples: 10, trained_at: NOW.toISOString() }],
    ]);
    expect(registry.list().map((m) => m.name)).toEqual(['url-host-model', 'url-smishing-model', 'url-shorteners', 'message-model']);
  });
});
