import type { CallOptions, LlmProvider } from '../../providers/llm.js';
import { splitSentences } from './chunk.js';
import type { RetrievedChunk } from './retrieve.js';
import { tokenize } from './tokenize.js';

/** Said (in Korean, whatever the question's language) when no stored knowledge is relevant enough. */
export const NO_KNOWLEDGE_ANSWER = '저장된 지식에서 이 질문에 대한 답을 찾지 못했습니다. 관련 내용을 먼저 등록해 주세요.';

/**
 * The extractive answer: the sentence(s) of the best chunk that carry most of the question's
 * IDF weight, in the text's order.
 */
export function extractAnswer(chunk: string, idf: Map<string, number>): string {
  const sentences = splitSentences(chunk);
  const scores = sentences.map((sentence) => {
    const tokens = new Set(tokenize(sentence));
    let score = 0;
    for (const [term, weight] of idf) if (tokens.has(term)) score += weight;
    return score;
  });
  let best = 0;
  scores.forEach((score, i) => {
    if (score > scores[best]!) best = i;
  });
  // The best sentence, and the next most relevant one when it carries at least a third as much:
  // a topic line ("비밀번호 재설정: …") often outweighs the sentence holding the figure.
  const picked = new Set([best]);
  const runnerUp = scores.map((score, i) => ({ score, i })).filter(({ i }) => i !== best).sort((a, b) => b.score - a.score)[0];
  if (runnerUp && runnerUp.score > 0 && runnerUp.score >= 0.35 * scores[best]!) picked.add(runnerUp.i);
  return [...picked]
    .sort((a, b) => a - b)
    .map((i) => sentences[i])
    .join(' ')
    .trim() || chunk.trim();
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
export async function llmAnswer(llm: LlmProvider, question: string, chunks: RetrievedChunk[], opts: CallOptions): Promise<string> {
  const language = questionLanguage(question);
  const context = chunks.map((chunk, i) => `[${i + 1}] ${chunk.content}`).join('\n\n');
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
