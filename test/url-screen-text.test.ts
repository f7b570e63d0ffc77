import { describe, expect, it } from 'vitest';
import { screenText } from '../src/operations/url-scan/screen-text.js';
import type { OcrLine, OcrText } from '../src/providers/ocr/tesseract-pool.js';

/** Lines as OCR returns them: text, and where it stands (left edge 90, 44 px high, one under the other). */
function read(lines: Array<[string, number]>): OcrText {
  const ocrLines: OcrLine[] = lines.map(([text, width], index) => ({
    text,
    confidence: 90,
    box: { left: 90, top: 300 + index * 56, width, height: 44 },
  }));
  return { text: lines.map(([text]) => text).join('\n'), lines: ocrLines, rotateRadians: 0 };
}

describe('screenText: a screenshot’s lines, a link wrapped at the bubble’s edge joined', () => {
  it('joins a full line ending in a link with the next line that starts with link characters', () => {
    expect(
      screenText(
        read([
          ['이 글 한번 읽어봐 https://www.you', 758],
          ['tube.com/user/visitkorea 클릭', 520],
        ]),
      ),
    ).toBe('이 글 한번 읽어봐 https://www.youtube.com/user/visitkorea 클릭');
    expect(
      screenText(
        read([
          ['회의 전에 참고하세요: https://v2.velog.io/r', 740],
          ['ss/modolee', 200],
        ]),
      ),
    ).toBe('회의 전에 참고하세요: https://v2.velog.io/rss/modolee');
    expect(
      screenText(
        read([
          ['지난번 말한 사이트 https://ksch93 tistory.', 752],
          ['com/rss 입니다', 300],
        ]),
      ),
    ).toBe('지난번 말한 사이트 https://ksch93 tistory.com/rss 입니다');
  });

  it('keeps the break when the line is short, ends in words, or the next line starts with Hangul or a space', () => {
    expect(
      screenText(
        read([
          ['확인: https://a.example.com', 500],
          ['naver.com 다음', 760],
        ]),
      ),
    ).toBe('확인: https://a.example.com\nnaver.com 다음');
    expect(
      screenText(
        read([
          ['[우체국] 등기우편 2회 미배달, 반송 예정입니다', 760],
          ['abc 확인', 200],
        ]),
      ),
    ).toBe('[우체국] 등기우편 2회 미배달, 반송 예정입니다\nabc 확인');
    expect(
      screenText(
        read([
          ['주소 https://a.example.com/x', 760],
          ['클릭하세요', 200],
        ]),
      ),
    ).toBe('주소 https://a.example.com/x\n클릭하세요');
  });

  it('drops accents the Latin model adds to a link’s letters, and keeps Hangul as it is', () => {
    expect(screenText(read([['열람 http://sn14.fétg.wtf 확인', 500]]))).toBe('열람 http://sn14.fetg.wtf 확인');
  });

  it('falls back to the text when there are no lines', () => {
    expect(screenText({ text: 'http://a.example.com', lines: [], rotateRadians: 0 })).toBe('http://a.example.com');
  });
});
