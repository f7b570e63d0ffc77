import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { dateBand, readDateBand } from '../src/operations/ocr-idcard/date-band.js';
import { nameBand } from '../src/operations/ocr-idcard/name-band.js';
import { referenceBand, withAddressBand } from '../src/operations/ocr-idcard/reference-band.js';
import { linesFromWords, type PlacedWord } from '../src/providers/ocr/read-page.js';
import type { OcrEngine } from '../src/providers/ocr/tesseract-pool.js';

const word = (text: string, x0: number, x1: number, y0 = 100, y1 = 130): PlacedWord => ({
  text,
  confidence: 90,
  bbox: { x0, y0, x1, y1 },
});

describe('lines from words', () => {
  it('cuts a line where two columns stand far apart, and keeps spaced-out labels whole', () => {
    const columns = linesFromWords([
      word('업태', 100, 160),
      word('서비스', 180, 270),
      word('종목', 700, 760),
      word('소프트웨어', 780, 950),
    ]);
    expect(columns.map((line) => line.text)).toEqual(['업태 서비스', '종목 소프트웨어']);
    expect(columns[1]?.box).toEqual({ left: 700, top: 100, width: 250, height: 30 });
    const label = linesFromWords([word('대', 100, 130), word('표', 230, 260), word('자', 360, 390), word(':', 400, 405)]);
    expect(label.map((line) => line.text)).toEqual(['대 표 자 :']);
  });
});

describe('the name band of a card', () => {
  const line = (text: string, left: number, top: number, width: number, height = 40) => ({
    text,
    confidence: 90,
    box: { left, top, width, height },
  });

  it('is the space between the resident number and the line above it, in the text column', () => {
    const lines = [
      line('자동차운전면허증', 420, 70, 500, 60),
      line('1종대형', 430, 180, 130),
      line('~ 14-05-440006-46', 150, 250, 680, 60),
      line('660311-1072252', 420, 400, 400, 70),
      line('서울특별시 종로구', 420, 510, 340),
    ];
    expect(nameBand(lines, 1400, 900)).toEqual({ left: 385, top: 311, width: 515, height: 88, own: false });
  });

  it("is the name's own line, with a quarter line above and below, when the lines sit close together", () => {
    const lines = [line('주민등록증', 100, 50, 300), line('조 유 <', 100, 110, 150), line('900101-1234568', 100, 160, 300)];
    expect(nameBand(lines, 800, 500)).toEqual({ left: 80, top: 100, width: 360, height: 60, own: true });
  });

  it('passes over specks of the portrait beside the column: the name line above the number is read again', () => {
    // A speck of the picture sits lower than the name line but right of where the number ends.
    const lines = [line('둘 리 ( 차 뽀 )', 220, 266, 430, 68), line('…', 1038, 331, 32, 16), line('830422-1185600', 200, 370, 480, 38)];
    expect(nameBand(lines, 1400, 900)).toMatchObject({ top: 257, own: true });
  });

  it("reads the name's own line again however wide the spacing below it, not the empty space between", () => {
    const lines = [line('주민등록증', 100, 40, 300), line('둘 리 (杜里)', 100, 110, 200, 60), line('830422-1185600', 100, 210, 300)];
    expect(nameBand(lines, 800, 500)).toMatchObject({ top: 100, height: 80, own: true });
  });

  it('is none when the line above the number is the title or a licence number (no name line was read)', () => {
    const title = [line('주민등록증', 100, 50, 300), line('900101-1234568', 100, 100, 300)];
    expect(nameBand(title, 800, 500)).toBeUndefined();
    const licence = [line('11-15-691893-13', 100, 50, 300), line('900101-1234568', 100, 100, 300)];
    expect(nameBand(licence, 800, 500)).toBeUndefined();
  });
});

