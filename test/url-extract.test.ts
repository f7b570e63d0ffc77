import { describe, expect, it } from 'vitest';
import { extractUrls, MAX_SCAN_CHARS, MAX_URLS } from '../src/operations/url-scan/extract-urls.js';
import { messageParts } from '../src/operations/url-scan/message-parts.js';
import { MESSAGE_RULES, messageRulesSchema } from '../src/operations/url-scan/message-rules.js';

const urlsOf = (text: string | string[]) => extractUrls(text).urls;

describe('extractUrls: real-looking Korean SMS texts', () => {
  it.each([
    ['[Web발신]\n[CJ대한통운] 고객님 택배가 주소지 불일치로 반송 예정입니다. 택배주소확인http://x.kr/a 클릭', ['http://x.kr/a']],
    ['[로젠택배] 운송장번호 확인 bmk.ilogensn.com/abc 확인바랍니다', ['http://bmk.ilogensn.com/abc']],
    ['[국민건강보험] 건강검진 결과 통보서 발송 https://han.gl/RVeMq', ['https://han.gl/RVeMq']],
    ['[서울중앙지검] 사건번호 2023-123 사건조회 http://spo-go.kr.xyz/case?id=77 바로확인', ['http://spo-go.kr.xyz/case?id=77']],
    ['엄마 나 폰 액정 깨져서 임시폰이야 이거 좀 눌러줘 m04.x7hz.black', ['http://m04.x7hz.black/']],
    ['[우체국] 등기우편 2회 미배달 반송예정, 주소확인:www.epost-kr.top', ['http://www.epost-kr.top/']],
    ['모바일 청첩장 보내드려요♡ https://bit.ly/3abcDEF♡ 꼭 와주세요', ['https://bit.ly/3abcDEF']],
    ['[해외결제] 980,000원 승인완료. 본인 아닐 시 고객센터 문의 ▶ http://121.143.2.9:8080/cs', ['http://121.143.2.9:8080/cs']],
    ['하이패스 통행료 미납 안내 (https://ex-co.kr.hipass.click/pay).', ['https://ex-co.kr.hipass.click/pay']],
    ['같은 링크 두 번: http://han.gl/abc http://han.gl/abc, 그리고 HTTP://HAN.GL/abc', ['http://han.gl/abc']],
  ])('%s', (text, expected) => {
    expect(urlsOf(text)).toEqual(expected);
  });
});

describe('extractUrls: chat markup', () => {
  it("reads Slack's <url|label> (both the target and a link-looking label) and <url>", () => {
    expect(urlsOf('확인 <https://evil.example.com/login|https://www.kbstar.com> 또는 <http://b.co.kr/y>')).toEqual([
      'https://evil.example.com/login',
      'https://www.kbstar.com/',
      'http://b.co.kr/y',
    ]);
  });

  it('decodes Slack escapes inside a link', () => {
    expect(urlsOf('<https://a.com/p?x=1&amp;y=2>')).toEqual(['https://a.com/p?x=1&y=2']);
  });

  it('reads Markdown links and keeps balanced parentheses in a path', () => {
    expect(urlsOf('[여기](https://ko.wikipedia.org/wiki/Seoul_(city)) 참고.')).toEqual(['https://ko.wikipedia.org/wiki/Seoul_(city)']);
  });

  it('collects Discord embeds and Slack attachments and blocks', () => {
    const discord = {
      content: '이거 봐',
      embeds: [
        {
          url: 'https://embed.example.com/a',
          title: '제목',
          description: '설명 http://desc.example.net/b',
          fields: [{ name: 'x', value: 'c.example.org/c' }],
        },
      ],
    };
    expect(urlsOf(messageParts(discord))).toEqual(['https://embed.example.com/a', 'http://desc.example.net/b', 'http://c.example.org/c']);
    const slack = {
      text: '공유',
      attachments: [{ title_link: 'https://unfurl.example.com/x', fallback: 'f' }],
      blocks: [
        { type: 'rich_text', elements: [{ type: 'rich_text_section', elements: [{ type: 'link', url: 'https://block.example.com/y' }] }] },
      ],
    };
    expect(urlsOf(messageParts(slack))).toEqual(['https://unfurl.example.com/x', 'https://block.example.com/y']);
  });

  it('bounds the walk over a deeply nested payload', () => {
    let nested: Record<string, unknown> = { text: 'https://deep.example.com/' };
    for (let i = 0; i < 10_000; i++) nested = { child: nested };
    expect(messageParts(nested)).toEqual([]);
  });
});

