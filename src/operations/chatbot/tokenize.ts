/**
 * Tokens for retrieval that behave the same on PGlite and PostgreSQL, which have no Korean
 * parser: Hangul (and other CJK) runs become overlapping two-character tokens, so "환불은" and
 * "환불받으려면" share "환불"; Latin words and numbers are lower-cased whole words, with
 * a light plural folding ("refunds" → "refund"). The database never parses text itself: it
 * receives tsvector/tsquery literals built here.
 */

/** Hangul syllables and jamo, Han, Hiragana and Katakana: scripts written without word spaces. */
const WORD =
  /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+|(?:(?![\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}])+/gu;
const IS_CJK = /^[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const IS_HANGUL = /^\p{Script=Hangul}/u;

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

/**
 * Korean particles (조사), a closed grammatical class, longest first: "딸의", "딸에게서" and
 * "딸" must all find "딸". Stripped from the end of a Hangul word before it is cut into bigrams.
 */
const PARTICLES = [
  ...'에서부터 으로부터 이라는 이라고 이라도 이라면 이었던 로부터 에게서 한테서 으로서 으로써 에서는 에서도 에서의 에게는 에게도 으로는 으로도 으로의 까지는 까지도 부터는 이라 이란 이나 이며 이고 이다 이든 라는 라고 로서 로써 로는 로도 로의 에는 에도 에의 과의 와의 과는 와는 처럼 보다 부터 까지 마저 조차 밖에 대로 만큼 에서 에게 한테 께서 으로 이랑 들은 들이 들을 들의 들도 들과 들에'.split(
    ' ',
  ),
  ...'은 는 이 가 을 를 에 의 도 로 와 과 만 께 랑 들'.split(' '),
];

/** The stem of a Hangul word without its particle, or the word when none fits. */
export function stripParticle(word: string): string {
  const chars = [...word];
  for (const particle of PARTICLES) {
    if (chars.length > particle.length && word.endsWith(particle)) return word.slice(0, -particle.length);
  }
  return word;
}

/** Bigrams of a run of syllables; a single syllable is its own token. */
function bigrams(chars: string[]): string[] {
  if (chars.length === 1) return [chars[0]!];
  return chars.slice(1).map((char, i) => chars[i]! + char);
}

/**
 * Tokens of one Hangul word: the bigrams of its stem. A two-syllable word whose second
 * syllable may be a particle ("딸의", but also "아이") keeps its bigram as well as the
 * one-syllable stem, so either reading matches.
 */
function hangulTokens(word: string): string[] {
  const stem = [...stripParticle(word)];
  if (stem.length === 1 && [...word].length === 2) return [stem[0]!, word];
  return bigrams(stem);
}

/** The tokens of each word of a text, word by word. */
function wordTokens(text: string, stemWord: (word: string) => string = (word) => word): string[][] {
  return sourcedWordTokens(text, stemWord).map(({ tokens }) => tokens);
}

/** The tokens of each word of a text, with the word they come from. */
function sourcedWordTokens(text: string, stemWord: (word: string) => string): Array<{ word: string; tokens: string[] }> {
  const words: Array<{ word: string; tokens: string[] }> = [];
  for (const match of normalizeText(text).matchAll(WORD)) {
    const word = match[0];
    if (IS_HANGUL.test(word)) words.push({ word, tokens: hangulTokens(stemWord(word)) });
    else if (IS_CJK.test(word)) words.push({ word, tokens: bigrams([...word]) });
    else if (word.length <= MAX_WORD_CHARS) words.push({ word, tokens: [foldLatin(word)] });
  }
  return words;
}

/** Every token of a text in order (repeats kept: BM25 counts them). */
export function tokenize(text: string): string[] {
  return wordTokens(text).flat();
}

/**
 * Endings of questions (종결어미 with their tense and honorific parts), longest first:
 * "발생하였나" searches "발생하", not the ending "였나" that no statement contains.
 */
const QUESTION_ENDINGS =
  '었습니까 았습니까 였습니까 었는가요 었는가 았는가 였는가 었나요 았나요 였나요 었을까 았을까 였을까 습니까 입니까 는가요 인가요 었나 았나 였나 는가 인가 나요 니까 는지 은지 인지 을까 할까 까요 가요 예요 에요 었지 였지 던가 된 한 는 나'.split(
    ' ',
  );

/** Particles of two syllables or more ("쇼와사라는" → 쇼와사): read before a question ending, whose "는" would otherwise leave "라". */
const LONG_PARTICLES = PARTICLES.filter((particle) => [...particle].length >= 2);

function stripQuestionEnding(word: string): string {
  const chars = [...word];
  // Left to the particle stripping that indexing does too.
  if (LONG_PARTICLES.some((p) => chars.length > [...p].length && word.endsWith(p))) return word;
  for (const ending of QUESTION_ENDINGS) {
    if ([...word].length > [...ending].length + 1 && word.endsWith(ending)) return word.slice(0, -ending.length);
  }
  return word;
}

/**
 * Function words and endings so frequent in Korean and English text that they match nearly
 * every chunk: dropped from questions only (they stay indexed), which keeps the candidate set
 * small without changing what a meaningful term finds.
 */
const QUERY_STOPWORDS = new Set([
  ...'니다 습니 합니 입니 있습 됩니 하는 에서 으로 하고 세요 해요 어요 나요 까요 니까 가요 는지 은지 인가 할까 되나 되는 있나 있는 어떻 떻게 무엇 엇인 인지 알려 려주 주세 려줘 궁금 금해 금합 이나 거나 하면 으면 려면 어야 해야 나는 주나 하나 한가 을까 는데 은데 건가 얼마 마나 마인 마예 마이 언제 제까 제인 어디 디에 디서 디인 디예 뭐예 예요 무슨 어떤 떤 여러 며칠 칠인 번 이고 되려 받나 까지 수 할 그 이 것 때 좀 및 등 더 잘 또 한 몇 왜 뭐 될 된 누구 누가 어느 하였 했나 였나 었나 었는 였는 하여 무엇 인가'.split(
    ' ',
  ),
  ...'a an the is are was were be been do does did to of in on at for and or with by from my your our i we you it this that what how when where who which can could should would will there any about me please tell many much often long doe have has'.split(
    ' ',
  ),
]);

/** A question word without its ending, and without 몇 before a counter ("몇가구로" → 가구로). */
function questionStem(word: string): string {
  return stripQuestionEnding(word.startsWith('몇') && [...word].length > 1 ? word.slice(1) : word);
}

/**
 * Interrogatives, with whatever particle or ending follows ("누가", "누구와", "무엇이라고",
 * "얼마나"): they ask, no statement holds them, so they are never searched for.
 * "왜" and "뭐" only alone: "왜곡", "뭐든" are words of their own. "몇" glued to its counter
 * ("몇가구로", "몇명") leaves the counter, which the answer repeats ("3786가구").
 */
const INTERROGATIVE = /^(?:누구|누가|무엇|무슨|어디|언제|얼마|어느|어떤|어떻|어떠|몇$|왜$|뭐|뭘$)/u;

export function isInterrogative(word: string): boolean {
  return INTERROGATIVE.test(word);
}

/** Longest questions are searched by this many distinct terms (the rarest in the account), bounding a query's work. */
export const MAX_QUERY_TERMS = 32;
/** …chosen among this many (their first ones), whose frequencies are looked up first. */
export const MAX_QUERY_CANDIDATES = 96;

/**
 * The question's words worth searching for, each as its alternative tokens ("딸의" → 딸, 딸의):
 * no endings, no stopwords, at most `limit` tokens in all (every word when nothing
 * else remains). A word's alternatives count once towards the share of the question a chunk covers.
 */
export function queryWords(question: string, drop: ReadonlySet<string> = new Set(), limit = MAX_QUERY_TERMS): string[][] {
  const all: string[][] = [];
  const kept: string[][] = [];
  const seen = new Set<string>();
  for (const { word, tokens } of sourcedWordTokens(question, questionStem)) {
    const asks = isInterrogative(word);
    const fresh = tokens.filter((token) => !seen.has(token));
    fresh.forEach((token) => seen.add(token));
    // A Hangul word yields bigrams (each a word of its own for coverage) or a stem/word pair (one word).
    const groups =
      tokens.length === 2 && [...tokens[0]!].length === 1 && [...tokens[1]!].length === 2 ? [fresh] : fresh.map((token) => [token]);
    for (const group of groups) {
      if (group.length === 0) continue;
      all.push(group);
      const useful = asks ? [] : group.filter((token) => !QUERY_STOPWORDS.has(token) && !drop.has(token));
      if (useful.length > 0) kept.push(useful);
    }
  }
  const words = kept.length > 0 ? kept : all;
  const bounded: string[][] = [];
  let terms = 0;
  for (const word of words) {
    if (terms + word.length > limit) break;
    bounded.push(word);
    terms += word.length;
  }
  return bounded;
}

/**
 * The question's whole words without particles and endings ("딸의" → 딸의 stem 딸, "발생하였나"
 * → 발생하), two characters or more, leaving out question words: matched verbatim in a
 * passage, they tell the sentence that names the same things from one that only shares syllables.
 */
export function queryStems(question: string, drop: ReadonlySet<string> = new Set()): string[] {
  const stems = new Set<string>();
  for (const match of normalizeText(question).matchAll(WORD)) {
    const word = match[0];
    if (word.length > MAX_WORD_CHARS || isInterrogative(word)) continue;
    const hangul = IS_HANGUL.test(word);
    const stem = hangul ? stripParticle(questionStem(word)) : IS_CJK.test(word) ? word : foldLatin(word);
    if ([...stem].length < 2) continue;
    const tokens = hangul ? bigrams([...stem]) : [stem];
    if (tokens.every((token) => QUERY_STOPWORDS.has(token) || drop.has(token))) continue;
    stems.add(stem);
    if (stems.size >= MAX_QUERY_TERMS) break;
  }
  return [...stems];
}

/** The distinct tokens of a question worth searching for (see queryWords). */
export function queryTerms(question: string, drop: ReadonlySet<string> = new Set()): string[] {
  return queryWords(question, drop).flat();
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
