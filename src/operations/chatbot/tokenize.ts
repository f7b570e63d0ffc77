/**
 * Tokens for retrieval that behave the same on PGlite and PostgreSQL, which have no Korean
 * parser: Hangul (and other CJK) runs become overlapping two-character tokens, so "환불은" and
 * "환불받으려면" share "환불"; Latin words and numbers are lower-cased whole words, with
 * a light plural folding ("refunds" → "refund"). The database never parses text itself: it
 * receives tsvector/tsquery literals built here.
 */

/** Hangul syllables and jamo, Han, Hiragana and Katakana: scripts written without word spaces. */
const WORD = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+|(?:(?![\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}])+/gu;
const IS_CJK = /^[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** tsvector limits: positions above 16,383 are clamped, and at most 256 are kept per lexeme. */
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_LEXEME = 256;
/** Longer "words" are hashes, keys or base64, never searched for (and a lexeme must stay under 2 KB). */
const MAX_WORD_CHARS = 64;

export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

function foldLatin(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') && !word.endsWith('us')) return word.slice(0, -1);
  return word;
}

/** The tokens of each word of a text, word by word. */
function wordTokens(text: string): string[][] {
  const words: string[][] = [];
  for (const match of normalizeText(text).matchAll(WORD)) {
    const word = match[0];
    if (IS_CJK.test(word)) {
      const chars = [...word];
      if (chars.length === 1) words.push([word]);
      else words.push(chars.slice(1).map((char, i) => chars[i]! + char));
    } else if (word.length <= MAX_WORD_CHARS) {
      words.push([foldLatin(word)]);
    }
  }
  return words;
}

/** Every token of a text in order (repeats kept: BM25 counts them). */
export function tokenize(text: string): string[] {
  return wordTokens(text).flat();
}

/** Single-syllable particles: "배송은" ends in the bigram "송은", which says nothing about delivery. */
const PARTICLE = /^[은는이가을를에의도로와과만]$/u;

/**
 * Function words and endings so frequent in Korean and English text that they match nearly
 * every chunk: dropped from questions only (they stay indexed), which keeps the candidate set
 * small without changing what a meaningful term finds.
 */
const QUERY_STOPWORDS = new Set([
  ...'니다 습니 합니 입니 있습 됩니 하는 에서 으로 하고 세요 해요 어요 나요 까요 니까 가요 는지 은지 인가 할까 되나 되는 있나 있는 어떻 떻게 무엇 엇인 인지 알려 려주 주세 려줘 궁금 금해 금합 이나 거나 하면 으면 려면 어야 해야 나는 주나 하나 한가 을까 는데 은데 건가 얼마 마나 마인 마예 마이 언제 제까 제인 어디 디에 디서 디인 디예 뭐예 예요 무슨 어떤 떤 여러 며칠 칠인 번 이고 되려 받나 까지 수 할 그 이 것 때 좀 및 등 더 잘 또 한 몇 왜 뭐 될 된'.split(
    ' ',
  ),
  ...'a an the is are was were be been do does did to of in on at for and or with by from my your our i we you it this that what how when where who which can could should would will there any about me please tell many much often long doe have has'.split(
    ' ',
  ),
]);

/**
 * The distinct tokens of a question worth searching for: no stopwords, and no final
 * noun+particle bigram of a longer Korean word (all tokens if nothing else remains).
 */
export function queryTerms(question: string): string[] {
  const all = new Set<string>();
  const kept = new Set<string>();
  for (const tokens of wordTokens(question)) {
    tokens.forEach((token, i) => {
      all.add(token);
      const particleEnding = tokens.length > 1 && i === tokens.length - 1 && PARTICLE.test([...token][1] ?? '');
      if (!particleEnding && !QUERY_STOPWORDS.has(token)) kept.add(token);
    });
  }
  return [...(kept.size > 0 ? kept : all)];
}

function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replace(/['\\]/g, (c) => c + c)}'`;
}

/** A tsvector literal with positions, e.g. `'환불':1,4 '불은':2`. */
export function toTsvectorLiteral(tokens: string[]): string {
  const positions = new Map<string, number[]>();
  tokens.forEach((token, index) => {
    const list = positions.get(token) ?? [];
    if (list.length < MAX_POSITIONS_PER_LEXEME) list.push(Math.min(index + 1, MAX_POSITION));
    positions.set(token, list);
  });
  return [...positions].map(([lexeme, list]) => `${quoteLexeme(lexeme)}:${[...new Set(list)].join(',')}`).join(' ');
}

/** An OR tsquery literal over the given terms, e.g. `'환불' | 'refund'`. */
export function toOrQueryLiteral(terms: string[]): string {
  return terms.map(quoteLexeme).join(' | ');
}

export function isCjkToken(token: string): boolean {
  return IS_CJK.test(token);
}
