import QRCode from 'qrcode';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { createLogger } from '../src/logger.js';
import type { UrlVerdict } from '../src/operations/url-detect/checker.js';
import { linkEvidence, type CheckedUrl } from '../src/operations/url-scan/smishing-signals.js';
import { createMessageJudge } from '../src/operations/url-scan/message-judge.js';
import { loadMessageModel } from '../src/operations/url-scan/model/message-model-file.js';
import { createUrlScanOperation, type UrlScanDeps } from '../src/operations/url-scan/url-scan.js';
import type { ApiId } from '../src/platform/catalog.js';
import { executeOperation } from '../src/platform/execute.js';
import type { Quota } from '../src/platform/quota.js';
import { createMessageImageDecoder } from '../src/providers/message-image.js';
import type { OcrEngine } from '../src/providers/ocr/tesseract-pool.js';

const clean = (url: string, final_url = url): CheckedUrl => ({
  url,
  final_url,
  is_malicious: false,
  category: 'clean',
  reason: '알려진 위험 신호가 없습니다.',
});
const phishing = (url: string): CheckedUrl => ({
  url,
  final_url: url,
  is_malicious: true,
  category: 'phishing',
  reason: 'KISA 피싱 목록에 있는 주소입니다.',
});

describe("linkEvidence: what a message's links say, in plain Korean", () => {
  it("names a harmful link's host with its verdict", () => {
    expect(linkEvidence('확인하세요 http://bad.example/a', [phishing('http://bad.example/a')]).harmful).toEqual([
      'bad.example: KISA 피싱 목록에 있는 주소입니다.',
    ]);
  });

  it('finds a carrier named beside a foreign link with delivery wording, though the detector found nothing', () => {
    const result = linkEvidence('[CJ대한통운] 주소지 불일치로 반송 예정입니다. 주소확인 http://cj-track.example/a', [
      clean('http://cj-track.example/a'),
    ]);
    expect(result).toEqual({
      harmful: [],
      signals: [
        "문자에 'CJ대한통운'이 나오지만 링크(cj-track.example)는 CJ대한통운의 공식 주소가 아닙니다.",
        "'주소확인', '주소지 불일치', '반송' 같은 배송·주소 확인 유도 문구가 링크와 함께 있습니다.",
      ],
    });
  });

  it('finds a public shortener hiding the target, and says where the short link leads when it was followed', () => {
    const hidden = linkEvidence('[Web발신] 모바일 청첩장 https://bit.ly/3abc', [clean('https://bit.ly/3abc')]);
    expect(hidden.signals).toContain('단축 URL(bit.ly)이 실제 주소를 숨기고 있습니다. 누르기 전에는 어디로 가는지 알 수 없습니다.');
    const followed = linkEvidence('건강검진 결과 https://han.gl/x', [clean('https://han.gl/x', 'https://target.example/p')]);
    expect(followed.signals).toContain('단축 URL(han.gl)이 실제 주소(target.example)를 숨기고 있습니다.');
  });

  it.each([
    [
      '[CJ대한통운] 고객님의 상품이 배송완료되었습니다. 조회 https://www.cjlogistics.com/ko/tool/parcel/tracking',
      'https://www.cjlogistics.com/ko/tool/parcel/tracking',
    ],
    ['[국민건강보험] 건강검진 결과는 공단 누리집에서 확인하세요 https://www.nhis.or.kr/', 'https://www.nhis.or.kr/'],
    ['[서울중앙지검] 보도자료 https://www.spo.go.kr/site/seoul/main.do', 'https://www.spo.go.kr/site/seoul/main.do'],
    ['이 기사 봐 검찰 얘기 https://n.news.naver.com/article/001/0014', 'https://n.news.naver.com/article/001/0014'],
    ['회의록 공유합니다 https://docs.google.com/document/d/abc', 'https://docs.google.com/document/d/abc'],
    ['KT 요금제 비교 글 https://blog.naver.com/someone/2233', 'https://blog.naver.com/someone/2233'],
  ])('finds at most one signal in an ordinary message: %s', (text, url) => {
    expect(linkEvidence(text, [clean(url)]).signals.length).toBeLessThan(2);
  });

  it('matches Latin names only as whole words', () => {
    expect(linkEvidence('KTX 예매 미납 http://rail.example/a', [clean('http://rail.example/a')]).signals[0]).not.toMatch(/'KT'/);
    expect(linkEvidence('[KT] 요금 미납 http://kt-pay.example/a', [clean('http://kt-pay.example/a')]).signals).toHaveLength(2);
  });

  it('says nothing of a message without links', () => {
    expect(linkEvidence('그냥 안부 인사', [])).toEqual({ harmful: [], signals: [] });
  });
});

