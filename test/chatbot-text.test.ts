import { describe, expect, it } from 'vitest';
import { extractAnswer, questionLanguage } from '../src/operations/chatbot/answer.js';
import { chunkText, splitSentences } from '../src/operations/chatbot/chunk.js';
import { reciprocalRankFusion } from '../src/operations/chatbot/retrieve.js';
import { queryTerms, tokenize, toOrQueryLiteral, toTsvectorLiteral } from '../src/operations/chatbot/tokenize.js';

describe('chatbot tokens', () => {
  it('indexes Hangul as overlapping bigrams and Latin text as lower-cased words', () => {
    expect(tokenize('환불은 Refunds 3일, VIP!')).toEqual(['환불', '불은', 'refund', '3', '일', 'vip']);
    expect(tokenize('환불받으려면')).toEqual(['환불', '불받', '받으', '으려', '려면']);
    // decomposed jamo (macOS input) and full-width Latin become the same tokens
    expect(tokenize('환불'.normalize('NFD') + ' ＡＰＩ')).toEqual(['환불', 'api']);
    expect(tokenize(`key ${'x'.repeat(3000)}`)).toEqual(['key']); // a lexeme must stay under 2 KB
  });

  it('drops question words, endings and final particle bigrams from questions only', () => {
    expect(queryTerms('배송비는 얼마인가요?')).toEqual(['배송', '송비']);
    expect(queryTerms('How long are backups kept?')).toEqual(['backup', 'kept']);
    expect(tokenize('배송비는')).toContain('비는');
    expect(queryTerms('무엇인가요?').length).toBeGreaterThan(0); // nothing but stopwords: keep them all
  });

  it('writes tsvector and tsquery literals with positions and escaped quotes', () => {
    expect(toTsvectorLiteral(['환불', '불은', '환불'])).toBe("'환불':1,3 '불은':2");
    expect(toTsvectorLiteral(["o'neil"])).toBe("'o''neil':1");
    expect(toOrQueryLiteral(['환불', 'refund'])).toBe("'환불' | 'refund'");
  });
});

describe('chatbot chunks', () => {
  it('keeps a short text whole and splits a long one on sentences with overlap', () => {
    expect(chunkText('  짧은 글입니다.  ')).toEqual(['짧은 글입니다.']);
    const sentences = Array.from({ length: 40 }, (_, i) => `${i + 1}번째 문장은 설명을 조금 길게 담고 있습니다.`);
    const text = `${sentences.slice(0, 20).join(' ')}\n\n${sentences.slice(20).join(' ')}`;
    const chunks = chunkText(text, { targetChars: 300, overlapChars: 80 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(300 + 40);
    for (let i = 1; i < chunks.length; i++) {
      const lastOfPrevious = splitSentences(chunks[i - 1]!).at(-1)!;
      expect(chunks[i]!.startsWith(lastOfPrevious) || chunks[i]!.includes(lastOfPrevious)).toBe(true);
    }
    for (const sentence of sentences) expect(chunks.some((chunk) => chunk.includes(sentence))).toBe(true);
  });

  it('cuts a page without punctuation on spaces', () => {
    const page = '단어 '.repeat(600).trim();
    const sentences = splitSentences(page);
    expect(sentences.length).toBeGreaterThan(1);
    expect(sentences.join(' ')).toBe(page);
  });
});

describe('extractive answer', () => {
  it('quotes the sentence that holds the asked fact, with a relevant neighbour', () => {
    const idf = new Map([
      ['링크', 5],
      ['유효', 5],
      ['동안', 1],
    ]);
    const chunk = '비밀번호 찾기를 누르면 이메일이 발송됩니다. 메일의 링크는 30분 동안 유효합니다. 스팸함도 확인하세요.';
    expect(extractAnswer(chunk, idf)).toBe('메일의 링크는 30분 동안 유효합니다.');
  });

  it('names the language of the question', () => {
    expect(questionLanguage('환불 되나요?')).toBe('Korean');
    expect(questionLanguage('Refund?')).toBe('English');
    expect(questionLanguage('返品できますか')).toBe('Japanese');
  });
});

describe('reciprocal rank fusion', () => {
  it('prefers an item ranked well by both lists over one ranked first by one list only', () => {
    const scores = reciprocalRankFusion([
      [1, 2, 3, 4],
      [2, 3, 4, 1],
    ]);
    const order = [...scores].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    expect(order).toEqual([2, 1, 3, 4]);
    expect(scores.get(2)).toBeCloseTo(1 / 62 + 1 / 61, 10);
  });
});
