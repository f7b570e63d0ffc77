import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { addressExpression, splitCsvLine, withoutCountNote } from '../src/operations/url-detect/lists/feed-csv.js';
import { downloadOdcloudFeed, kisaPhishingUrl } from '../src/operations/url-detect/lists/feed-odcloud.js';
import { parseFeed } from '../src/operations/url-detect/lists/feed-parse.js';
import { parseFeedSpecs, usableFeeds } from '../src/operations/url-detect/lists/feeds.js';
import { startFakeOdcloud } from './fakes/odcloud-server.js';
import { sharedDataPath, sharedDataPresent } from './helpers/shared-data.js';

const KISA_2022 = sharedDataPath('url-lists-kr/kisa-phishing-2022-09-11.csv');

describe('the csv format reads the column its header names (KISA as published)', () => {
  it.skipIf(!sharedDataPresent('url-lists-kr/kisa-phishing-2022-09-11.csv'))(
    "KISA's 2022 file in place: BOM, `날짜,홈페이지주소`, Korean dates, notes `외11건`, rows without a scheme",
    () => {
      const parsed = parseFeed(readFileSync(KISA_2022), 'csv');
      const entries = [...parsed.entries];
      // 1,398 distinct URLs as written; a few differ only by scheme or case and meet as one entry.
      expect(entries.length).toBeGreaterThan(1300);
      expect(entries.length).toBeLessThanOrEqual(1398);
      expect(parsed.skipped).toBe(0);
      expect(entries).toContain('con08.nu8w.love/');
      expect(entries).toContain('cop.y4z7.cash/');
      expect(entries).toContain('xion.dn6t.cash/');
      expect(entries).toContain('donate.do/h73t/');
      // Typed `http;//` in the file.
      expect(entries).toContain('koielsnm.miami/');
      expect(entries.some((entry) => entry.includes('외') || entry.includes('%EC%99%B8'))).toBe(false);
    },
  );

  it('CP949 as Korean spreadsheets export it', () => {
    // `날짜,홈페이지주소\n09월 01일,http://masf.krhes.boston\n` in code page 949.
    const body = Buffer.from(
      'b3afc2a52cc8a8c6e4c0ccc1f6c1d6bcd20a3039bff9203031c0cf2c687474703a2f2f6d6173662e6b726865732e626f73746f6e0a',
      'hex',
    );
    const parsed = parseFeed(body, 'csv');
    expect([...parsed.entries]).toEqual(['masf.krhes.boston/']);
    expect(parsed.skipped).toBe(0);
  });

  it('a header naming the column anywhere (`URL`, `url`, `홈페이지 주소`), quoted fields with commas, a date-only row skipped', () => {
    const body = Buffer.from(
      [
        '번호,"신고 일자",비고,URL',
        '1,"2023-01-12","택배, 사칭","https://gs.ilogenoms.com/외"',
        '2,2023-02-10,,https://c11.kr/1ak6y외',
        '3,2023-03-13,"say ""hi""",Http://Www.youtube.eifot.bio',
        '4,2023-03-14,빈 칸,',
      ].join('\r\n'),
    );
    const parsed = parseFeed(body, 'csv');
    expect([...parsed.entries]).toEqual(['gs.ilogenoms.com/', 'c11.kr/1ak6y/', 'www.youtube.eifot.bio/']);
    expect(parsed.skipped).toBe(1);
    expect(parseFeed(Buffer.from('날짜,홈페이지 주소\n09월 01일,bmk.ilogensn.com/\n'), 'csv').entries).toEqual(
      new Set(['bmk.ilogensn.com/']),
    );
  });

  it('without a header naming a column, the first field holding an address (URLhaus)', () => {
    expect([
      ...parseFeed(Buffer.from('# id,dateadded,url\n"1","2026-11-20 10:01:02","http://x-dl.example/a.sh"\n'), 'csv').entries,
    ]).toEqual(['x-dl.example/a.sh/']);
  });

  it('splits quoted CSV in one pass and drops the reporter notes', () => {
    expect(splitCsvLine(' a , "b,c" ,"d""e",')).toEqual(['a', 'b,c', 'd"e', '']);
    expect(withoutCountNote('con08.nu8w.love 외11건')).toBe('con08.nu8w.love');
    expect(withoutCountNote('cop.y4z7.cash 외 27건')).toBe('cop.y4z7.cash');
    expect(withoutCountNote('http://zx12.t6ve.site외')).toBe('http://zx12.t6ve.site');
    expect(withoutCountNote('https://외국.example/')).toBe('https://외국.example/');
    expect(addressExpression('  ')).toBeUndefined();
  });
});

describe('the odcloud format (public-data portal open API)', () => {
  const path = '/15109780/v1/uddi:707478dd-938f-4155-badb-fae6202ee7ed';
  const rows = Array.from({ length: 1500 }, (_, i) => ({
    날짜: '2023-01-01',
    홈페이지주소: i === 7 ? 'a07.d4zs.pics 외3건' : `https://h${i}.x7hz.black/`,
  }));

  it('pages through data[] by page/perPage until totalCount, reads the Korean address column, sends the key only in requests', async () => {
    const portal = await startFakeOdcloud({ serviceKey: 'k+ey/=', path, rows });
    try {
      const body = await downloadOdcloudFeed(kisaPhishingUrl(portal.apiUrl), 'k+ey/=', { attempts: 1 });
      const parsed = parseFeed(body, 'odcloud');
      expect(parsed.entries.size).toBe(1500);
      expect(parsed.entries).toContain('a07.d4zs.pics/');
      expect(portal.requests.map((q) => [q.get('page'), q.get('perPage'), q.get('returnType')])).toEqual([
        ['1', '1000', 'JSON'],
        ['2', '1000', 'JSON'],
      ]);
      await expect(downloadOdcloudFeed(kisaPhishingUrl(portal.apiUrl), 'wrong', { attempts: 1 })).rejects.toThrow('HTTP 401');
    } finally {
      await portal.close();
    }
  });

  it('an answer that is not a portal page is an error, not an empty list', async () => {
    const fetchHtml: typeof fetch = async () => new Response('<html>점검 중</html>', { status: 200 });
    await expect(downloadOdcloudFeed('https://api.odcloud.kr/api/1/v1/uddi:x', 'key', { fetch: fetchHtml, attempts: 1 })).rejects.toThrow(
      'not an odcloud JSON page',
    );
  });

  it("KISA's data is a default feed; without a service key it is skipped with one notice", () => {
    const specs = parseFeedSpecs(undefined, { dataGoKrApiUrl: 'http://127.0.0.1:9/api/' });
    const kisa = specs.feeds.find((feed) => feed.name === 'kisa-phishing');
    expect(kisa).toMatchObject({ category: 'phishing', format: 'odcloud', url: `http://127.0.0.1:9/api${path}` });
    const without = usableFeeds(specs, undefined);
    expect(without.feeds.some((feed) => feed.format === 'odcloud')).toBe(false);
    expect(without.notice).toContain('DATA_GO_KR_SERVICE_KEY');
    expect(usableFeeds(specs, 'key')).toMatchObject({ feeds: specs.feeds, notice: undefined });
    expect(parseFeedSpecs('kisa=phishing:odcloud:https://api.odcloud.kr/api/15109780/v1/uddi:x').problems).toEqual([]);
  });
});
