import type { CallOptions, LlmProvider } from '../../providers/llm.js';
import { sentenceSpans, type Span } from './chunk.js';
import { hasTypeSign, type AnswerType } from './question.js';
import { tokenize } from './tokenize.js';

/** Said (in Korean, whatever the question's language) when no stored knowledge is relevant enough. */
export const NO_KNOWLEDGE_ANSWER = '저장된 지식에서 이 질문에 대한 답을 찾지 못했습니다. 관련 내용을 먼저 등록해 주세요.';

/** Share of the question's weight a sentence gains by holding the asked kind of answer (a date for "when"…). */
const TYPE_BONUS = 0.4;
/** …and by lying in the chunk the search ranked first. */
const BEST_CHUNK_BONUS = 0.05;
/** …and by lying in the passage the ranking found to cover the question best. */
const FOCUS_BONUS = 0.25;

/** A sentence that opens by pointing back (이 기타는, 그는, 이로써, 또한, this, it…) needs the one before it. */
const REFERS_BACK =
  /^(?:이|그|저|이러한|그러한|이런|그런|이로써|이에|그래서|그러나|하지만|또한|또|한편|즉|this|that|these|those|it|they|he|she)(?:\s|[은는이가을를의에도로])/iu;

/** A short line without a sentence's final punctuation: a heading or a label naming what follows. */
function isHeading(line: string): boolean {
  return line.length <= 40 && !/[.!?。…다요]\W*$/u.test(line);
}

/**
 * The question's terms weighted for choosing a sentence within one entry: a term found in most
 * of its sentences (the entry's own subject, "티베트 고원" in a paragraph about it) tells them
 * apart less than one found in a single sentence, as IDF does between entries. Absent terms
 * count as if in one sentence, so the share a type or position bonus adds stays comparable.
 */
function sentenceWeights(idf: Map<string, number>, sentences: Array<Set<string>>): Map<string, number> {
  const weights = new Map<string, number>();
  const n = sentences.length;
  for (const [term, weight] of idf) {
    const found = sentences.filter((tokens) => tokens.has(term)).length || 1;
    weights.set(term, weight * Math.log((n + 1) / found));
  }
  return weights;
}

export interface ExtractedAnswer {
  text: string;
  /** Where the quoted text starts and ends in the entry. */
  start: number;
  end: number;
}

/**
 * The extractive answer from the best entry: its sentence that carries most of the question's
 * IDF weight, favouring one that holds the asked kind of answer, and the next most relevant
 * one when it carries at least a third as much (a topic line such as "비밀번호 재설정: …" often
 * outweighs the sentence with the figure). The whole entry is read, not only the best chunk,
 * so an answer just past a chunk's edge is still found.
 */
export function extractAnswer(
  content: string,
  idf: Map<string, number>,
  type: AnswerType = 'other',
  bestChunk?: Span,
  focus?: Span,
): ExtractedAnswer {
  const sentences = sentenceSpans(content);
  const tokenSets = sentences.map((span) => new Set(tokenize(content.slice(span.start, span.end))));
  const weights = sentenceWeights(idf, tokenSets);
  const total = [...weights.values()].reduce((sum, value) => sum + value, 0) || 1;
  const scores = sentences.map((span, i) => {
    const sentence = content.slice(span.start, span.end);
    const tokens = tokenSets[i]!;
    let score = 0;
    for (const [term, weight] of weights) if (tokens.has(term)) score += weight;
    if (score === 0) return 0;
    if (hasTypeSign(sentence, type)) score += TYPE_BONUS * total;
    if (bestChunk && span.start >= bestChunk.start && span.end <= bestChunk.end) score += BEST_CHUNK_BONUS * total;
    if (focus && span.start >= focus.start && span.end <= focus.end) score += FOCUS_BONUS * total;
    return score;
  });
  let best = 0;
  scores.forEach((score, i) => {
    if (score > scores[best]!) best = i;
  });
  if (sentences.length === 0) return { text: content.trim(), start: 0, end: content.length };
  const picked = [best];
  const runnerUp = scores
    .map((score, i) => ({ score, i }))
    .filter(({ i }) => i !== best)
    .sort((a, b) => b.score - a.score || a.i - b.i)[0];
  if (runnerUp && runnerUp.score > 0 && runnerUp.score >= 0.35 * scores[best]!) picked.push(runnerUp.i);
  const text = (i: number) => content.slice(sentences[i]!.start, sentences[i]!.end);
  // Context the best sentence cannot do without: the line naming what "이 기타는…" refers to,
  // or, when it lacks the asked kind of answer, a neighbour that has it.
  const before = best - 1;
  if (before >= 0 && !picked.includes(before) && (REFERS_BACK.test(text(best)) || isHeading(text(before)))) picked.push(before);
  if (type !== 'other' && !hasTypeSign(text(best), type) && !picked.some((i) => hasTypeSign(text(i), type))) {
    const neighbour = [best + 1, best - 1].find((i) => i >= 0 && i < sentences.length && hasTypeSign(text(i), type));
    if (neighbour !== undefined && !picked.includes(neighbour)) picked.push(neighbour);
  }
  picked.sort((a, b) => a - b);
  return { text: picked.map(text).join(' '), start: sentences[picked[0]!]!.start, end: sentences[picked.at(-1)!]!.end };
}

const LANGUAGE_NAMES: Array<[RegExp, string]> = [
  [/\p{Script=Hangul}/u, 'Korean'],
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'Japanese'],
  [/\p{Script=Han}/u, 'Chinese'],
  [/\p{Script=Latin}/u, 'English'],
];

/** The question's language by its script: enough to tell the model which language to answer in. */
export function questionLanguage(question: string): string {
  return LANGUAGE_NAMES.find(([pattern]) => pattern.test(question))?.[1] ?? 'the language of the question';
}

/** The grounded answer: the model sees only the retrieved chunks and must say when they don't answer. */
export async function llmAnswer(llm: LlmProvider, question: string, chunks: string[], opts: CallOptions): Promise<string> {
  const language = questionLanguage(question);
  const context = chunks.map((chunk, i) => `[${i + 1}] ${chunk}`).join('\n\n');
  const { text } = await llm.chat(
    {
      messages: [
        {
          role: 'system',
          content: [
            "You answer questions using ONLY the knowledge excerpts below, which come from the user's team knowledge base.",
            'Do not use outside knowledge and do not invent facts, numbers, names or links.',
            `If the excerpts do not contain the answer, say so plainly (in ${language}) instead of guessing.`,
            `Answer in ${language}, concisely (at most a few sentences).`,
            '',
            'Knowledge excerpts:',
            context,
          ].join('\n'),
        },
        { role: 'user', content: question },
      ],
      temperature: 0.1,
      maxTokens: 600,
    },
    opts,
  );
  return text.trim();
}
