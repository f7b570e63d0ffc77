import type { LlmProvider } from '../../providers/llm.js';
import { notConfigured, timedOut, upstreamFailure } from '../../providers/llm-errors.js';
import { defineOperation, needsLlm } from '../operation-module.js';
import { createTranslateOperation, ENGINE_FAILURE } from './translate.js';
import { translateOutputSchema, translateSchema } from './translate.schema.js';

/** Translation between Korean, English, Japanese and Chinese. */
export const translateModule = defineOperation({
  catalog: {
    id: 'translation',
    name: '번역',
    nameEn: 'Translation',
    path: '/api/v1/translate',
    category: '언어 처리',
    categoryEn: 'language processing',
    requiresSubscription: false,
    description: '한국어, 영어, 일본어, 중국어 사이를 번역합니다. 원문 언어는 자동으로 알아냅니다.',
    descriptionEn: 'Translates between Korean, English, Japanese and Chinese, detecting the source language.',
    availability: needsLlm,
  },
  input: translateSchema,
  output: translateOutputSchema,
  example: {
    operationId: 'translateText',
    summary: '한국어·영어·일본어·중국어 번역 (원문 언어 자동 감지)',
    request: { text: '내일 회의는 3시에 시작해요.', source_lang: 'auto', target_lang: 'en' },
    response: { translated: 'The meeting starts at 3 tomorrow.', source_lang: 'ko', target_lang: 'en' },
  },
  errors: (config) => [upstreamFailure(ENGINE_FAILURE, 'HTTP 500'), notConfigured(), timedOut(config.LLM_TIMEOUT_MS)],
  create: (deps: { llm: LlmProvider; translateChunkChars?: number }) =>
    createTranslateOperation({ llm: deps.llm, chunkChars: deps.translateChunkChars }),
});
