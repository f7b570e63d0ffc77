import { describe, expect, it } from 'vitest';
import { splitText, toPiece } from '../src/operations/translate/translate-chunks.js';
import { translateSystemPrompt } from '../src/operations/translate/translate-prompt.js';

describe('splitText', () => {
  const paragraph = '첫 문장입니다. 두 번째 문장이에요! 세 번째 문장인가요?\n';

  it('keeps a short text whole', () => {
    expect(splitText('짧은 글.', 100)).toEqual(['짧은 글.']);
  });

  it('splits a long text on sentence boundaries, and the pieces join back to the text exactly', () => {
    const text = `${paragraph}\n`.repeat(40) + '- 목록 1\n- 목록 2 https://example.com/a.b?c=1\n';
    const pieces = splitText(text, 200);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join('')).toBe(text);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThanOrEqual(200);
      // every piece ends at a sentence end or a line break, never mid-sentence
      expect(piece.trimEnd()).toMatch(/[.!?]$|목록 1$|c=1$/);
    }
  });

  it('cuts one over-long sentence at a space', () => {
    const sentence = 'word '.repeat(100).trim();
    const pieces = splitText(sentence, 120);
    expect(pieces.join('')).toBe(sentence);
    expect(pieces.every((piece) => piece.length <= 120)).toBe(true);
    expect(pieces.slice(0, -1).every((piece) => piece.endsWith(' '))).toBe(true);
  });
});

describe('toPiece', () => {
  it('sets the surrounding whitespace aside', () => {
    expect(toPiece('\n\n  안녕.\n')).toEqual({ lead: '\n\n  ', core: '안녕.', trail: '\n' });
    expect(toPiece(' \n ')).toEqual({ lead: ' \n ', core: '', trail: '' });
  });
});

describe('translateSystemPrompt', () => {
  it('names both languages, the formatting rules, and the Korean register only for a Korean target', () => {
    const toKorean = translateSystemPrompt('en', 'ko');
    expect(toKorean).toContain('from English to Korean');
    expect(toKorean).toContain('해요체');
    expect(toKorean).toContain('line breaks');
    expect(translateSystemPrompt('ko', 'zh')).toContain('to Simplified Chinese');
    expect(translateSystemPrompt('ko', 'en')).not.toContain('해요체');
    expect(translateSystemPrompt('ko', 'en', { index: 2, total: 3 })).toContain('part 2 of 3');
  });
});
