import type { ApiId } from '../src/platform/catalog.js';

/** One request and one answer per operation, shown in /docs and the portal's "try it" panels. */
export const OPERATION_EXAMPLES: Record<ApiId, { summary: string; request: object; response: object }> = {
  'chatbot-rag': {
    summary: '저장한 지식으로 답하는 챗봇 (chat, index, list, delete, clear)',
    request: { action: 'chat', message: '환불은 며칠 안에 가능한가요?' },
    response: { success: true, answer: '구매 후 7일 이내에 환불을 요청할 수 있어요.', api: 'chatbot-rag', remaining: 999 },
  },
  'tone-transformation': {
    summary: '열 가지 말투로 문장 바꾸기',
    request: { text: '내일 회의 3시로 옮겼어. 자료 챙겨 와.', target_tone: 'formal' },
    response: {
      success: true,
      transformed_text: '내일 회의를 3시로 옮겼습니다. 자료를 챙겨 오시기 바랍니다.',
      api: 'tone-transformation',
      remaining: 999,
    },
  },
  'harmful-url-detection': {
    summary: 'URL이 유해한지 판별 (clean, spam, gambling, adult, phishing, malware)',
    request: { url: 'http://toto-mukti77.xyz/event' },
    response: {
      success: true,
      is_malicious: true,
      category: 'gambling',
      reason: '호스트에 도박 관련 단어(토토, 먹튀)가 있습니다.',
      api: 'harmful-url-detection',
      remaining: 999,
    },
  },
  'text-generation': {
    summary: '프롬프트로 글 생성',
    request: { prompt: '신제품 출시 안내 이메일을 써 줘', max_tokens: 300, temperature: 0.7, style: 'email' },
    response: {
      success: true,
      content: '안녕하세요, 고객님. 새로운 제품을 소개해 드립니다…',
      tokens_used: 212,
      api: 'text-generation',
      remaining: 999,
    },
  },
  'ocr-idcard': {
    summary: '주민등록증·운전면허증·사업자등록증 이미지에서 항목 추출',
    request: { base64_image: 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ…', mask: true },
    response: {
      success: true,
      info: {
        type: '사업자등록증',
        name: '주식회사 한빛상사',
        id_number: '123-45-67890',
        representative: '김한빛',
        address: '서울특별시 중구 세종대로 110',
        issue_date: '2019.01.05.',
        biz_type: '도소매',
        biz_item: '전자상거래',
      },
      raw_text: '사업자등록증 …',
      api: 'ocr-idcard',
      remaining: 999,
    },
  },
  translation: {
    summary: '한국어·영어·일본어·중국어 번역 (원문 언어 자동 감지)',
    request: { text: '내일 회의는 3시에 시작해요.', source_lang: 'auto', target_lang: 'en' },
    response: {
      success: true,
      translated: 'The meeting starts at 3 tomorrow.',
      source_lang: 'ko',
      target_lang: 'en',
      api: 'translation',
      remaining: 999,
    },
  },
  'delivery-tracking': {
    summary: '택배 배송 조회와 AI 지연 분석, 기사님께 보낼 메시지 추천',
    request: { carrier_id: 'kr.cjlogistics', track_id: '123456789012', ai: 1, situation: 'door', tone: 'polite' },
    response: {
      success: true,
      carrier: { id: 'kr.cjlogistics', name: 'CJ Logistics', name_ko: 'CJ대한통운', tel: '+8215881255' },
      state: { id: 'in_transit', text: '상품이동중' },
      progresses: [
        {
          time: '2026-11-20T18:02:00+09:00',
          status: { id: 'in_transit', text: '간선상차' },
          location: { name: '곤지암Hub' },
          description: '간선상차',
        },
      ],
      ai_analysis: '곤지암 허브에서 이동 중이며 11월 23일(월) 도착이 예상됩니다.',
      recommend_message: '안녕하세요, 기사님. 부재 시 문 앞에 놓아 주시면 감사하겠습니다.',
      api: 'delivery-tracking',
      remaining: 999,
    },
  },
  'url-shortener': {
    summary: '긴 URL을 5자리 코드의 짧은 링크로',
    request: { url: 'https://www.example.com/events/2026?utm_source=newsletter', check_harmful: false },
    response: {
      success: true,
      short_url: 'http://localhost:3000/s/aZ3k9',
      code: 'aZ3k9',
      url: 'https://www.example.com/events/2026?utm_source=newsletter',
      api: 'url-shortener',
      remaining: 999,
    },
  },
};
