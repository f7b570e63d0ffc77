import { describe, expect, it } from 'vitest';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { buildDetectionLists } from '../src/operations/url-detect/lists/detection-lists.js';
import { DomainFamilies, FamilyCollector, familySignals, familyStem } from '../src/operations/url-detect/model/domain-families.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';

/** Made-up names only (no real list's entries): they pin the behaviour, `npm run eval:urls` measures it. */

/** A feed's family lines, as the compactor collects them. */
function lines(...hosts: string[]): string {
  const collector = new FamilyCollector();
  for (const host of hosts) collector.add(host);
  return collector.finish();
}
describe('family stems', () => {
  it('reads a rotated name as the same stem: other number, other suffix, hyphen or not', () => {
    expect(familyStem('www.Zorba-Slots12.com')).toBe('zorbaslots#');
    expect(familyStem('zorbaslots7.net')).toBe('zorbaslots#');
    expect(familyStem('zorbaslots2031.co.kr')).toBe('zorbaslots#');
    expect(familyStem('zorbaslots.xyz')).toBe('zorbaslots');
    expect(familyStem('9zorba9slots9.top')).toBe('#zorba#slots#');
  });

  it('collects one line a stem, with a second listed domain when the name already rotates', () => {
    expect(
      lines('www.zorbaslots.com', 'zorbaslots.com', 'zorba-slots.net', 'zorbaslots.top', 'clips.zorbaslots.org', 'quillotoya7.net'),
    ).toBe('zorbaslots\tzorbaslots.com\tzorba-slots.net\nquillotoya#\tquillotoya7.net');
  });

  it('has no stem for short names, IPs and hosts on shared hosting (anyone registers there)', () => {
    expect(familyStem('abcd12.com')).toBeUndefined();
    expect(familyStem('10.1.2.3')).toBeUndefined();
    expect(familyStem('zorbaslots12.github.io')).toBeUndefined();
    expect(familyStem('zorbaslots12.blogspot.com')).toBeUndefined();
  });
});

