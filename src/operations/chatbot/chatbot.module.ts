import type { Database } from '../../../db/client.js';
import type { Config } from '../../config.js';
import type { LlmProvider } from '../../providers/llm.js';
import { notConfigured, timedOut, upstreamFailure } from '../../providers/llm-errors.js';
import { defineOperation, withLlm } from '../operation-module.js';
import { createChatbotOperation } from './chatbot.js';
import { chatbotOutputSchema, chatbotSchema } from './chatbot.schema.js';
import type { KnowledgeStore } from './knowledge-store.js';
import type { DocumentReader } from '../../providers/documents/read-document.js';
import type { PageFetcher } from './page-fetch.js';

/** The knowledge chatbot: answers only from the team's stored notes. */
export const chatbotModule = defineOperation({
  catalog: {
    id: 'chatbot-rag',
    name: '지식 기반 챗봇',
    nameEn: 'Knowledge chatbot',
    path: '/api/v1/chatbot/rag',
    category: '챗봇/커스터마이징',
    categoryEn: 'chatbot/customization',
    requiresSubscription: false,
    description: '팀 문서를 저장해 두면 그 내용만 근거로 질문에 답합니다. 근거가 없으면 없다고 말합니다.',
    descriptionEn: "Store your team's notes and ask questions answered only from them; says so when nothing relevant is stored.",
    availability: (features) => withLlm('retrieval', features),
  },
  input: chatbotSchema,
  output: chatbotOutputSchema,
  example: {
    operationId: 'askChatbot',
    summary: '저장한 지식으로 답하는 챗봇 (chat, index, list, delete, clear)',
    request: { action: 'chat', message: '환불은 며칠 안에 가능한가요?' },
    response: {
      answer: '구매 후 7일 이내에 환불을 요청할 수 있어요.',
      sources: [{ id: 12, score: 0.82, start: 0, end: 31, source: '환불 규정.pdf', url: null }],
      passage: '환불은 구매 후 7일 이내에 요청할 수 있습니다.',
    },
  },
  errors: (config) => [upstreamFailure(undefined, 'HTTP 500'), notConfigured(), timedOut(config.LLM_TIMEOUT_MS)],
  bodyLimitMb: 15,
  create: (deps: {
    db: Database;
    knowledge: KnowledgeStore;
    llm: LlmProvider;
    config: Config;
    chatbotMinRelevance?: number;
    documents: DocumentReader;
    fetchPage: PageFetcher;
  }) =>
    createChatbotOperation({
      db: deps.db,
      store: deps.knowledge,
      llm: deps.llm,
      useEmbeddings: Boolean(deps.config.OPENAI_EMBEDDING_MODEL),
      minRelevance: deps.chatbotMinRelevance,
      statementTimeout: Boolean(deps.config.DATABASE_URL),
      documents: deps.documents,
      fetchPage: deps.fetchPage,
    }),
});
