import { defineOperation, withLlm } from '../operation-module.js';
import type { UrlEngine } from './engine.js';
import { createUrlDetectOperation } from './url-detect.js';
import { urlDetectOutputSchema, urlDetectSchema } from './url-detect.schema.js';

/** Harmful-URL detection: a verdict and a Korean reason, without visiting the URL. */
export const urlDetectModule = defineOperation({
  catalog: {
    id: 'harmful-url-detection',
    name: '유해 URL 탐지',
    nameEn: 'Harmful URL detection',
    path: '/api/v1/url/detect',
    category: '보안/안전',
    categoryEn: 'security/safety',
    requiresSubscription: true,
    description: 'URL이 피싱, 악성코드, 도박, 성인, 스팸 사이트인지 판별합니다. URL에 접속하지 않습니다.',
    descriptionEn: 'Tells whether a URL is phishing, malware, gambling, adult or spam, without visiting it.',
    availability: (features) => withLlm('rules+lists', features),
  },
  input: urlDetectSchema,
  output: urlDetectOutputSchema,
  example: {
    operationId: 'detectUrl',
    summary: 'URL이 유해한지 판별 (clean, spam, gambling, adult, phishing, malware)',
    request: { url: 'http://toto-mukti77.xyz/event' },
    response: {
      is_malicious: true,
      category: 'gambling',
      reason: '호스트에 도박 관련 단어(토토, 먹튀)가 있습니다.',
      url: 'http://toto-mukti77.xyz/event',
      source: 'rules',
    },
  },
  errors: () => [],
  create: (deps: { urlEngine: UrlEngine }) => createUrlDetectOperation({ engine: deps.urlEngine }),
});
