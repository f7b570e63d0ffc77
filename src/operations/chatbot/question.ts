import { MAX_QUERY_CANDIDATES, normalizeText, queryStems, queryWords, stripParticle, tokenize } from './tokenize.js';

/**
 * What a question asks for, read as classical QA systems do: the interrogative (누구, 언제,
 * 어디, 몇, 얼마; who, when, where, how many) or the answer-type noun at the question's focus
 * ("…한 인물은?", "…의 이름은?", "…한 년도는?"). Those words say what kind of answer is wanted
 * and never occur in the statement that holds it, so they are not searched for: they only
 * choose the sentence (a date for "when", a number for "how many").
 */
export type AnswerType = 'person' | 'time' | 'place' | 'quantity' | 'other';

export interface QuestionAnalysis {
  /** Terms to search for (up to MAX_QUERY_CANDIDATES: retrieval keeps the rarest MAX_QUERY_TERMS of a longer question). */
  terms: string[];
  /** The same terms by question word (alternatives of one word together). */
  words: string[][];
  /** Its whole words without particles or endings, matched verbatim when ranking passages. */
  stems: string[];
  type: AnswerType;
  /** The numbers it names ("2014년" → 2014, "2.26사건" → 2.26): a passage that answers it names them too. */
  numbers: string[];
}

const INTERROGATIVES: Array<[RegExp, AnswerType]> = [
  [/누구|누가|\bwho\b|\bwhom\b/u, 'person'],
  [/언제|며칠|몇\s*(?:년|월|일|시|세기|년도)|무슨\s*요일|\bwhen\b|what time|which day/u, 'time'],
  [/어디|어느\s*(?:곳|지역|나라|도시)|\bwhere\b/u, 'place'],
  [/몇|얼마|\bhow (?:many|much|long|often|quickly)\b/u, 'quantity'],
];

/** Answer-type nouns (the question's focus): a question ending "…의 이름은?" asks for a name. */
const FOCUS_NOUNS: Record<string, AnswerType> = {
  사람: 'person',
  인물: 'person',
  이름: 'person',
  선수: 'person',
  해: 'time',
  때: 'time',
  년도: 'time',
  연도: 'time',
  날짜: 'time',
  시기: 'time',
  시점: 'time',
  기간: 'time',
  장소: 'place',
  지역: 'place',
  위치: 'place',
  곳: 'place',
  도시: 'place',
  나라: 'place',
  국가: 'place',
  수: 'quantity',
  개수: 'quantity',
  금액: 'quantity',
  비율: 'quantity',
};

/** The Hangul words of a question's last clause, stripped of particles and the question mark. */
function focusWords(question: string): Array<{ word: string; stem: string }> {
  const words = normalizeText(question).match(/\p{Script=Hangul}+/gu) ?? [];
  return words.slice(-2).map((word) => ({ word, stem: stripParticle(word) }));
}

export function analyzeQuestion(question: string): QuestionAnalysis {
  const lower = normalizeText(question);
  let type: AnswerType = INTERROGATIVES.find(([pattern]) => pattern.test(lower))?.[1] ?? 'other';
  const drop = new Set<string>();
  for (const { word, stem } of focusWords(question)) {
    const focus = FOCUS_NOUNS[stem];
    if (!focus) continue;
    if (type === 'other') type = focus;
    // "해는" is searched as 해 or 해는: neither form is wanted.
    for (const token of [...tokenize(stem), ...tokenize(word)]) drop.add(token);
  }
  const words = queryWords(question, drop, MAX_QUERY_CANDIDATES);
  return { terms: words.flat(), words, stems: queryStems(question, drop), type, numbers: numbersIn(question) };
}

/** Numbers written in digits, thousands separators dropped ("1,000" and "1000" are one number). */
export function numbersIn(text: string): string[] {
  return [...new Set(text.match(/\d+(?:[.,:]\d+)*/g) ?? [])].map((number) => number.replace(/(?<=\d),(?=\d{3}\b)/g, ''));
}

/** Signs in a sentence that it holds the kind of answer asked for. */
const TYPE_SIGNS: Record<AnswerType, RegExp | undefined> = {
  time: /\d\s*(?:년|월|일|시|분|세기)|[월화수목금토일]요일|\b\d{4}\b|\d{1,2}:\d\d|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|daily|weekly|every)/iu,
  quantity: /\d/u,
  place: /\p{Script=Hangul}+(?:에서|에 위치|으로 이동|시|도|국|주|구|군|역|관|원|당|섬|산|강)\b/u,
  person: undefined,
  other: undefined,
};

/** Whether the asked type has signs to look for (a person's name has none). */
export function hasTypeSigns(type: AnswerType): boolean {
  return TYPE_SIGNS[type] !== undefined;
}

/** Whether a sentence shows the sign of the asked type (always false for 'other'). */
export function hasTypeSign(sentence: string, type: AnswerType): boolean {
  return TYPE_SIGNS[type]?.test(sentence) ?? false;
}
