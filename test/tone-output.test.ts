import { describe, expect, it } from 'vitest';
import { TONE_GUIDES, toneSystemPrompt } from '../src/operations/tone/tone-guides.js';
import { rejectReason } from '../src/operations/tone/tone-output.js';
import { TONES } from '../src/operations/tone/tone.schema.js';

describe('rejectReason', () => {
  it.each([
    ['안녕하세요.', '안녕', undefined],
    ['네, 알겠습니다.', '응 알았어', undefined],
    ['회의 결과는 다음과 같습니다.\n- 예산 승인', '회의 결과는 이래.\n- 예산 승인', undefined],
    ['"인용"이라는 말을 썼습니다.', '"인용"이라는 말을 썼어', undefined],
    ['"안녕하세요."', '안녕', 'quoted'],
    ['“안녕하세요.”', '안녕', 'quoted'],
    ['"그래."', '"응."', undefined],
    ['', '안녕', 'empty'],
    ['  \n ', '안녕', 'empty'],
    ['변환된 문장:\n안녕하세요.', '안녕', 'explanation'],
    ['Here is the formal version:\nGood morning.', 'morning', 'explanation'],
    ['안녕하세요.\n\n설명: 해요체로 바꾸었습니다.', '안녕', 'explanation'],
    ['원문: 안녕\n변환: 안녕하세요.', '안녕', 'explanation'],
    ['링크를 보십시오.', '링크 https://a.example/x 봐', 'url-changed'],
    ['링크 https://a.example/x 를 보십시오.', '링크 https://a.example/x 봐', undefined],
  ])('%j for %j is %s', (output, input, expected) => {
    expect(rejectReason(output, input)).toBe(expected);
  });
});

describe('tone guides', () => {
  it('give every tone a speech level, vocabulary, endings, an emoji policy and two or three examples', () => {
    for (const tone of TONES) {
      const guide = TONE_GUIDES[tone];
      expect(guide.speechLevel, tone).toMatch(/하십시오체|합쇼체|해요체|해체|해라체|하게체/);
      expect(guide.vocabulary.length, tone).toBeGreaterThan(10);
      expect(guide.endings.length, tone).toBeGreaterThan(3);
      expect(guide.emoji, tone).toContain('이모지');
      expect(guide.examples.length, tone).toBeGreaterThanOrEqual(2);
      expect(guide.examples.length, tone).toBeLessThanOrEqual(3);
      for (const [source, converted] of guide.examples) expect(source, tone).not.toBe(converted);
    }
  });

  it('keep numbers of the examples unchanged (the model only restyles)', () => {
    for (const tone of TONES) {
      for (const [source, converted] of TONE_GUIDES[tone].examples) {
        expect(converted.match(/\d+/g) ?? [], `${tone}: ${source}`).toEqual(source.match(/\d+/g) ?? []);
      }
    }
  });

  it('tell the model to keep meaning, numbers, URLs and line breaks, and to restyle other languages in place', () => {
    const prompt = toneSystemPrompt('casual');
    for (const rule of ['숫자', 'URL', '줄바꿈', '번역하지 말고', '설명']) expect(prompt).toContain(rule);
  });
});
