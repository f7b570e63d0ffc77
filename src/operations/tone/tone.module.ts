import type { LlmProvider } from '../../providers/llm.js';
import { notConfigured, timedOut, upstreamFailure } from '../../providers/llm-errors.js';
import { defineOperation, needsLlm } from '../operation-module.js';
import { createToneOperation } from './tone.js';
import { toneOutputSchema, toneSchema } from './tone.schema.js';

/** Tone conversion: the same text in one of ten tones. */
export const toneModule = defineOperation({
  catalog: {
    id: 'tone-transformation',
    name: '말투 변환',
    nameEn: 'Tone conversion',
    path: '/api/v1/tone/transform',
    category: '텍스트 처리',
    categoryEn: 'text processing',
    requiresSubscription: false,
    description: '문장을 격식체, 반말, 전문가, 어린이, 어르신 말투 등 10가지 말투로 바꿉니다.',
    descriptionEn: 'Rewrites Korean text in one of ten tones: formal, casual, professional, for children, for elders and more.',
    availability: needsLlm,
  },
  input: toneSchema,
  output: toneOutputSchema,
  example: {
    operationId: 'transformTone',
    summary: '열 가지 말투로 문장 바꾸기',
    request: { text: '내일 회의 3시로 옮겼어. 자료 챙겨 와.', target_tone: 'formal' },
    response: { transformed_text: '내일 회의를 3시로 옮겼습니다. 자료를 챙겨 오시기 바랍니다.', target_tone: 'formal' },
  },
  errors: (config) => [upstreamFailure(undefined, 'HTTP 500'), notConfigured(), timedOut(config.LLM_TIMEOUT_MS)],
  create: (deps: { llm: LlmProvider }) => createToneOperation({ llm: deps.llm }),
});
