import { describe, expect, it } from 'vitest';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { createUrlEngine, HARMFUL_SCORE } from '../src/operations/url-detect/engine.js';
import { entryExpression } from '../src/operations/url-detect/lists/expressions.js';
import { expressionHash, ListIndex, type HarmCategory } from '../src/operations/url-detect/lists/list-index.js';
import { teamEntries } from '../src/operations/url-detect/lists/detection-lists.js';
import { phishingKitSignals, structureSignals } from '../src/operations/url-detect/rules/structure.js';
import { brandSignals, governmentSignals, vocabularySignals } from '../src/operations/url-detect/rules/words.js';
import { editDistance, skeleton } from '../src/operations/url-detect/rules/similarity.js';

const engine = createUrlEngine({ index: ListIndex.build(teamEntries()) });
const verdict = (url: string) => engine.classifyRules(url);
const categoriesOf = (signals: { category: string }[]) => [...new Set(signals.map((s) => s.category))];

function indexOf(entries: [string, HarmCategory, string?][]): ListIndex {
  return ListIndex.build(
    entries.map(([entry, category, source]) => ({
      hash: expressionHash(entryExpression(entry) ?? ''),
      category,
      source: source ?? 'test-feed',
    })),
  );
}

describe('vocabulary rules', () => {
  it('read romanized words glued into hosts, with and without hyphens', () => {
    const signals = vocabularySignals(canonicalizeUrl('https://gaein-don.xyz/'));
    expect(signals.map((s) => s.reason).join()).toContain("'gaeindon'");
    expect(categoriesOf(vocabularySignals(canonicalizeUrl('http://totosite79.com/')))).toEqual(['gambling']);
  });

  it('read Korean in IDN hosts and decoded paths', () => {
    expect(categoriesOf(vocabularySignals(canonicalizeUrl('https://먹튀검증.net/')))).toEqual(['gambling']);
    const path = vocabularySignals(canonicalizeUrl('https://example.org/%EC%95%BC%EB%8F%99'));
    expect(path).toEqual([expect.objectContaining({ category: 'adult', weight: 35 })]);
  });

  it('keep bounded words from matching inside innocent words', () => {
    expect(vocabularySignals(canonicalizeUrl('https://alphabet.com/'))).toEqual([]);
    expect(vocabularySignals(canonicalizeUrl('https://www.sussex.ac.uk/'))).toEqual([]);
    expect(vocabularySignals(canonicalizeUrl('https://totoro-fan.net/'))).toEqual([]);
    expect(categoriesOf(vocabularySignals(canonicalizeUrl('https://bet-kor.com/')))).toEqual(['gambling']);
  });

  it('weigh one ambiguous path word below the harmful line, several above it', () => {
    expect(verdict('https://mydev.tistory.com/entry/카지노-확률').isMalicious).toBe(false);
    const spamBlog = verdict('https://ad.tistory.com/entry/토토사이트-추천-먹튀검증-안전놀이터');
    expect([spamBlog.isMalicious, spamBlog.category]).toEqual([true, 'gambling']);
  });
});

describe('brand rules', () => {
  it('flag a brand name in a host the brand does not own', () => {
    const [first] = brandSignals(canonicalizeUrl('https://kakaotalk-security.com/'));
    expect(first).toMatchObject({ category: 'phishing', weight: 45 });
    expect(brandSignals(canonicalizeUrl('https://accounts.kakao.com/login'))).toEqual([]);
  });

  it('treat a brand on a shared hosting platform as impersonation', () => {
    expect(verdict('https://naver-login.github.io/').category).toBe('phishing');
    expect(verdict('https://team-kim.github.io/docs/').isMalicious).toBe(false);
  });

  it('catch typosquats within one or two edits, not the brand itself', () => {
    expect(editDistance('coupnag', 'coupang', 1)).toBe(1);
    expect(editDistance('naver', 'never', 1)).toBe(1);
    expect(brandSignals(canonicalizeUrl('https://coupnag.com/'))[0]?.weight).toBe(55);
    expect(brandSignals(canonicalizeUrl('https://www.coupang.com/'))).toEqual([]);
  });

  it('allow two edits only for long names that keep their first letter', () => {
    expect(brandSignals(canonicalizeUrl('https://wooribnakk.com/'))[0]?.reason).toContain("'wooribank'");
    expect(brandSignals(canonicalizeUrl('https://www.postbank.co.kr/'))).toEqual([]);
  });

  it('catch homoglyphs (Cyrillic letters, digits for letters)', () => {
    expect(skeleton('аррӏе')).toBe('apple');
    expect(skeleton('nav3r')).toBe('naver');
    expect(verdict('http://xn--80ak6aa92e.com/').category).toBe('phishing');
    expect(verdict('http://nav3r.com/login').category).toBe('phishing');
  });

  it('flag gov-named hosts outside go.kr, but not government itself or words like govtech', () => {
    expect(governmentSignals(canonicalizeUrl('http://gov24-kr.com/'))[0]?.weight).toBe(50);
    expect(governmentSignals(canonicalizeUrl('https://www.gov.kr/portal'))).toEqual([]);
    expect(governmentSignals(canonicalizeUrl('https://www.seoul.go.kr/'))).toEqual([]);
    expect(governmentSignals(canonicalizeUrl('https://www.govtech.com/'))).toEqual([]);
  });
});

