import { describe, expect, it } from 'vitest';
import { assembleDetectionLists, FeedCompactor } from '../src/operations/url-detect/lists/detection-lists.js';
import { entryExpression } from '../src/operations/url-detect/lists/expressions.js';
import {
  expressionHash,
  HashCollector,
  hashesFromBytes,
  hashesToBytes,
  HashSet64,
  ListIndex,
} from '../src/operations/url-detect/lists/list-index.js';

const expression = (entry: string) => entryExpression(entry) ?? '';

describe('compact list index (sorted 64-bit hashes)', () => {
  it('collects hashes sorted and without duplicates, and round-trips them through bytes', () => {
    const collector = new HashCollector();
    for (const name of ['b.com/', 'a.com/', 'b.com/', 'c.com/', 'a.com/']) collector.add(name);
    const hashes = collector.finish();
    expect(hashes.length).toBe(3);
    expect([...hashes]).toEqual([...hashes].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
    expect([...hashes].sort()).toEqual(['a.com/', 'b.com/', 'c.com/'].map(expressionHash).sort());
    // Through a Buffer at an odd offset, as the database driver may hand it back.
    const bytes = Buffer.concat([Buffer.from([7]), hashesToBytes(hashes)]).subarray(1);
    expect([...hashesFromBytes(bytes)]).toEqual([...hashes]);
    const set = HashSet64.of(hashes);
    expect(set.has('b.com/')).toBe(true);
    expect(set.has('d.com/')).toBe(false);
  });

  it('uses all 64 bits: hashes differing only in their top bits are different entries', () => {
    const high = expressionHash('x.test/');
    const flipped = high ^ (1n << 63n);
    const index = ListIndex.build([
      { hash: flipped, category: 'gambling', source: 'a' },
      { hash: high ^ (1n << 50n), category: 'gambling', source: 'a' },
    ]);
    expect(index.lookup(['x.test/'])).toEqual([]);
    expect(ListIndex.build([{ hash: high, category: 'gambling', source: 'a' }]).lookup(['x.test/'])).toHaveLength(1);
  });

  it('merges feeds: an expression on several lists hits each, gravest first, and an exception frees only its own feed', async () => {
    const gambling = new FeedCompactor('g', 'gambling');
    const phishing = new FeedCompactor('p', 'phishing');
    const spam = new FeedCompactor('s', 'spam');
    for (let i = 0; i < 5000; i++) gambling.add(expression(`bet${i}.example`));
    gambling.add(expression('shared.example'));
    phishing.add(expression('shared.example'));
    phishing.add(expression('login.example/secure'));
    spam.add(expression('shared.example'));
    spam.add(expression('shared.example'), true);
    const lists = await assembleDetectionLists([gambling.finish(), phishing.finish(), spam.finish()], { model: false });
    expect(lists.index.lookup([expression('shared.example')]).map((hit) => [hit.category, hit.source])).toEqual([
      ['phishing', 'p'],
      ['gambling', 'g'],
    ]);
    expect(lists.index.lookup([expression('bet4321.example')])).toMatchObject([{ category: 'gambling', source: 'g' }]);
    expect(lists.index.lookup([expression('login.example/secure/')])).toMatchObject([{ category: 'phishing' }]);
    expect(lists.index.lookup([expression('bet5001.example')])).toEqual([]);
  });

  it('keeps of a clean feed only its registrable domains (popular), never as list entries', async () => {
    const clean = new FeedCompactor('top', 'clean');
    clean.add(expression('www.news.example.co.kr'));
    clean.add(expression('mail.news.example.co.kr'));
    const feed = clean.finish();
    expect(feed.entries).toBe(2);
    expect(feed.hashes.length).toBe(1);
    const lists = await assembleDetectionLists([feed], { model: false });
    expect(lists.popular?.has('example.co.kr')).toBe(true);
    expect(lists.index.lookup([expression('www.news.example.co.kr')])).toEqual([]);
  });
});
