import { describe, expect, it } from 'vitest';
import { extractAnswer, questionLanguage } from '../src/operations/chatbot/answer.js';
import { chunkSpans, chunkText, splitSentences } from '../src/operations/chatbot/chunk.js';
import { reciprocalRankFusion } from '../src/operations/chatbot/retrieve.js';
import { MAX_QUERY_TERMS, queryTerms, tokenize, toOrQueryLiteral, toTsvectorLiteral } from '../src/operations/chatbot/tokenize.js';
import { analyzeQuestion, numbersIn } from '../src/operations/chatbot/question.js';
import { rerank } from '../src/operations/chatbot/rerank.js';
import { pairEvidence } from '../src/operations/chatbot/word-pairs.js';

describe('chatbot tokens', () => {
  it('indexes Hangul as overlapping bigrams and Latin text as lower-cased words', () => {
    expect(tokenize('환불은 Refunds 3일, VIP!')).toEqual(['환불', 'refund', '3', '일', 'vip']);
    expect(tokenize('환불받으려면')).toEqual(['환불', '불받', '받으', '으려', '려면']);
    // decomposed jamo (macOS input) and full-width Latin become the same tokens
    expect(tokenize('환불'.normalize('NFD') + ' ＡＰＩ')).toEqual(['환불', 'api']);
    expect(tokenize(`key ${'x'.repeat(3000)}`)).toEqual(['key']); // a lexeme must stay under 2 KB
  });

  it('strips Korean particles, so a noun matches with or without one', () => {
    expect(tokenize('배송비는')).toEqual(['배송', '송비']);
    expect(tokenize('대통령에게서')).toEqual(['대통', '통령']);
    // a one-syllable noun: "딸의" finds "딸" and the other way round
    expect(tokenize('딸의')).toContain('딸');
    expect(queryTerms('딸의 이름')).toContain('딸');
    // a two-syllable word whose last syllable only looks like a particle keeps its bigram too
    expect(tokenize('아이')).toContain('아이');
    expect(tokenize('아이가')).toEqual(['아이']);
  });

  it('drops question words and endings from questions only', () => {
    expect(queryTerms('배송비는 얼마인가요?')).toEqual(['배송', '송비']);
    expect(queryTerms('광우병 사태가 발생하였나?')).toEqual(['광우', '우병', '사태', '발생', '생하']);
    expect(queryTerms('How long are backups kept?')).toEqual(['backup', 'kept']);
    expect(queryTerms('무엇인가요?').length).toBeGreaterThan(0); // nothing but stopwords: keep them all
    // interrogatives with a particle: "누가" is not the stem "누"; "몇" leaves its counter, which the answer repeats ("2명")
    expect(queryTerms('환불은 누가 승인하나요?')).toEqual(['환불', '승인', '인하']);
    expect(queryTerms('상담원은 몇명이 근무하나요?')).toEqual(['상담', '담원', '명', '명이', '근무', '무하']);
    expect(queryTerms('보증 기간은 몇 년을 보장하나요?')).toEqual(['보증', '기간', '년', '년을', '보장', '장하']);
    // a particle of two syllables goes before the ending "는" is read: 고객센터라는 → 고객센터
    expect(queryTerms('고객센터라는 메뉴는 어디에 있나요?')).toEqual(['고객', '객센', '센터', '메뉴']);
  });

  it('searches a long question by a bounded number of terms', () => {
    // 2,000 characters whose syllable pairs are all different: before, every one was a term.
    const syllables = Array.from({ length: 2000 }, (_, i) => String.fromCharCode(0xac00 + ((i * 7919) % 11172)));
    const question = syllables.join('');
    expect(new Set(tokenize(question)).size).toBeGreaterThan(1000);
    expect(queryTerms(question).length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
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
    expect(chunkSpans('  짧은 글입니다.  ')).toEqual([{ start: 2, end: 10 }]); // positions in the entry's own text
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
    expect(extractAnswer(chunk, idf)).toEqual({ text: '메일의 링크는 30분 동안 유효합니다.', start: 25, end: 46 });
  });

  it('prefers the sentence that holds the asked kind of answer, and keeps what it refers back to', () => {
    const text = '정산 안내입니다. 정산 내역은 판매자 센터에서 조회합니다. 정산금은 매주 수요일에 입금됩니다.';
    const when = analyzeQuestion('정산은 언제 되나요?');
    expect(when.type).toBe('time');
    const idf = new Map(when.terms.map((term) => [term, 1]));
    expect(extractAnswer(text, idf, when.type).text).toContain('수요일');
    const named = '텔레캐스터\n이 기타를 대중화 시대를 연 첫 기타로 본다. 1950년에 발매되었다.';
    const which = analyzeQuestion('대중화 시대를 연 첫 기타는?');
    expect(extractAnswer(named, new Map(which.terms.map((term) => [term, 1])), which.type).text).toContain('텔레캐스터');
  });

  it('reads what a question asks for and does not search for those words', () => {
    expect(analyzeQuestion('옛 태자를 모략한 인물은?')).toMatchObject({ type: 'person' });
    expect(analyzeQuestion('옛 태자를 모략한 인물은?').terms).not.toContain('인물');
    expect(analyzeQuestion('앙갚음을 당한 년도는?')).toMatchObject({ type: 'time' });
    // the focus noun with its particle ("해는") is not searched for either
    expect(analyzeQuestion('서비스가 시작된 해는?')).toMatchObject({ type: 'time', terms: ['서비', '비스', '시작'] });
    expect(analyzeQuestion('선물 포장 비용은 얼마인가요?')).toMatchObject({ type: 'quantity' });
    expect(analyzeQuestion('주문 취소는 어디서 하나요?')).toMatchObject({ type: 'place' });
  });

  it('names the language of the question', () => {
    expect(questionLanguage('환불 되나요?')).toBe('Korean');
    expect(questionLanguage('Refund?')).toBe('English');
    expect(questionLanguage('返品できますか')).toBe('Japanese');
  });
});

describe('sentence evidence', () => {
  it("counts the question's neighbouring words found in order and close together, weighted by IDF", () => {
    const { stems } = analyzeQuestion('대통령 선거에 출마를 선언한 해는?');
    expect(stems).toEqual(['대통령', '선거', '출마', '선언']);
    const idf = new Map(tokenize('대통령 선거 출마 선언').map((token) => [token, 1]));
    const share = pairEvidence(stems, idf);
    // The sentence the question restates keeps its phrases: every pair.
    expect(share('그는 1992년 대통령 선거에 출마를 선언하였다.')).toBe(1);
    // The same words in another order, or far apart, are no pair.
    expect(share('선언 이후 출마, 선거 그리고 대통령.')).toBe(0);
    expect(share('대통령은 그해 여름 여러 지방을 돌며 선거 운동을 했다.')).toBe(0);
    expect(share('대통령 선거는 12월에 치러졌다.')).toBeCloseTo(1 / 3);
    // A question of one word has no pairs.
    expect(pairEvidence(['환불'], idf)('환불 규정')).toBe(0);
  });
});

describe('numbers in a question', () => {
  it('reads the numbers a question names, thousands separators dropped', () => {
    expect(numbersIn('2014년 동계 올림픽 개최 도시는?')).toEqual(['2014']);
    expect(numbersIn('2.26사건 당시 1,000명이 모인 곳은?')).toEqual(['2.26', '1000']);
    expect(numbersIn('환불은 언제 되나요?')).toEqual([]);
  });

  it('counts the share of them a chunk does not name as a whole number', () => {
    const question = analyzeQuestion('1996년 15대 총선에서 출마한 지역구는?');
    const idf = new Map(question.terms.map((term) => [term, 1]));
    const missing = (text: string) => {
      const chunk = { chunkId: 1, entryId: 1, start: 0, end: text.length, matched: [], bm25: 1, coverage: 0.5, score: 1 };
      return rerank([chunk], new Map([[1, text]]), { question, idf, df: new Map() })[0]!.features.numbersMissing;
    };
    expect(missing('1996.04.11 제15대 총선에서 종로구에 출마했다.')).toBe(0);
    // 150 and 1999 are other numbers than 15 and 1996.
    expect(missing('1999년 150대 총선에서 종로구에 출마했다.')).toBe(1);
    expect(missing('2006년 제15대 총선에서 종로구에 출마했다.')).toBe(0.5);
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
