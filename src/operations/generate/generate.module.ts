import type { LlmProvider } from '../../providers/llm.js';
import { notConfigured, timedOut, upstreamFailure } from '../../providers/llm-errors.js';
import { defineOperation, needsLlm } from '../operation-module.js';
import { createGenerateOperation } from './generate.js';
import { generateOutputSchema, generateSchema } from './generate.schema.js';

/** Text generation: Korean text on a prompt, in a style. */
export const generateModule = defineOperation({
  catalog: {
    id: 'text-generation',
    name: '텍스트 생성',
    nameEn: 'Text generation',
    path: '/api/v1/generate',
    category: '콘텐츠 생성',
    categoryEn: 'content generation',
    requiresSubscription: false,
    description: '요청한 주제와 문체로 한국어 글을 씁니다.',
    descriptionEn: 'Writes Korean text on a prompt, in the style you ask for.',
    availability: needsLlm,
  },
  input: generateSchema,
  output: generateOutputSchema,
  example: {
    operationId: 'generateText',
    summary: '프롬프트로 글 생성',
    request: { prompt: '신제품 출시 안내 이메일을 써 줘', max_tokens: 300, temperature: 0.7, style: 'email' },
    response: { content: '안녕하세요, 고객님. 새로운 제품을 소개해 드립니다…', tokens_used: 212 },
  },
  errors: (config) => [upstreamFailure(undefined, 'HTTP 500'), notConfigured(), timedOut(config.LLM_TIMEOUT_MS)],
  create: (deps: { llm: LlmProvider }) => createGenerateOperation({ llm: deps.llm }),
});
