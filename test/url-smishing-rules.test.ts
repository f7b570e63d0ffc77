import { describe, expect, it } from 'vitest';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { teamEntries } from '../src/operations/url-detect/lists/detection-lists.js';
import { ListIndex } from '../src/operations/url-detect/lists/list-index.js';
import { lookalikeSignals } from '../src/operations/url-detect/rules/lookalike.js';
import { vocabularySignals } from '../src/operations/url-detect/rules/words.js';
import { letterPairScore, randomLabelSignals } from '../src/operations/url-detect/rules/random-labels.js';

// Rules only (no feeds, no model): the offline default.
const engine = createUrlEngine({ index: ListIndex.build(teamEntries()) });
const verdict = (url: string) => engine.classifyRules(url);
const lookalike = (url: string) => lookalikeSignals(canonicalizeUrl(url));

describe('Korean brand look-alikes in registered domains (issue 31 item 4)', () => {
  it('calls a carrier’s name glued to meaningless letters harmful, with a Korean reason naming the brand', () => {
    const cj = verdict('http://www.cjlogisticss.com/8hzuf0');
    expect([cj.isMalicious, cj.category]).toEqual([true, 'phishing']);
    expect(cj.reason).toContain("CJ대한통운의 이름('cjlogistics')에 의미 없는 글자('s')를 붙인 도메인");
    // A stem that is too common to match inside hosts (`lotte`) still starts a look-alike.
    expect(verdict('http://kmg.lottegskkm.com/')).toMatchObject({ isMalicious: true, category: 'phishing' });
    expect(verdict('http://kdm.lguplusm.com/').reason).toContain('LG유플러스');
  });

  it('reads a pronounceable rest as a look-alike only beside a random sub-domain label', () => {
    expect(verdict('http://vds.ilogenis.com/').isMalicious).toBe(true);
    expect(lookalike('https://www.ilogenis.com/')).toEqual([]);
    expect(lookalike('https://cdn.kakaoent.com/')).toEqual([]);
  });

  it('catches a one-letter misspelling of a long name followed by letters, keeping its first letter', () => {
    const [signal] = lookalike('http://mkg.ilogekonk.com/');
    expect(signal?.reason).toContain("로젠택배의 이름('ilogen')을 한 글자 틀리게 쓴 유사 도메인");
    expect(lookalike('https://policytech.com/')).toEqual([]);
  });

  it('beside a batch sub-domain label, also takes a short name misspelt, the misspelling alone, and a rest with vowels', () => {
    const misspelt = lookalike('http://vdk.logesk.com/');
    expect(misspelt[0]?.reason).toContain("로젠택배의 이름('logen')을 한 글자 틀리게 쓴 유사 도메인");
    expect(lookalike('http://kko.iilogen.com/')[0]?.reason).toContain("'iilogen'으로 시작");
    expect(lookalike('http://mkg.ilogenoni.com/')[0]?.reason).toContain("로젠택배의 이름('ilogen')에 의미 없는 글자('oni')");
    // Without the batch label the same names are ordinary words or somebody's site.
    for (const url of ['https://www.logesk.com/', 'https://iilogen.com/', 'https://ilogenoni.com/', 'https://api.logesk.com/']) {
      expect(lookalike(url), url).toEqual([]);
    }
  });

  it('never flags the brand’s own domains, other words, or names that only contain a stem', () => {
    for (const url of [
      'https://www.ilogen.com/web/personal/tkSearch',
      'https://www.lotteon.com/',
      'https://www.kakaoent.com/en',
      'https://logentries.com/',
      'https://www.charlotte.edu/',
      'https://samsungknox.com/',
    ]) {
      expect(lookalike(url), url).toEqual([]);
      expect(verdict(url).isMalicious, url).toBe(false);
    }
  });
});

describe('random campaign labels (issue 31 item 4)', () => {
  it('scores letters no ordinary name strings together below pronounceable ones', () => {
    expect(letterPairScore('agdfv')).toBeLessThan(letterPairScore('naver'));
    expect(letterPairScore('qngcb')).toBeLessThan(letterPairScore('coupang'));
  });

  it('decides on a random sub-domain on a random name (issue 50), and weighs a numbered batch label on a digit-among-letters name short of a verdict alone', () => {
    const [both] = randomLabelSignals(canonicalizeUrl('http://vyosq.agdfv.com/'));
    expect(both).toMatchObject({ category: 'phishing', weight: 50 });
    expect(both?.reason).toContain('무작위 글자');
    expect(verdict('http://vyosq.agdfv.com/').isMalicious).toBe(true);
    const [numbered] = randomLabelSignals(canonicalizeUrl('http://xb05.h9ts.wtf/'));
    expect(numbered).toMatchObject({ category: 'phishing', weight: 25 });
    expect(verdict('http://xb05.h9ts.wtf/').isMalicious).toBe(false);
  });

  it('reads a name of bulk text sending beside a batch sub-domain label as a smishing host (issue 50), never an SMS service’s own site', () => {
    const sms = verdict('http://qzk.textsmsgo.com/');
    expect([sms.isMalicious, sms.category]).toEqual([true, 'phishing']);
    expect(sms.reason).toContain("문자 발송을 뜻하는 이름('sms')의 도메인(textsmsgo.com)에 무작위 하위 도메인('qzk')");
    expect(verdict('http://mk.munjamall.com/').isMalicious).toBe(true);
    for (const url of [
      'https://www.textsmsgo.com/',
      'https://api.textsmsgo.com/send',
      'https://textsmsgo.com/',
      'https://qzk.example.com/',
    ])
      expect(verdict(url).isMalicious, url).toBe(false);
  });

  it('leaves ordinary hosts alone', () => {
    for (const url of [
      'https://www.naver.com/',
      'https://blog.example.com/',
      'https://api.github.com/',
      'https://ns01.cloudns.net/',
      'https://sub.kakao.co.kr/',
    ]) {
      expect(randomLabelSignals(canonicalizeUrl(url)), url).toEqual([]);
    }
  });
});

describe('Korean smishing words in paths (issue 31 item 4)', () => {
  it('names the word a prosecutor or parcel lure puts in the link, as weight only', () => {
    const signals = vocabularySignals(canonicalizeUrl('https://example.org/%EC%82%AC%EA%B1%B4%EC%A1%B0%ED%9A%8C?no=1'));
    expect(signals).toEqual([expect.objectContaining({ category: 'phishing', weight: 10 })]);
    expect(signals[0]?.reason).toContain("경로에 계정·인증 유도 용어('사건조회')");
  });
});
