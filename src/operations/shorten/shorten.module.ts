import type { Config } from '../../config.js';
import type { Subscriptions } from '../../platform/subscriptions.js';
import type { UrlSafetyChecker } from '../url-detect/checker.js';
import { defineOperation } from '../operation-module.js';
import type { LinkStore } from './links.js';
import type { Redirects } from './redirects.js';
import type { ShortLinkStore } from './short-link-store.js';
import type { Clock } from '../../clock.js';
import { checkNeedsSubscription, createShortenOperation, judgedHarmful, listedHarmful } from './shorten.js';
import { shortenOutputSchema, shortenSchema } from './shorten.schema.js';

const EXAMPLE_VERDICT = { category: 'gambling', reason: '도박 사이트 목록에 있는 도메인입니다.' };

/** The URL shortener: five-character codes, click counts, harmful targets refused. */
export const shortenModule = defineOperation({
  catalog: {
    id: 'url-shortener',
    name: 'URL 단축',
    nameEn: 'URL shortener',
    path: '/api/v1/url/shorten',
    category: '보안/안전',
    categoryEn: 'security/safety',
    requiresSubscription: false,
    description: '긴 URL을 다섯 글자 코드의 짧은 주소로 바꾸고 클릭 수를 셉니다. 유해 목록에 있는 URL은 단축하지 않습니다.',
    descriptionEn: 'Turns a long URL into a five-character short link and counts clicks; refuses URLs on harmful lists.',
    availability: () => ({ available: true, engine: 'links+lists' }),
  },
  input: shortenSchema,
  output: shortenOutputSchema,
  example: {
    operationId: 'shortenUrl',
    summary: '긴 URL을 5자리 코드의 짧은 링크로',
    request: { url: 'https://www.example.com/events/2026?utm_source=newsletter', check_harmful: false },
    response: {
      short_url: 'http://localhost:3000/s/aZ3k9',
      code: 'aZ3k9',
      url: 'https://www.example.com/events/2026?utm_source=newsletter',
    },
  },
  errors: () => [judgedHarmful(EXAMPLE_VERDICT, 998), listedHarmful(EXAMPLE_VERDICT, 999), checkNeedsSubscription()],
  create: (deps: {
    links: LinkStore;
    redirects: Redirects;
    urlChecker: UrlSafetyChecker;
    subscriptions: Subscriptions;
    config: Config;
    shortLinks?: ShortLinkStore;
    clock?: Clock;
  }) =>
    createShortenOperation({
      links: deps.links,
      redirects: deps.redirects,
      urlChecker: deps.urlChecker,
      shortUrlBase: deps.config.SHORT_URL_BASE,
      usage: deps.subscriptions,
      clock: deps.clock,
    }),
});
