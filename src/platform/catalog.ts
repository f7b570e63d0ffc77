/**
 * The eight APIs of the service. The `id` is the `api` constant of each operation's answer
 * and the catalogue id of CONTRACT §3.
 */
export const CATALOG = [
  { id: 'chatbot-rag', name: '지식 기반 챗봇', path: '/api/v1/chatbot/rag', category: '챗봇/커스터마이징', categoryEn: 'chatbot/customization', requiresSubscription: false },
  { id: 'tone-transformation', name: '말투 변환', path: '/api/v1/tone/transform', category: '텍스트 처리', categoryEn: 'text processing', requiresSubscription: false },
  { id: 'harmful-url-detection', name: '유해 URL 탐지', path: '/api/v1/url/detect', category: '보안/안전', categoryEn: 'security/safety', requiresSubscription: true },
  { id: 'text-generation', name: '텍스트 생성', path: '/api/v1/generate', category: '콘텐츠 생성', categoryEn: 'content generation', requiresSubscription: false },
  { id: 'ocr-idcard', name: '신분증/사업자등록증 인식', path: '/api/v1/ocr/idcard', category: '이미지 처리', categoryEn: 'image processing', requiresSubscription: false },
  { id: 'translation', name: '번역', path: '/api/v1/translate', category: '언어 처리', categoryEn: 'language processing', requiresSubscription: false },
  { id: 'delivery-tracking', name: '택배 배송 조회', path: '/api/v1/delivery/track', category: '택배 조회', categoryEn: 'parcel tracking', requiresSubscription: true },
  { id: 'url-shortener', name: 'URL 단축', path: '/api/v1/url/shorten', category: '보안/안전', categoryEn: 'security/safety', requiresSubscription: false },
] as const;

export type ApiId = (typeof CATALOG)[number]['id'];

export const API_IDS = CATALOG.map((api) => api.id) as [ApiId, ...ApiId[]];

/** The APIs every new account is subscribed to at sign-up. */
export const OPEN_APIS: ApiId[] = CATALOG.filter((api) => !api.requiresSubscription).map((api) => api.id);

export function catalogEntry(id: ApiId) {
  const entry = CATALOG.find((api) => api.id === id);
  if (!entry) throw new Error(`unknown api ${id}`);
  return entry;
}
