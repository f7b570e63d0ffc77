import type { Database } from '../../../db/client.js';
import { AppError } from '../../errors.js';
import type { Operation, OperationContext } from '../../platform/execute.js';
import type { LlmProvider } from '../../providers/llm.js';
import { createAccountGate, type AccountGate } from './account-gate.js';
import { extractAnswer, llmAnswer, NO_KNOWLEDGE_ANSWER } from './answer.js';
import { chatbotSchema, type ChatbotInput } from './chatbot.schema.js';
import { chunkSpans, type Span } from './chunk.js';
import { KnowledgeLimitError, type KnowledgeStore } from './knowledge-store.js';
import { analyzeQuestion } from './question.js';
import { DEFAULT_MIN_RELEVANCE, isAnswerable, relevance, rerank } from './rerank.js';
import { informativeWords, retrieve, type RetrievedChunk } from './retrieve.js';
import { withJosa } from '../../korean.js';
import type { z } from 'zod';
import type { chatbotOutputSchema, EntryInput } from './chatbot.schema.js';
import type { DocumentReader } from '../../providers/documents/read-document.js';
import type { PageFetcher } from './page-fetch.js';
import type { NewEntry } from './knowledge-store.js';

export interface ChatbotDeps {
  db: Database;
  store: KnowledgeStore;
  llm: LlmProvider;
  /** Embed chunks and questions (OPENAI_EMBEDDING_MODEL set): adds vector similarity, fused by rank. */
  useEmbeddings: boolean;
  /** Log-odds the best chunk's relevance must reach to be answered from (see rerank.ts; calibrated on KorQuAD tuning seeds and the support set). */
  minRelevance?: number;
  /** With embeddings, a cosine similarity at least this high also counts as relevant. */
  minSimilarity?: number;
  /** Chunks handed to the LLM. */
  contextChunks?: number;
  /** Run searches under a statement timeout (PostgreSQL; PGlite ignores it). */
  statementTimeout?: boolean;
  /** Per-account turns for `chat` and `index` (2 at once, 8 waiting by default). */
  gate?: AccountGate;
  /** Files (`file`) and fetched pages read to text. */
  documents: DocumentReader;
  /** `url`: public pages fetched safely. */
  fetchPage: PageFetcher;
}

/** `z.output` of its schema (chatbot.schema.ts): one of the actions' answers. */
export type ChatbotOutput = z.output<typeof chatbotOutputSchema>;

/** The answer of the two actions typed here, picked out of the schema's union. */
type ChatAnswer = Extract<ChatbotOutput, { answer: string }>;
type IndexAnswer = Extract<ChatbotOutput, { id: number; message: string }> | Extract<ChatbotOutput, { ids: number[] }>;

/** With vectors, and for sources after the first: least share of the question's IDF weight a chunk must match. */
export const DEFAULT_MIN_COVERAGE = 0.5;
/** BM25's best chunks that are ranked again by sentence. */
const RERANK_POOL = 12;

/**
 * Knowledge chatbot (SPEC §1): `index` stores an entry of the account (chunked, searchable at
 * once), `list` pages its entries newest first, `delete` removes one (404 when not the
 * caller's), `clear` removes all; `chat` retrieves with Korean-aware BM25 (plus vectors when
 * configured) and answers from the best chunks: grounded by the LLM when one is configured,
 * else extractively. Nothing relevant enough stored: a Korean "no knowledge" answer and no
 * LLM call. Every answered action costs one call (CONTRACT §3).
 */
