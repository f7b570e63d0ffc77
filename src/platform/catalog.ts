/**
 * The eight APIs of the service. The `id` is the `api` constant of each operation's answer
 * and the catalogue id of CONTRACT §3.
 */
export const CATALOG = [
  {
    id: 'chatbot-rag',
    name: '지식 기반 챗봇',
    nameEn: 'Knowledge chatbot',
    path: '/api/v1/chatbot/rag',
    category: '챗봇/커스터마이징',
    categoryEn: 'chatbot/customization',
    requiresSubscription: false,
    description: '팀 문서를 저장해 두면 그 내용만 근거로 질문에 답합니다. 근거가 없으면 없다고 말합니다.',
    descriptionEn: "Store your team's notes and ask questions answered only from them; says so when nothing relevant is stored.",
  },
  {
    id: 'tone-transformation',
    name: '말투 변환',
    nameEn: 'Tone conversion',
    path: '/api/v1/tone/transform',
    category: '텍스트 처리',
    categoryEn: 'text processing',
    requiresSubscription: false,
    description: '문장을 격식체, 반말, 전문가, 어린이, 어르신 말투 등 10가지 말투로 바꿉니다.',
    descriptionEn: 'Rewrites Korean text in one of ten tones: formal, casual, professional, for children, for elders and more.',
  },
  {
    id: 'harmful-url-detection',
    name: '유해 URL 탐지',
    nameEn: 'Harmful URL detection',
    path: '/api/v1/url/detect',
    category: '보안/안전',
    categoryEn: 'security/safety',
    requiresSubscription: true,
    description: 'URL이 피싱, 악성코드, 도박, 성인, 스팸 사이트인지 판별합니다. URL에 접속하지 않습니다.',
    descriptionEn: 'Tells whether a URL is phishing, malware, gambling, adult or spam, without visiting it.',
  },
  {
    id: 'text-generation',
    name: '텍스트 생성',
    nameEn: 'Text generation',
    path: '/api/v1/generate',
    category: '콘텐츠 생성',
    categoryEn: 'content generation',
    requiresSubscription: false,
    description: '요청한 주제와 문체로 한국어 글을 씁니다.',
    descriptionEn: 'Writes Korean text on a prompt, in the style you ask for.',
  },
  {
    id: 'ocr-idcard',
    name: '신분증/사업자등록증 인식',
    nameEn: 'ID card / business registration reader',
    path: '/api/v1/ocr/idcard',
    category: '이미지 처리',
    categoryEn: 'image processing',
    requiresSubscription: false,
    description: '주민등록증, 운전면허증, 사업자등록증 이미지나 PDF에서 항목을 읽습니다. 주민등록번호 뒷자리는 가려서 돌려줍니다.',
    descriptionEn:
      "Reads the fields of a resident card, driver's licence or business registration (image or PDF); the back of the ID number comes back masked.",
  },
  {
    id: 'translation',
    name: '번역',
    nameEn: 'Translation',
    path: '/api/v1/translate',
    category: '언어 처리',
    categoryEn: 'language processing',
    requiresSubscription: false,
    description: '한국어, 영어, 일본어, 중국어 사이를 번역합니다. 원문 언어는 자동으로 알아냅니다.',
    descriptionEn: 'Translates between Korean, English, Japanese and Chinese, detecting the source language.',
  },
  {
    id: 'delivery-tracking',
    name: '택배 배송 조회',
    nameEn: 'Parcel tracking',
    path: '/api/v1/delivery/track',
    category: '택배 조회',
    categoryEn: 'parcel tracking',
    requiresSubscription: true,
    description: '국내외 택배사 29곳의 배송 상태를 조회하고, 바뀌면 웹훅이나 채널로 알려 줍니다.',
    descriptionEn: 'Tracks parcels of 29 carriers and tells you of changes by webhook or chat channel.',
  },
  {
    id: 'url-shortener',
    name: 'URL 단축',
    nameEn: 'URL shortener',
    path: '/api/v1/url/shorten',
    category: '보안/안전',
    categoryEn: 'security/safety',
    requiresSubscription: false,
    description: '긴 URL을 다섯 글자 코드의 짧은 주소로 바꾸고 클릭 수를 셉니다. 유해 목록에 있는 URL은 단축하지 않습니다.',
    descriptionEn: 'Turns a long URL into a five-character short link and counts clicks; refuses URLs on harmful lists.',
  },
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

/** What this server has configured: decides which APIs answer and with what. */
export interface CatalogFeatures {
  llm: boolean;
  visionModel: boolean;
}

export interface CatalogAvailability {
  /** False when every call would be answered 503 (the engine it needs is not configured). */
  available: boolean;
  /** What answers the calls here: `llm`, `retrieval`, `rules+lists`, `tesseract`, `tracker`, `links`, joined with `+`. */
  engine: string;
  /** Why not available, naming the variables to set (Korean and English). */
  unavailable_reason?: string;
  unavailable_reason_en?: string;
}

const NEEDS_LLM = {
  unavailable_reason: 'AI 모델이 설정되지 않아 쓸 수 없습니다. 서버에 OPENAI_API_KEY나 OPENAI_BASE_URL을 설정하세요.',
  unavailable_reason_en: 'No AI model is configured on this server: set OPENAI_API_KEY or OPENAI_BASE_URL.',
};

/**
 * Whether each API works on this server and what answers it, beside SPEC's fixed `status`:
 * the AI-only APIs answer 503 without an LLM, the others fall back to embedded engines.
 */
export function availabilityOf(id: ApiId, features: CatalogFeatures): CatalogAvailability {
  const withLlm = (base: string) => (features.llm ? `${base}+llm` : base);
  switch (id) {
    case 'tone-transformation':
    case 'text-generation':
    case 'translation':
      return features.llm ? { available: true, engine: 'llm' } : { available: false, engine: 'llm', ...NEEDS_LLM };
    case 'chatbot-rag':
      return { available: true, engine: withLlm('retrieval') };
    case 'harmful-url-detection':
      return { available: true, engine: withLlm('rules+lists') };
    case 'ocr-idcard':
      return { available: true, engine: features.llm && features.visionModel ? 'tesseract+vision-llm' : 'tesseract' };
    case 'delivery-tracking':
      return { available: true, engine: withLlm('tracker') };
    case 'url-shortener':
      return { available: true, engine: 'links+lists' };
  }
}