describe('extractUrls: obfuscated links', () => {
  it.each([
    ['hxxps://evil[.]com/login', ['https://evil.com/login']],
    ['hXXp[:]//bad(.)co(.)kr/x', ['http://bad.co.kr/x']],
    ['evil[dot]net/x 와 evil{.}org/y', ['http://evil.net/x', 'http://evil.org/y']],
    ['ｈｔｔｐ：／／ｅｖｉｌ．ｋｒ／ａ 입니다', ['http://evil.kr/a']],
    ['주소: cjlogistics . com/track 또는 bit. ly/abc 감사합니다. 좋은 하루', ['http://cjlogistics.com/track', 'http://bit.ly/abc']],
    ['OCR이 읽은 글: https : / / ocr.example.kr/a', ['https://ocr.example.kr/a']],
    ['택배주소확인http://x.kr/a클릭', ['http://x.kr/a']],
    ['확인하세요bmk.ilogensn.com/abc지금', ['http://bmk.ilogensn.com/abc']],
    ['naver。com/abc', ['http://naver.com/abc']],
  ])('%s', (text, expected) => {
    expect(urlsOf(text)).toEqual(expected);
  });
});

describe('extractUrls: what is not a link', () => {
  it.each([
    '버전 v1.2.3 으로 업데이트했습니다. 파이는 3.14, 무게는 1.5kg',
    '문의는 help@naver.com 또는 cs.team@cjlogistics.com 으로 주세요',
    'Mr.Kim 안녕하세요. 오늘 회의는 10.30에 시작합니다',
    '첨부파일 report.zip, notes.md 와 setup.py 를 확인하세요',
    '감사합니다.좋은 하루 되세요. 내일 뵙겠습니다.',
    '[CJ대한통운] 고객님의 상품이 배송완료되었습니다. 문의 1588-1255',
    'IP는 192.168.0.1 이고 금액은 1.000.000원입니다',
    'e.g. 예를 들어 i.e. 즉',
    'a.b 와 x.y 는 변수 이름입니다',
    '',
  ])('%s', (text) => {
    expect(urlsOf(text)).toEqual([]);
  });

  it('keeps a bare two-label host only with a common ending', () => {
    expect(urlsOf('naver.com에서 검색, coz.ul3u.show 도 있음')).toEqual(['http://naver.com/', 'http://coz.ul3u.show/']);
  });
});

describe('extractUrls: bounds', () => {
  it(`returns at most ${MAX_URLS} and counts the rest`, () => {
    const text = Array.from({ length: 30 }, (_, i) => `https://site${i}.example.com/`).join(' ');
    const result = extractUrls(text);
    expect(result.urls).toHaveLength(MAX_URLS);
    expect(result.urls[0]).toBe('https://site0.example.com/');
    expect(result.found).toBe(30);
  });

  it('reads no more than the scan budget across parts', () => {
    const filler = 'ㄱ'.repeat(MAX_SCAN_CHARS);
    expect(extractUrls([filler, 'https://late.example.com/']).urls).toEqual([]);
  });

  it('answers hostile input (long label runs, e-mail-like runs, many dots) within the test timeout', () => {
    // Quadratic backtracking would take minutes here; the linear scan answers at once.
    const hostile = ['a'.repeat(MAX_SCAN_CHARS / 2), 'a.'.repeat(MAX_SCAN_CHARS / 8), '[.]'.repeat(1000)];
    expect(extractUrls(hostile).urls).toEqual([]);
  });

  it('skips a URL longer than 2048 characters', () => {
    expect(urlsOf(`https://long.example.com/${'a'.repeat(3000)}`)).toEqual([]);
  });
});