/** A counter per API, like the database's: the lease's `remaining` is the counter after it. */
function fakeQuota(counters: Partial<Record<ApiId, number>>) {
  const left = new Map(Object.entries(counters) as Array<[ApiId, number]>);
  const quota: Quota = {
    async reserve(_accountId, api) {
      const remaining = left.get(api);
      if (remaining === undefined) throw new AppError('SUBSCRIPTION_REQUIRED', `'${api}' API 구독이 필요합니다.`);
      if (remaining <= 0) throw new AppError('QUOTA_EXCEEDED', '이번 달 호출 한도를 모두 사용했습니다.');
      left.set(api, remaining - 1);
      return {
        api,
        remaining: remaining - 1,
        monthlyQuota: 100,
        renewsAt: new Date('2026-12-01T00:00:00+09:00'),
        holdId: '',
        settledWithResult() {},
        settle: async () => {},
        refund: async () => void left.set(api, (left.get(api) ?? 0) + 1),
      };
    },
  };
  return { quota, left };
}

const judge = createMessageJudge({ model: await loadMessageModel(undefined) });

function setup(options: { counter?: number; verdicts?: Record<string, UrlVerdict & { finalUrl?: string }>; ocrText?: string } = {}) {
  const { quota, left } = fakeQuota({ 'harmful-url-detection': options.counter ?? 50 });
  const checked: string[] = [];
  const recognized: Buffer[] = [];
  const deps: UrlScanDeps = {
    judge,
    checker: {
      async check(url) {
        checked.push(url);
        return options.verdicts?.[url] ?? { isMalicious: false, category: 'clean', reason: '알려진 위험 신호가 없습니다.' };
      },
    },
    ocr: () =>
      ({
        async recognize(png: Buffer) {
          recognized.push(png);
          return { text: options.ocrText ?? '', lines: [], rotateRadians: 0 };
        },
      }) as unknown as OcrEngine,
    images: createMessageImageDecoder(),
  };
  const run = (input: unknown) =>
    executeOperation(
      quota,
      createUrlScanOperation(deps),
      { account: { id: 1, email: 'a@example.com' }, logger: createLogger('silent'), requestId: 't' },
      input,
    );
  return { run, left, checked, recognized };
}

const png = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();

