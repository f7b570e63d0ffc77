import type { Database } from '../../../db/client.js';
import { AppError } from '../../errors.js';
import type { Operation, OperationContext } from '../../platform/execute.js';
import type { LlmProvider } from '../../providers/llm.js';
import { extractAnswer, llmAnswer, NO_KNOWLEDGE_ANSWER } from './answer.js';
import { chatbotSchema, type ChatbotInput } from './chatbot.schema.js';
import { chunkText } from './chunk.js';
import { EntryLimitError, type KnowledgeStore } from './knowledge-store.js';
import { retrieve, type RetrievedChunk } from './retrieve.js';
import { queryTerms } from './tokenize.js';

export interface ChatbotDeps {
  db: Database;
  store: KnowledgeStore;
  llm: LlmProvider;
  /** Embed chunks and questions (OPENAI_EMBEDDING_MODEL set): adds vector similarity, fused by rank. */
  useEmbeddings: boolean;
  /** Least share of the question's IDF weight the best chunk must match to be used (calibrated on the evaluation set). */
  minCoverage?: number;
  /** With embeddings, a cosine similarity at least this high also counts as relevant. */
  minSimilarity?: number;
  /** Chunks handed to the LLM. */
  contextChunks?: number;
}

/** The answer of each action (SPEC §1). */
export interface ChatbotOutputs {
  chat: { answer: string; sources: Array<{ id: number; score: number }> };
  index: { message: string; id: number };
  list: { knowledge_list: Array<{ id: number; content: string; created_at: string }>; total: number; offset: number; limit: number };
  delete: { message: string; id: number };
  clear: { message: string; deleted: number };
}

export type ChatbotOutput = ChatbotOutputs[keyof ChatbotOutputs];

export const DEFAULT_MIN_COVERAGE = 0.42;

/**
 * Knowledge chatbot (SPEC §1): `index` stores an entry of the account (chunked, searchable at
 * once), `list` pages its entries newest first, `delete` removes one (404 when not the
 * caller's), `clear` removes all; `chat` retrieves with Korean-aware BM25 (plus vectors when
 * configured) and answers from the best chunks: grounded by the LLM when one is configured,
 * else extractively. Nothing relevant enough stored: a Korean "no knowledge" answer and no
 * LLM call. Every answered action costs one call (CONTRACT §3).
 */
export function createChatbotOperation(deps: ChatbotDeps): Operation<typeof chatbotSchema, ChatbotOutput> {
  const minCoverage = deps.minCoverage ?? DEFAULT_MIN_COVERAGE;
  const minSimilarity = deps.minSimilarity ?? 0.8;
  const contextChunks = deps.contextChunks ?? 4;
  const useEmbeddings = deps.useEmbeddings && deps.llm.configured;

  const isRelevant = (chunk: RetrievedChunk) => chunk.coverage >= minCoverage || (chunk.similarity ?? 0) >= minSimilarity;

  async function chat(ctx: OperationContext, message: string): Promise<ChatbotOutputs['chat']> {
    const terms = queryTerms(message);
    const questionEmbedding = useEmbeddings && terms.length > 0 ? (await deps.llm.embed([message], { logger: ctx.logger }))[0] : undefined;
    const { chunks, idf } = await retrieve(deps.db, ctx.account.id, terms, { questionEmbedding });
    const relevant = chunks.filter(isRelevant);
    const best = relevant[0];
    ctx.logger.debug({ terms: terms.length, candidates: chunks.length, relevant: relevant.length }, 'chatbot retrieval');
    if (!best) return { answer: NO_KNOWLEDGE_ANSWER, sources: [] };

    const sources = dedupeByEntry(relevant).map((chunk) => ({ id: chunk.entryId, score: round(chunk.score) }));
    const extractive = () => extractAnswer(best.content, idf);
    const answer = deps.llm.configured
      ? (await llmAnswer(deps.llm, message, relevant.slice(0, contextChunks), { logger: ctx.logger })) || extractive()
      : extractive();
    return { answer, sources };
  }

  async function index(ctx: OperationContext, content: string): Promise<ChatbotOutputs['index']> {
    const chunks = chunkText(content);
    const embeddings = useEmbeddings ? await deps.llm.embed(chunks, { logger: ctx.logger }) : undefined;
    try {
      const [entry] = await deps.store.add(ctx.account.id, [{ content, chunks, embeddings }]);
      ctx.logger.debug({ chars: content.length, chunks: chunks.length }, 'knowledge indexed');
      return { message: '지식이 저장되었습니다.', id: entry!.id };
    } catch (error) {
      if (error instanceof EntryLimitError) {
        throw new AppError(
          'CONFLICT',
          `저장할 수 있는 지식은 계정당 ${deps.store.maxEntries.toLocaleString('en-US')}개까지입니다. 필요 없는 항목을 삭제한 뒤 다시 시도하세요.`,
          { limit: deps.store.maxEntries },
        );
      }
      throw error;
    }
  }

  return {
    api: 'chatbot-rag',
    schema: chatbotSchema,
    async run(ctx, input: ChatbotInput) {
      switch (input.action) {
        case 'chat':
          return chat(ctx, input.message);
        case 'index':
          return index(ctx, input.content);
        case 'list': {
          const { entries, total } = await deps.store.list(ctx.account.id, input.offset, input.limit);
          const knowledge_list = entries.map((e) => ({ id: e.id, content: e.content, created_at: e.createdAt.toISOString() }));
          return { knowledge_list, total, offset: input.offset, limit: input.limit };
        }
        case 'delete': {
          if (!(await deps.store.remove(ctx.account.id, input.id))) {
            throw new AppError('NOT_FOUND', `id ${input.id}인 지식 항목이 없습니다.`);
          }
          return { message: `지식 항목 ${input.id}이(가) 삭제되었습니다.`, id: input.id };
        }
        case 'clear': {
          const deleted = await deps.store.clear(ctx.account.id);
          return { message: `저장된 지식 ${deleted}개가 모두 삭제되었습니다.`, deleted };
        }
      }
    },
  };
}

function dedupeByEntry(chunks: RetrievedChunk[]): RetrievedChunk[] {
  const seen = new Set<number>();
  return chunks.filter((chunk) => !seen.has(chunk.entryId) && seen.add(chunk.entryId));
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