export function createChatbotOperation(deps: ChatbotDeps): Operation<typeof chatbotSchema, ChatbotOutput> {
  const minRelevance = deps.minRelevance ?? DEFAULT_MIN_RELEVANCE;
  const minSimilarity = deps.minSimilarity ?? 0.8;
  const contextChunks = deps.contextChunks ?? 4;
  const useEmbeddings = deps.useEmbeddings && deps.llm.configured;

  // Waits are bounded (5 s here, 5 s for a document reader's turn, 20 s to read): a file is answered within 30 s.
  const gate = deps.gate ?? createAccountGate({ concurrent: 2, queued: 8, maxWaitMs: 5_000 });

  const isRelevant = (chunk: RetrievedChunk) => chunk.coverage >= DEFAULT_MIN_COVERAGE || (chunk.similarity ?? 0) >= minSimilarity;

  async function chat(ctx: OperationContext, message: string, scopes: string[]): Promise<ChatAnswer> {
    const analysis = analyzeQuestion(message);
    const words = await informativeWords(deps.db, ctx.account.id, analysis.words, { statementTimeout: deps.statementTimeout });
    const terms = words.flat();
    const question = { ...analysis, words, terms };
    const { type } = question;
    const questionEmbedding = useEmbeddings && terms.length > 0 ? (await deps.llm.embed([message], { logger: ctx.logger }))[0] : undefined;
    const retrieval = await retrieve(deps.db, ctx.account.id, terms, {
      questionEmbedding,
      words,
      limit: RERANK_POOL,
      statementTimeout: deps.statementTimeout,
      scopes,
    });
    const { idf, df } = retrieval;
    const candidates = questionEmbedding ? retrieval.chunks.filter(isRelevant) : retrieval.chunks;
    const contents = await deps.store.contents(ctx.account.id, [...new Set(candidates.map((chunk) => chunk.entryId))]);
    let relevant: RetrievedChunk[];
    let focus: Span | undefined;
    if (questionEmbedding) {
      // With vectors, the fused ranking stands and a chunk is relevant by coverage or similarity.
      relevant = candidates;
    } else {
      // Without, the lexical candidates are ranked again by passage, and the best must pass the calibrated gate.
      const ranked = rerank(candidates, contents, { question, idf, df });
      const answerable = isAnswerable(ranked, words.length, minRelevance);
      relevant = answerable
        ? ranked.filter((chunk, i) => i === 0 || isRelevant(chunk) || relevance(ranked, i, words.length) >= minRelevance)
        : [];
      focus = ranked[0]?.focus;
    }
    const best = relevant[0];
    ctx.logger.debug({ terms: terms.length, candidates: retrieval.chunks.length, relevant: relevant.length }, 'chatbot retrieval');
    if (!best) return { answer: NO_KNOWLEDGE_ANSWER, sources: [] };

    const context = relevant.slice(0, contextChunks);
    const cited = dedupeByEntry(relevant);
    const named = await deps.store.sources(
      ctx.account.id,
      cited.map((chunk) => chunk.entryId),
    );
    const sources = cited.map((chunk) => ({
      id: chunk.entryId,
      score: round(chunk.score),
      start: chunk.start,
      end: chunk.end,
      source: named.get(chunk.entryId)?.source ?? null,
      url: named.get(chunk.entryId)?.url ?? null,
    }));
    const passage = (contents.get(best.entryId) ?? '').slice(best.start, best.end).trim();
    const extractive = () => extractAnswer(contents.get(best.entryId) ?? '', idf, type, best, focus).text;
    const texts = context.map((chunk) => (contents.get(chunk.entryId) ?? '').slice(chunk.start, chunk.end));
    const answer = deps.llm.configured ? (await llmAnswer(deps.llm, message, texts, { logger: ctx.logger })) || extractive() : extractive();
    return { answer, sources, passage };
  }

  /** One entry's text, source name and link: typed text as is, a file or a page read to text. */
  async function prepare(ctx: OperationContext, entry: EntryInput): Promise<NewEntry> {
    const base = { scope: entry.scope, source: entry.source, sourceUrl: entry.source_url };
    if (entry.content !== undefined) return { ...base, content: entry.content };
    if (entry.file) {
      const bytes = Buffer.from(entry.file.base64, 'base64');
      const document = await deps.documents.readFile(entry.file.name, bytes, ctx.signal);
      return { ...base, content: document.text, source: entry.source ?? entry.file.name };
    }
    const page = await deps.fetchPage(entry.url!, ctx.signal);
    const document = await deps.documents.readPage(page.kind, page.body, ctx.signal);
    const pageUrl = withoutQuery(page.url);
    return {
      ...base,
      content: document.text,
      source: entry.source ?? (document.title || pageUrl),
      sourceUrl: entry.source_url ?? pageUrl,
    };
  }

  async function index(ctx: OperationContext, entries: EntryInput[], bulk: boolean): Promise<IndexAnswer> {
    // One call per entry (issue 39): the executor charged the first; the rest are charged up
    // front, so a quota too small for the batch is a 429 before any work (and all are refunded).
    for (let i = 1; i < entries.length; i++) await ctx.charge('chatbot-rag');
    const prepared: NewEntry[] = [];
    for (const entry of entries) {
      const next = await prepare(ctx, entry);
      const chunks = chunkSpans(next.content);
      const texts = chunks.map((span) => next.content.slice(span.start, span.end));
      const embeddings = useEmbeddings ? await deps.llm.embed(texts, { logger: ctx.logger }) : undefined;
      prepared.push({ ...next, chunks, embeddings });
    }
    try {
      const stored = await deps.store.add(ctx.account.id, prepared);
      ctx.logger.debug({ entries: stored.length, chunks: prepared.reduce((n, e) => n + (e.chunks?.length ?? 0), 0) }, 'knowledge indexed');
      const chars = (content: string) => [...content].length;
      if (!bulk) {
        const entry = stored[0]!;
        // Typed text answers as before; a file or a page also says what it was read as.
        const read = entry.source === null ? {} : { source: entry.source, chars: chars(entry.content) };
        return { message: '지식이 저장되었습니다.', id: entry.id, ...read };
      }
      return {
        message: `지식 ${stored.length}개가 저장되었습니다.`,
        ids: stored.map((entry) => entry.id),
        entries: stored.map((entry) => ({ id: entry.id, source: entry.source, chars: chars(entry.content) })),
      };
    } catch (error) {
      if (error instanceof KnowledgeLimitError) throw limitError(error);
      throw error;
    }
  }

  return {
    api: 'chatbot-rag',
    schema: chatbotSchema,
    async run(ctx, input: ChatbotInput) {
      switch (input.action) {
        case 'chat':
          return gate.run(ctx.account.id, () => chat(ctx, input.message, input.scopes));
        case 'index':
          return gate.run(ctx.account.id, () => index(ctx, input.entries, input.bulk));
        case 'list': {
          const { entries, total } = await deps.store.list(ctx.account.id, input.offset, input.limit, input.scopes);
          const knowledge_list = entries.map((e) => ({
            id: e.id,
            content: e.content,
            created_at: e.createdAt.toISOString(),
            source: e.source,
            url: e.sourceUrl,
            scope: e.scope,
          }));
          return { knowledge_list, total, offset: input.offset, limit: input.limit };
        }
        case 'delete': {
          if (!(await deps.store.remove(ctx.account.id, input.id))) {
            throw new AppError('NOT_FOUND', `id가 ${input.id}인 지식 항목이 없습니다.`).en(
              `There is no knowledge entry with id ${input.id}.`,
            );
          }
          return { message: `지식 항목 ${withJosa(String(input.id), '이/가')} 삭제되었습니다.`, id: input.id };
        }
        case 'clear': {
          const deleted = await deps.store.clear(ctx.account.id);
          return { message: `저장된 지식 ${deleted}개가 모두 삭제되었습니다.`, deleted };
        }
      }
    },
  };
}

/** The account is full: 409 naming the limit, in Korean. */
function limitError(error: KnowledgeLimitError): AppError {
  const max = error.max.toLocaleString('en-US');
  const message =
    error.limit === 'entries'
      ? `저장할 수 있는 지식은 계정당 ${max}개까지입니다. 필요 없는 항목을 삭제한 뒤 다시 시도하세요.`
      : `저장할 수 있는 지식은 계정당 모두 합쳐 ${max}자까지입니다. 필요 없는 항목을 삭제한 뒤 다시 시도하세요.`;
  return new AppError('CONFLICT', message, { limit: error.max, limit_type: error.limit });
}

function dedupeByEntry(chunks: RetrievedChunk[]): RetrievedChunk[] {
  const seen = new Set<number>();
  return chunks.filter((chunk) => !seen.has(chunk.entryId) && seen.add(chunk.entryId));
}

function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/**
 * A fetched page's address as its stored source: query and fragment left out, as everywhere the
 * service keeps a URL it was given (they may carry tokens); a caller wanting them sends `source_url`.
 */
function withoutQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
