import { describe, expect, it } from 'vitest';
import { buildDetectionLists } from '../src/operations/url-detect/lists/detection-lists.js';
import { createUrlEngine } from '../src/operations/url-detect/engine.js';
import { parseFeed } from '../src/operations/url-detect/lists/feed-parse.js';

/** Entries mean what their authors meant (issue 31 item 2), on a feed written as KISA writes it. */
const KISA_LIKE = [
  '날짜,홈페이지주소',
  '2023-01-02,https://bit.ly/',
  '2023-01-02,c11.kr/',
  '2023-01-02,http://www.gourl.kr',
  '2023-01-03,http://a05.d4zs.pics',
  '2023-01-03,bmk.ilogensn.com/ 외11건',
  '2023-01-04,https://han.gl/AbCd',
  '2023-01-04,https://naver.me/xYz12',
  '2023-01-05,https://someone.blogspot.com',
  '2023-01-05,https://hacked.univ.ac.th',
  '2023-01-06,http://promo.popular-kr.com',
  '2023-01-06,https://smallshop.co.kr/board/login.php',
].join('\n');

async function engine() {
  const parsed = parseFeed(Buffer.from(KISA_LIKE), 'csv');
  return createUrlEngine(
    await buildDetectionLists(
      [
        { name: 'kisa', category: 'phishing', entries: parsed.entries },
        // A global list's listed sub-domain names that host (and below) only.
        { name: 'global', category: 'phishing', entries: ['login.shop-builder.example/'] },
        { name: 'top', category: 'clean', entries: ['popular-kr.com/'] },
      ],
      { model: false },
    ),
  );
}

describe('list entries for campaigns and short links', () => {
  it('a bare shortener root is no entry, and is counted as ignored', () => {
    const parsed = parseFeed(Buffer.from(KISA_LIKE), 'csv');
    expect(parsed.ignored).toBe(3);
    expect([...parsed.entries].some((entry) => /^(bit\.ly|c11\.kr|www\.gourl\.kr)\//.test(entry))).toBe(false);
  });

  it("a listed host condemns its throw-away registered domain's other hosts, naming the domain", async () => {
    const detector = await engine();
    const sibling = await detector.classify('https://a01.d4zs.pics/kr');
    expect(sibling).toMatchObject({ isMalicious: true, category: 'phishing', source: 'list' });
    expect(sibling.reason).toContain('d4zs.pics');
    expect(sibling.reason).toContain("'kisa'");
    expect((await detector.classify('https://gs.ilogensn.com/')).isMalicious).toBe(true);
    expect(detector.listCheck('https://d4zs.pics/')?.isMalicious).toBe(true);
  });

  it('never a shortener, a shared platform, a public body, a top site, or the site of a listed page', async () => {
    const detector = await engine();
    const listed = (url: string) => detector.listCheck(url)?.isMalicious ?? false;
    // A listed short link names that link only.
    expect(listed('https://han.gl/AbCd')).toBe(true);
    expect(listed('https://han.gl/Other')).toBe(false);
    expect(listed('https://naver.me/xYz12')).toBe(true);
    expect(listed('https://naver.me/5abcdE')).toBe(false);
    expect(listed('https://bit.ly/3xYz')).toBe(false);
    expect(listed('https://c11.kr/1ak6y')).toBe(false);
    // Shared platform, public body, top-sites domain, a hacked page's site.
    expect(listed('https://someone.blogspot.com/')).toBe(true);
    expect(listed('https://another.blogspot.com/')).toBe(false);
    expect(listed('https://hacked.univ.ac.th/')).toBe(true);
    expect(listed('https://www.univ.ac.th/')).toBe(false);
    expect(listed('http://promo.popular-kr.com/')).toBe(true);
    expect(listed('https://www.popular-kr.com/')).toBe(false);
    expect(listed('https://smallshop.co.kr/board/login.php')).toBe(true);
    expect(listed('https://login.shop-builder.example/')).toBe(true);
    expect(listed('https://other.shop-builder.example/')).toBe(false);
    expect(listed('https://smallshop.co.kr/')).toBe(false);
  });
});