describe('zero-hour rules for URLs on no list (issue 19)', () => {
  const harmful = (url: string, category: HarmCategory) =>
    expect(verdict(url), url).toMatchObject({ isMalicious: true, category, source: 'rules' });
  const clean = (url: string) => expect(verdict(url), url).toMatchObject({ isMalicious: false });

  it('read English adult and gambling words glued into names, and pairs of innocent words only together', () => {
    harmful('https://oldhotpussy.example/', 'adult');
    harmful('https://masturbators-club.example/', 'adult');
    harmful('https://hotbabesvids.example/', 'adult');
    harmful('https://wizbet.example/', 'gambling');
    harmful('https://betpanda.example/', 'gambling');
    harmful('https://ohmyzino.example/', 'gambling');
    harmful('https://luckyspinvegas.example/', 'gambling');
    expect(verdict('https://hotbabesvids.example/').reason).toContain("'hot'");
    // One innocent word alone is no verdict, nor are words that merely contain one.
    for (const url of [
      'https://www.hotels.com/',
      'https://goldenretriever.example/',
      'https://www.alphabet.com/',
      'https://betterhelp.com/',
      'https://www.lotto.co.kr/',
      'https://cocktail-bar.example/',
      'https://mypics.example/',
      'https://mature-investing.example/',
      'https://www.tibet.net/',
    ])
      clean(url);
  });

  it('do not read glued innocent pairs on shared hosting, where anyone picks any name', () => {
    clean('https://hot-babes.github.io/');
    harmful('https://hotbabes.example/', 'adult');
  });

  it('recognise phishing-kit paths: uploads into WordPress folders, login pages in subfolders, the victim address', () => {
    const reasons = (url: string) => phishingKitSignals(canonicalizeUrl(url)).map((s) => s.reason);
    expect(reasons('https://shop.example/wp-content/themes/tsl/0eaf7a4b1797499c62c4344acaae176b/address.php').join()).toContain(
      '워드프레스',
    );
    expect(reasons('https://site.example/wp-includes/CEO/rebrand/boxMrenewal.php').join()).toContain('워드프레스');
    expect(reasons('https://site.example/.well-known/pki/verify.php').join()).toContain('.well-known');
    expect(reasons('https://site.example/functions/auth/login.php').join()).toContain('login.php');
    expect(reasons('https://site.example/css/x/3mail@b.co').join()).toContain('이메일');
    harmful('https://site.example/wp-content/plugins/x/secure/login.php', 'phishing');
    // WordPress itself and ordinary pages are no kit.
    for (const url of [
      'https://blog.example/wp-admin/admin-ajax.php',
      'https://blog.example/wp-login.php',
      'https://blog.example/wp-admin/post.php',
      'https://blog.example/wp-content/uploads/2024/05/photo.jpg',
      'https://blog.example/wp-includes/js/jquery/jquery.min.js',
      'https://www.example.com/login.php',
      'https://www.example.com/account/settings',
    ]) {
      expect(phishingKitSignals(canonicalizeUrl(url)), url).toEqual([]);
      clean(url);
    }
  });

  it('name global phishing targets (wallets, exchanges, parcels) as impersonated brands, not their own domains', () => {
    harmful('https://coinbase-wallet-auth.example/', 'phishing');
    harmful('https://metamask-extension-restore.example/', 'phishing');
    harmful('https://trezor-start-login.example/', 'phishing');
    harmful('https://usps-redelivery.example/', 'phishing');
    for (const url of [
      'https://www.coinbase.com/',
      'https://metamask.io/',
      'https://trezor.io/start',
      'https://tools.usps.com/go/TrackConfirmAction',
    ])
      clean(url);
  });

  it('keep Korean gambling and adult slang working alongside the English words', () => {
    harmful('https://totosite79.com/', 'gambling');
    harmful('https://kbj-live.example/', 'adult');
  });
});