describe('domain families of the loaded lists', () => {
  const feeds = () => [
    {
      name: 'syn-gambling',
      category: 'gambling' as const,
      entries: ['zorbaslots12.com/', '=www.quillotoya-7.net/', 'hackedflorist.com/wp-admin/x/pay.php', 'riverpaper77.com/'],
    },
    { name: 'syn-adult', category: 'adult' as const, entries: ['=velvetnookz01.xyz/'] },
    { name: 'syn-phishing', category: 'phishing' as const, entries: ['megabankverify3.top/'] },
    { name: 'syn-clean', category: 'clean' as const, entries: ['riverpaper.com/', 'www.coffeegarden.com/'] },
  ];

  it("flags the listed site's next domain, naming the listed relative in Korean", async () => {
    const engine = createUrlEngine(await buildDetectionLists(feeds(), { model: false }));
    const next = engine.classifyRules('https://zorbaslots13.net/event');
    expect(next).toMatchObject({ isMalicious: true, category: 'gambling', source: 'rules' });
    expect(next.reason).toContain('목록에 오른 불법 도박 주소(zorbaslots12.com)와 이름이 같은 계열');
    expect(engine.classifyRules('https://m.quillotoya8.shop/').category).toBe('gambling');
    expect(engine.classifyRules('https://velvetnookz02.xyz/').category).toBe('adult');
    // Not on the list itself: only the family says so.
    expect(engine.listCheck('https://zorbaslots13.net/event')).toBeUndefined();
  });

  it('makes no family of a stem the clean feed uses, of a listed page, or of a phishing name (the victim brand)', async () => {
    const engine = createUrlEngine(await buildDetectionLists(feeds(), { model: false }));
    expect(engine.classifyRules('https://riverpaper78.com/').isMalicious).toBe(false);
    expect(engine.classifyRules('https://hackedflorist.net/').isMalicious).toBe(false);
    expect(engine.classifyRules('https://megabankverify4.top/').isMalicious).toBe(false);
    expect(engine.classifyRules('https://coffeegarden.com/').isMalicious).toBe(false);
  });

  it('condemns alone only a family that rotates; one listed name under another suffix only adds weight', async () => {
    const lists = await buildDetectionLists(
      [
        {
          name: 'syn-adult',
          category: 'adult' as const,
          entries: ['=plumorchidtv.com/', '=www.plumorchidtv.com/', '=clips.bigvideoz.com/'],
        },
        { name: 'syn-spam', category: 'spam' as const, entries: ['tealharborshop.top/', 'teal-harbor-shop.cyou/', 'mintparcel7.top/'] },
      ],
      { model: false },
    );
    const engine = createUrlEngine(lists);
    const single = engine.classifyRules('https://plumorchidtv.net/');
    expect(single.isMalicious).toBe(false);
    expect(single.signals).toMatchObject([{ category: 'adult', weight: 35 }]);
    // Scam shops wear the brands they fake: for spam a second suffix is no rotation, a number is.
    expect(engine.classifyRules('https://tealharborshop.store/').signals).toMatchObject([{ category: 'spam', weight: 35 }]);
    expect(engine.classifyRules('https://mintparcel8.shop/')).toMatchObject({ isMalicious: true, category: 'spam' });
    // Two adult lists naming one name under two suffixes: it rotates.
    const adultOnly = createUrlEngine(
      await buildDetectionLists(
        [
          { name: 'syn-adult', category: 'adult' as const, entries: ['=plumorchidtv.com/'] },
          { name: 'syn-adult-2', category: 'adult' as const, entries: ['=plumorchidtv.org/'] },
        ],
        { model: false },
      ),
    );
    expect(adultOnly.classifyRules('https://plumorchidtv.net/')).toMatchObject({ isMalicious: true, category: 'adult' });
    // A listed subdomain names a host, not its parent's family.
    expect(lists.families?.lookup('bigvideoz.net')).toBeUndefined();
  });

  it('makes no family of a name that is one word of the harm vocabularies (a lottery site is no relative of a listed lotto.xyz)', async () => {
    const families = await DomainFamilies.build([{ category: 'gambling', text: lines('lotto.xyz', 'lotto.bet', 'casino77.top') }], []);
    expect(families.lookup('lotto.co.kr')).toBeUndefined();
    expect(families.lookup('casino78.net')).toBeUndefined();
  });

  it('only adds weight under a suffix public bodies register', async () => {
    const families = await DomainFamilies.build([{ category: 'gambling', text: lines('zorbaslots12.com') }], []);
    expect(familySignals(canonicalizeUrl('https://zorbaslots3.go.kr/'), families)).toMatchObject([{ weight: 30 }]);
    expect(familySignals(canonicalizeUrl('https://zorbaslots3.kr/'), families)).toMatchObject([{ weight: 50, category: 'gambling' }]);
    expect(familySignals(canonicalizeUrl('https://1.2.3.4/'), families)).toEqual([]);
  });

  it('keeps the first category of a stem two lists share, and is empty without feeds', async () => {
    const families = await DomainFamilies.build(
      [
        { category: 'adult', text: lines('velvetnookz01.xyz') },
        { category: 'spam', text: lines('velvetnookz99.com', 'parcelquickrefund.top') },
      ],
      [],
    );
    expect(families.size).toBe(2);
    expect(families.lookup('velvetnookz5.net')).toEqual({
      category: 'adult',
      relative: 'velvetnookz01.xyz',
      stem: 'velvetnookz#',
      rotates: true,
    });
    expect(families.lookup('parcel-quick-refund.shop')?.relative).toBe('parcelquickrefund.top');
    expect(families.lookup('parcelquick.shop')).toBeUndefined();
    expect(DomainFamilies.empty().lookup('velvetnookz5.net')).toBeUndefined();
  });
});