describe('url-scan operation', () => {
  it('checks every URL of a text, charges one call for the message and one per URL, and reports the counter after the last', async () => {
    const { run, left, checked } = setup({
      verdicts: { 'http://bad.example/a': { isMalicious: true, category: 'phishing', reason: '피싱 목록에 있습니다.' } },
    });
    const { output, quota } = await run({ text: '택배 주소확인http://bad.example/a 또는 hxxps://ok[.]example/b, naver.com' });
    expect(checked).toEqual(['http://bad.example/a', 'https://ok.example/b', 'http://naver.com/']);
    expect(left.get('harmful-url-detection')).toBe(46);
    expect(quota.remaining).toBe(46);
    expect(output.urls[0]).toEqual({
      url: 'http://bad.example/a',
      final_url: 'http://bad.example/a',
      is_malicious: true,
      category: 'phishing',
      reason: '피싱 목록에 있습니다.',
    });
    expect(output.is_smishing).toBe(true);
    expect(output.urls_found).toBe(3);
  });

  it('takes final_url from a verdict that followed the link', async () => {
    const { run } = setup({
      verdicts: { 'https://han.gl/abc': { isMalicious: false, category: 'clean', reason: '안전', finalUrl: 'https://www.example.com/' } },
    });
    const { output } = await run({ text: 'https://han.gl/abc' });
    expect(output.urls[0]?.final_url).toBe('https://www.example.com/');
  });

  it('checks the first 20 of more URLs, charges 21 (the message and 20 URLs) and says so', async () => {
    const { run, left } = setup();
    const text = Array.from({ length: 25 }, (_, i) => `https://s${i}.example.com/`).join('\n');
    const { output } = await run({ text });
    expect(output.urls).toHaveLength(20);
    expect(output.urls_found).toBe(25);
    expect(output.reasons.at(-1)).toBe('링크가 25개 있어 처음 20개만 검사했습니다.');
    expect(left.get('harmful-url-detection')).toBe(29);
  });

  it('asks at most four verdicts at once and keeps the message order', async () => {
    let running = 0;
    let most = 0;
    const gates: Array<() => void> = [];
    const { quota } = fakeQuota({ 'harmful-url-detection': 50 });
    const operation = createUrlScanOperation({
      judge,
      checker: {
        async check(url) {
          running++;
          most = Math.max(most, running);
          await new Promise<void>((resolve) => gates.push(resolve));
          running--;
          return { isMalicious: url.includes('bad'), category: url.includes('bad') ? 'phishing' : 'clean', reason: '-' };
        },
      },
      ocr: () => {
        throw new Error('no OCR for text');
      },
      images: createMessageImageDecoder(),
    });
    const text = Array.from({ length: 10 }, (_, i) => `https://${i === 7 ? 'bad' : 'ok'}${i}.example.com/`).join(' ');
    const run = executeOperation(
      quota,
      operation,
      { account: { id: 1, email: 'a@example.com' }, logger: createLogger('silent'), requestId: 't' },
      { text },
    );
    // Open the gates one by one as checks arrive, until all ten have answered.
    for (let opened = 0, turns = 0; opened < 10 && turns < 1000; turns++) {
      await new Promise((resolve) => setImmediate(resolve));
      const gate = gates.shift();
      if (gate) {
        gate();
        opened++;
      }
    }
    const { output } = await run;
    expect(most).toBe(4);
    expect(output.urls.map((entry) => entry.is_malicious)).toEqual([false, false, false, false, false, false, false, true, false, false]);
  });

  it('judges a message without a link as a message, for one call', async () => {
    const { run, left } = setup();
    const { output } = await run({ text: '내일 3시에 봬요. 버전은 v1.2.3 입니다' });
    expect(output).toMatchObject({ urls: [], is_smishing: false, scam_type: null, scam_label: null, urls_found: 0 });
    expect(output.score).toBeLessThan(0.3);
    expect(output.reasons.at(-1)).toMatch(/링크는 없습니다/);
    expect(left.get('harmful-url-detection')).toBe(49);
  });

  it('refunds every call when the quota runs out part-way (429)', async () => {
    const { run, left } = setup({ counter: 2 });
    await expect(run({ text: 'http://a.example/1 http://b.example/2 http://c.example/3' })).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
    });
    expect(left.get('harmful-url-detection')).toBe(2);
  });

  it('refuses a request with neither text nor image (400, nothing charged)', async () => {
    const { run, left } = setup();
    await expect(run({})).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
      message: "'text'(메시지 글)나 'base64_image'(문자 캡처·QR 코드 사진) 중 하나를 보내 주세요.",
    });
    await expect(run({ text: '   ' })).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
    expect(left.get('harmful-url-detection')).toBe(50);
  });

  it('reads a QR code photo without OCR', async () => {
    const { run, recognized } = setup();
    const qr = await QRCode.toBuffer('http://han.gl/RVeMq', { width: 240, margin: 4 });
    // A photo: the code small on a grey desk, as a JPEG.
    const photo = await sharp({ create: { width: 900, height: 700, channels: 3, background: '#8a8a80' } })
      .composite([{ input: qr, left: 300, top: 200 }])
      .jpeg({ quality: 80 })
      .toBuffer();
    const { output } = await run({ base64_image: photo.toString('base64') });
    expect(output.urls.map((entry) => entry.url)).toEqual(['http://han.gl/RVeMq']);
    expect(recognized).toHaveLength(0);
  });

  it('reads a screenshot with the OCR engine, inverted for a dark theme', async () => {
    const { run, recognized } = setup({ ocrText: '[로젠택배] 반송예정 주소확인\nbmk.ilogensn. com/abc' });
    const { output } = await run({ base64_image: (await png(600, 1000, '#101010')).toString('base64') });
    expect(output.urls.map((entry) => entry.url)).toEqual(['http://bmk.ilogensn.com/abc']);
    expect(output.is_smishing).toBe(true);
    expect(recognized).toHaveLength(1);
    const prepared = await sharp(recognized[0]!).stats();
    expect(prepared.channels[0]!.mean).toBeGreaterThan(200);
    expect((await sharp(recognized[0]!).metadata()).width).toBe(1000);
  });

  it('refuses a PDF and data that is not an image (400)', async () => {
    const { run } = setup();
    await expect(run({ base64_image: Buffer.from('%PDF-1.4 xxxxxxxxxxxxxxxxxxxx').toString('base64') })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
    await expect(run({ base64_image: Buffer.from('hello, this is plain text only').toString('base64') })).rejects.toMatchObject({
      code: 'INVALID_REQUEST',
    });
  });
});