describe('structure rules', () => {
  const reasons = (url: string) =>
    structureSignals(canonicalizeUrl(url))
      .map((s) => s.reason)
      .join(' | ');

  it('flag IP hosts, private addresses and internal names', () => {
    expect(reasons('http://203.0.113.9/')).toContain('IP 주소');
    expect(verdict('http://10.0.0.5/admin')).toMatchObject({ isMalicious: true, category: 'malware' });
    expect(verdict('http://localhost:3000/')).toMatchObject({ isMalicious: true, category: 'malware' });
  });

  it('tell internal addresses from public ones in every way an address is written', () => {
    const internal = '사설 네트워크 또는 내부 주소';
    for (const url of [
      'http://100.64.1.2/',
      'http://172.20.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://[fd12:3456::1]/',
      'http://[fe80::1]/',
      'http://[::ffff:192.168.0.1]/',
      'http://[::ffff:a9fe:a9fe]/',
    ])
      expect(reasons(url), url).toContain(internal);
    for (const url of ['http://172.32.0.1/', 'http://[2001:4860:4860::8888]/', 'http://[::ffff:808:808]/', 'http://8.8.8.8/']) {
      expect(reasons(url), url).toContain('IP 주소');
      expect(reasons(url), url).not.toContain(internal);
    }
  });

  it('flag APK and executable downloads, which name the category even under a brand', () => {
    expect(reasons('https://x.example/app.apk')).toContain('APK');
    expect(reasons('https://x.example/a/setup.exe')).toContain('실행 파일(exe)');
    expect(verdict('https://kakao-update.com/KakaoTalk.apk').category).toBe('malware');
  });

  it("flag '@' tricks, cheap TLDs, deep subdomains, long hosts and shorteners", () => {
    expect(reasons('https://user@kakao.com@evil.top/')).toContain("'@'");
    expect(reasons('https://shop.xyz/')).toContain('.xyz');
    expect(reasons('https://a.b.c.d.example.com/')).toContain('4단계');
    expect(reasons(`https://${'a'.repeat(60)}.com/`)).toContain('매우 김');
    expect(reasons('https://bit.ly/3xK9pQz')).toContain('단축 URL');
    expect(verdict('https://bit.ly/3xK9pQz').isMalicious).toBe(false);
  });

  it('flag random-looking hosts and free Korean subdomain services', () => {
    expect(reasons('https://x8k2q9z7wv3.top/')).toContain('무작위');
    expect(reasons('https://anything.kro.kr/')).toContain('kro.kr');
  });
});

describe('decision', () => {
  it('answers clean for allowlisted first parties, even with alarming words', () => {
    for (const url of ['https://search.naver.com/search.naver?query=토토', 'https://namu.wiki/w/바카라', 'https://www.hometax.go.kr/x']) {
      expect(verdict(url)).toMatchObject({ isMalicious: false, category: 'clean', source: 'allowlist' });
    }
    expect(verdict('https://naver.com.secure-login.top/')).toMatchObject({ isMalicious: true, category: 'phishing' });
  });

  it('lets a list hit win over the score, in the list category', () => {
    const listed = createUrlEngine({ index: indexOf([['quiet-garden.com', 'malware']]) });
    expect(listed.classifyRules('https://www.quiet-garden.com/index.html')).toMatchObject({
      isMalicious: true,
      category: 'malware',
      source: 'list',
    });
    expect(listed.classifyRules('https://www.quiet-garden.com/').reason).toContain("'test-feed'");
  });

  it('never lets a whole-domain entry override the allowlist, but a page entry does', () => {
    const listed = createUrlEngine({
      index: indexOf([
        ['naver.com', 'adult'],
        ['github.com/evil/repo/raw/main/x.exe', 'malware'],
      ]),
    });
    expect(listed.classifyRules('https://www.naver.com/').isMalicious).toBe(false);
    expect(listed.classifyRules('https://github.com/evil/repo/raw/main/x.exe')).toMatchObject({ isMalicious: true, category: 'malware' });
    expect(listed.listCheck('https://www.naver.com/')).toBeUndefined();
  });

  it('ships team lists that catch well-known brands', () => {
    expect(verdict('https://www.pornhub.com/')).toMatchObject({ category: 'adult', source: 'list' });
    expect(verdict('https://testsafebrowsing.appspot.com/s/phishing.html')).toMatchObject({ category: 'phishing', source: 'list' });
  });

  it('names the strongest signals in Korean, and marks the harmful line', () => {
    const result = verdict('https://casino-king.xyz/event');
    expect(result.score).toBeGreaterThanOrEqual(HARMFUL_SCORE);
    expect(result.reason).toMatch(/^불법 도박 위험이 있는 URL입니다: .*'casino'.*\.xyz/);
    expect(verdict('https://www.example-startup.com/').reason).toBe('알려진 유해 신호가 발견되지 않았습니다.');
  });

  it('drops cached verdicts when the lists change', async () => {
    const local = createUrlEngine();
    expect((await local.classify('https://quiet-garden.com/')).isMalicious).toBe(false);
    const before = local.listVersion;
    local.setIndex(indexOf([['quiet-garden.com', 'spam']]));
    expect(local.listVersion).toBe(before + 1);
    expect(await local.classify('https://quiet-garden.com/')).toMatchObject({ isMalicious: true, category: 'spam' });
  });
});