describe('message rules table', () => {
  it('loads and rejects a malformed entry', () => {
    expect(MESSAGE_RULES.organisations.length).toBeGreaterThan(10);
    const broken = { ...MESSAGE_RULES, shorteners: ['Not A Host'] };
    expect(messageRulesSchema.safeParse(broken).success).toBe(false);
  });
});

describe('extractUrls: what OCR does to links', () => {
  it('joins a dot read as a space before a known ending, and only then', () => {
    expect(urlsOf('http://ca05.n2yd wtf/abc 클릭')).toEqual(['http://ca05.n2yd.wtf/abc']);
    expect(urlsOf('http://xy08.h8qs. wtf 클릭')).toEqual(['http://xy08.h8qs.wtf/']);
    expect(urlsOf('http://xy08.h8qs. wtf\n클릭')).toEqual(['http://xy08.h8qs.wtf/']);
    expect(urlsOf('http://naver.com. wtf 글자')).toEqual(['http://naver.com/']);
    expect(urlsOf('https://ksch93 tistory.com/rss 클릭')).toEqual(['https://ksch93.tistory.com/rss']);
    expect(urlsOf('http://naver.com 에서 검색')).toEqual(['http://naver.com/']);
    expect(urlsOf('https://www.example.com and more')).toEqual(['https://www.example.com/']);
  });
});

describe('extractUrls: a host wrapped at the end of a line', () => {
  it('joins the parts when only the joined host has a known ending', () => {
    expect(urlsOf('확인 https://www.koreaher\nald.com/news 클릭')).toEqual(['https://www.koreaherald.com/news']);
    expect(urlsOf('https://www.naver.com\n다음 줄')).toEqual(['https://www.naver.com/']);
    expect(urlsOf('http://k17.d5km\n.wtf/ 클릭')).toEqual(['http://k17.d5km.wtf/']);
    expect(urlsOf('https://a.example.com\nb.example.org/x')).toEqual(['https://a.example.com/', 'http://b.example.org/x']);
  });

  it('joins a path wrapped to the next line (it starts with / or ?), and nothing else', () => {
    expect(urlsOf('F220lhttps://omoney.kbstar.com\n/quics?page=C034894 클릭')).toEqual(['https://omoney.kbstar.com/quics?page=C034894']);
    expect(urlsOf('https://a.example.com/x\n/y 클릭')).toEqual(['https://a.example.com/x/y']);
    expect(urlsOf('https://a.example.com\n/ 다음 줄')).toEqual(['https://a.example.com/']);
    expect(urlsOf('https://a.example.com\n다음 줄 /help')).toEqual(['https://a.example.com/']);
  });
});

describe('extractUrls: how Korean smishing writes links', () => {
  it('keeps Hangul in a short link’s path (phones link it), and stops at Hangul glued after any other character', () => {
    expect(urlsOf('[검찰] 사건조회 gourl.kr/사건조회KM 확인')).toEqual([`http://gourl.kr/${encodeURI('사건조회')}KM`]);
    expect(urlsOf('http://c11.kr/검찰사건조회QS')).toEqual([`http://c11.kr/${encodeURI('검찰사건조회')}QS`]);
    expect(urlsOf('택배주소확인http://x.kr/a클릭')).toEqual(['http://x.kr/a']);
  });

  it('reads a mistyped scheme and a two-label throw-away name with digits', () => {
    expect(urlsOf('http;//zuiw.eibx.miami 접속')).toEqual(['http://zuiw.eibx.miami/']);
    expect(urlsOf('cco5cc2x.tax 에서 확인')).toEqual(['http://cco5cc2x.tax/']);
    expect(urlsOf('Mr.Kim 과 file1.zip')).toEqual([]);
  });
});