describe('url-scan: a screenshot read line by line when its page reading finds no link', () => {
  /** A fake engine: the page reading gives `pageText`; a line read alone gives one word, `lineText`. */
  function lineSetup(pageText: string, lineText: string) {
    const calls = { detect: 0, lines: 0 };
    const engine = {
      async recognize(_png: Buffer, _signal?: AbortSignal, _rotation?: number, segmentation?: string) {
        if (segmentation !== 'line') return { text: pageText, lines: [], rotateRadians: 0 };
        calls.lines++;
        const box = { left: 10, top: 10, width: 300, height: 30 };
        return {
          text: lineText,
          lines: [{ text: lineText, confidence: 90, box, words: [{ text: lineText, confidence: 90, box }] }],
          rotateRadians: 0,
        };
      },
    } as unknown as OcrEngine;
    const detector = {
      async detect() {
        calls.detect++;
        return [{ left: 20, top: 40, width: 360, height: 40 }];
      },
      close: async () => {},
    };
    const { quota } = fakeQuota({ 'harmful-url-detection': 10 });
    const operation = createUrlScanOperation({
      judge,
      checker: { check: async () => ({ isMalicious: false, category: 'clean', reason: '-' }) },
      ocr: () => engine,
      images: createMessageImageDecoder(),
      textLines: { detector, use: 'fallback' },
    });
    const run = async () =>
      executeOperation(
        quota,
        operation,
        { account: { id: 1, email: 'a@example.com' }, logger: createLogger('silent'), requestId: 't' },
        { base64_image: (await png(400, 200, '#ffffff')).toString('base64') },
      );
    return { run, calls };
  }

  it('reads the lines when the page reading has no link, and finds the link there', async () => {
    const { run, calls } = lineSetup('반송 예정 주소확인 [ 나 205://00', 'FA201https://cj-track.example/a8Kq');
    const { output } = await run();
    expect(output.urls.map((entry) => entry.url)).toEqual(['https://cj-track.example/a8Kq']);
    expect(calls).toEqual({ detect: 1, lines: 1 });
  });

  it('does not read the lines when the page reading found a link', async () => {
    const { run, calls } = lineSetup('반송 예정 http://ok.example/a', 'http://other.example/b');
    const { output } = await run();
    expect(output.urls.map((entry) => entry.url)).toEqual(['http://ok.example/a']);
    expect(calls).toEqual({ detect: 0, lines: 0 });
  });
});
