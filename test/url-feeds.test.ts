import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildDetectionLists } from '../src/operations/url-detect/lists/detection-lists.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { parseFeed, parseFeedSpecs, type FeedFormat } from '../src/operations/url-detect/lists/feeds.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/url-lists/${name}`, import.meta.url));

describe('feed formats as public lists publish them', () => {
  it('adblock: ||host^ with options, host/path rules, |url| anchors, @@ exceptions; cosmetic and page-scoped rules carry nothing', () => {
    const parsed = parseFeed(fixture('phishing.adblock'), 'adblock');
    expect([...parsed.entries]).toEqual([
      'login-verify-account.example/',
      'pages-host.example/view/fake-bank-kr/',
      'tracker-only.example/',
      'shared-space.example/u/alice/',
      'mail-check.example/owa/auth.html/',
    ]);
    expect([...parsed.exceptions]).toEqual(['shared-space.example/u/alice/help/']);
    // `/banner/*/img^` is a pattern, not a host: reported, not guessed.
    expect(parsed.skipped).toBe(1);
    expect(parsed.skippedSamples).toEqual(['/banner/*/img^']);
  });

  it('plain lists: BOM, CRLF, trailing dots, wildcards, ports, Unicode names, host/path; a mid-name wildcard is skipped', () => {
    const parsed = parseFeed(gzipSync(fixture('messy-domains.txt')), 'domains');
    expect([...parsed.entries]).toEqual([
      'free-coupon-spam.example/',
      'wild-card-spam.example/',
      'dot-prefixed-spam.example/',
      'port-spam.example/',
      'xn--bj0bl50b17lt5b.example/',
      'mixed-case-spam.example/',
      'path-spam.example/en/',
    ]);
    expect(parsed.skippedSamples).toEqual(['ads.*.broken-wildcard.example']);
  });

  it('CSV (URLhaus): the first field holding a URL, the header and comments skipped', () => {
    expect([...parseFeed(fixture('urlhaus.csv'), 'csv').entries]).toEqual([
      '203.0.113.77/bins/arm7/',
      'dl-files.example/update/setup.exe/',
    ]);
  });

  it('hosts files name hosts; URL lists name pages', () => {
    expect([...parseFeed(fixture('adult.hosts'), 'hosts').entries]).toEqual([
      '=velvet-evenings.com/',
      '=midnight-gallery.net/',
      '=silk-room.org/',
    ]);
    expect(parseFeed(Buffer.from('0.0.0.0 a.example b.example\n'), 'hosts').entries.size).toBe(2);
    expect([...parseFeed(fixture('urlhaus-online.txt'), 'urls').entries]).toContain('198.51.100.23/bins/Mozi.m/');
  });
});

describe('matching as list authors mean it', () => {
  async function engineWith(feeds: [string, FeedFormat, string][]) {
    const loaded = feeds.map(([name, format, file]) => {
      const parsed = parseFeed(fixture(file), format);
      return {
        name,
        category: name === 'adult' ? ('adult' as const) : name === 'malware' ? ('malware' as const) : ('phishing' as const),
        entries: parsed.entries,
        exceptions: parsed.exceptions,
      };
    });
    return createUrlEngine(await buildDetectionLists(loaded, { model: false }));
  }

  it('a domain entry covers its subdomains; a host entry that host (and www.); a URL entry that page and pages under it', async () => {
    const engine = await engineWith([
      ['phish', 'adblock', 'phishing.adblock'],
      ['spam', 'domains', 'messy-domains.txt'],
      ['adult', 'hosts', 'adult.hosts'],
      ['malware', 'csv', 'urlhaus.csv'],
    ]);
    const listed = (url: string) => engine.listCheck(url)?.isMalicious ?? false;
    expect(listed('https://m.login-verify-account.example/x')).toBe(true);
    expect(listed('https://velvet-evenings.com/')).toBe(true);
    expect(listed('https://www.velvet-evenings.com/page')).toBe(true);
    expect(listed('https://cdn.velvet-evenings.com/')).toBe(false);
    expect(listed('https://path-spam.example/en')).toBe(true);
    expect(listed('https://path-spam.example/en/')).toBe(true);
    expect(listed('https://path-spam.example/en/about?x=1')).toBe(true);
    expect(listed('https://path-spam.example/english')).toBe(false);
    expect(listed('https://path-spam.example/')).toBe(false);
    expect(listed('https://pages-host.example/view/fake-bank-kr')).toBe(true);
    expect(listed('https://pages-host.example/view/someone-else')).toBe(false);
    expect(listed('https://mail-check.example/owa/auth.html')).toBe(true);
    expect(listed('http://203.0.113.77:4455/bins/arm7')).toBe(true);
    expect(listed('https://port-spam.example:8443/')).toBe(true);
    expect(listed('https://한글스팸.example/')).toBe(true);
    expect(listed('https://FREE-COUPON-SPAM.example./deal')).toBe(true);
    expect(listed('https://a.b.wild-card-spam.example/')).toBe(true);
    // The @@ exception of the same list frees that page only.
    expect(listed('https://shared-space.example/u/alice/profile')).toBe(true);
    expect(listed('https://shared-space.example/u/alice/help/faq')).toBe(false);
  });
});

describe('URL_LIST_FEEDS', () => {
  it('reads entries, and reports and skips the ones it cannot use instead of dropping them all', () => {
    const specs = parseFeedSpecs(
      'gb=gambling:domains:https://x.test/d, malware:csv:https://y.test/u, bad=phishing:xml:https://z.test/, top=clean:domains:https://t.test/',
    );
    expect(specs.feeds).toEqual([
      { name: 'gb', category: 'gambling', format: 'domains', url: 'https://x.test/d' },
      { name: 'feed-2', category: 'malware', format: 'csv', url: 'https://y.test/u' },
      { name: 'top', category: 'clean', format: 'domains', url: 'https://t.test/' },
    ]);
    expect(specs.problems).toEqual([expect.stringContaining("알 수 없는 형식 'xml'")]);
    expect(parseFeedSpecs('weather:domains:https://x.test/').problems[0]).toContain("알 수 없는 분류 'weather'");
    const defaults = parseFeedSpecs(undefined).feeds;
    for (const category of ['spam', 'gambling', 'adult', 'phishing', 'malware', 'clean']) {
      expect(defaults.some((feed) => feed.category === category)).toBe(true);
    }
  });
});