describe('the issue-date line of a card', () => {
  const line = (text: string, left: number, top: number, width: number, height = 40) => ({
    text,
    confidence: 90,
    box: { left, top, width, height },
  });

  it('is the line that starts with a year but holds no whole date, widened for the rest of the date', () => {
    const lines = [
      line('900101-1234568', 100, 100, 300),
      line('적성검사기간 2030.01.01.~2030.12.31.', 100, 300, 500),
      line('2013 8 !| 으', 100, 400, 150),
      line('서울특별시 종로구청장', 100, 460, 300),
    ];
    expect(dateBand(lines, 800, 600)).toEqual({ left: 80, top: 390, width: 320, height: 60 });
  });

  it('is none when the date was read whole', () => {
    expect(dateBand([line('2013.08.10.', 100, 400, 200)], 800, 600)).toBeUndefined();
  });

  /** An engine that reads each try of the band as the next of `reads` ([text, confidence]). */
  const scripted = (reads: Array<[string, number]>) => {
    let calls = 0;
    const engine = {
      recognize: async () => {
        const [text, confidence] = reads[calls++] ?? ['', 0];
        return { text, rotateRadians: 0, lines: [{ text, confidence, box: { left: 0, top: 0, width: 100, height: 20 } }] };
      },
    } as unknown as OcrEngine;
    return { engine, calls: () => calls };
  };
  const page = () =>
    sharp({ create: { width: 800, height: 600, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
  const pageLines = [line('2021,05.025', 100, 400, 150)];

  it('reads the line alone until a try reads a date surely, else takes the most confident date', async () => {
    const unsure = scripted([
      ['2021 ,05.07 ,. ~ 수', 45],
      ['2021.05.03', 81],
      ['2021,05.05', 40],
    ]);
    expect((await readDateBand(unsure.engine, await page(), pageLines))?.date).toBe('2021.05.03.');
    expect(unsure.calls()).toBe(2);
    const weak = scripted([
      ['2021.05.07', 45],
      ['2021 05 - 느', 50],
      ['2021 05 03', 58],
    ]);
    expect((await readDateBand(weak.engine, await page(), pageLines))?.date).toBe('2021.05.03.');
    const sure = scripted([['2021.05.03', 88]]);
    expect((await readDateBand(sure.engine, await page(), pageLines))?.date).toBe('2021.05.03.');
    expect(sure.calls()).toBe(1);
  });
});

describe('the reference band under a card address', () => {
  const line = (text: string, left: number, top: number, width: number, height = 40) => ({
    text,
    confidence: 90,
    box: { left, top, width, height },
  });

  it('is the space from the road-name address to the next line with words, past lines of specks', () => {
    const lines = [
      line('900101-1234568', 100, 200, 300),
      line('대 전 광역시 청주시 시 청 로 85', 100, 260, 500),
      line('600 | ,', 120, 318, 60, 20),
      line('2020. 1. 18.', 100, 400, 200),
    ];
    expect(referenceBand(lines, 1400, 900)).toEqual({ left: 80, top: 294, width: 560, height: 105 });
  });

  it('reads the reference again enlarged when the band as it stands reads split or in specks, junk after it dropped', async () => {
    const reads: Array<[string, number]> = [
      ['(송도동', 30],
      ['( 송 도 동) 、」 0000', 62],
    ];
    const scales: number[] = [];
    const engine = {
      recognize: async (png: Buffer) => {
        scales.push((await sharp(png).metadata()).width ?? 0);
        const [text, confidence] = reads.shift() ?? ['', 0];
        return { text, rotateRadians: 0, lines: [{ text, confidence, box: { left: 0, top: 0, width: 100, height: 20 } }] };
      },
    } as unknown as OcrEngine;
    const page = await sharp({ create: { width: 1400, height: 900, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    const lines = [line('인 천 광역시 연수구 해 돋 이 로 207', 100, 260, 500), line('갱신기간 2031.01.01~2031.12.31', 100, 400, 450)];
    expect(await withAddressBand(engine, page, lines, '인천광역시 연수구 해돋이로 207')).toBe('인천광역시 연수구 해돋이로 207 (송도동)');
    // The second read is of the band enlarged by half.
    expect(scales[1]! - 20).toBeCloseTo((scales[0]! - 20) * 1.5, -1);
  });

  it('is none when the next line follows at once', () => {
    const lines = [line('서울특별시 종로구 세종대로 209', 100, 260, 500), line('2019.01.05.', 100, 310, 200)];
    expect(referenceBand(lines, 1400, 900)).toBeUndefined();
  });
});
