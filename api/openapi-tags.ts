/**
 * The OpenAPI document's tags, each declared once with what it groups: code generators make a
 * client class of each, and the docs page a section. The eight operations' tags are their SPEC
 * categories (`catalog.category`); a route's `tag` must be a key here (api/openapi.ts refuses others).
 */
export const API_TAGS = {
  계정: '가입, 로그인, API 키(만들기·이름 바꾸기·교체·폐기), 구독, 사용량, 운영자용 서버 상태. 키와 구독은 로그인 토큰(Bearer)으로 관리합니다.',
  팀: '팀원 초대와 역할(owner, admin, developer, viewer), 팀원 내보내기, 감사 로그(JSON·CSV 내보내기). 로그인 토큰(Bearer)으로 부릅니다.',
  '챗봇/커스터마이징': '지식 기반 챗봇: 팀의 문서·페이지·항목을 저장해 두고 그 안에서 답합니다. 👎 받은 질문 목록도 여기 있습니다.',
  '텍스트 처리': '말투 변환: 같은 내용을 정중체, 친근체, 보고서체 등으로 바꿉니다.',
  '콘텐츠 생성': '텍스트 생성: 요청한 글(공지, 소개문, 요약 등)을 씁니다.',
  '이미지 처리': '신분증·사업자등록증 읽기: 사진이나 PDF에서 항목을 읽고, 요청하면 주민등록번호 뒷자리 등을 가립니다.',
  '언어 처리': '번역: 언어를 자동으로 감지해 원하는 언어로 옮깁니다.',
  '택배 조회': '운송장 조회(택배사 자동 인식, AI 요약)와 배송 변경 알림(웹훅, Slack, Discord).',
  '보안/안전':
    '유해 URL 탐지, 메시지·문자 캡처·QR 코드의 스미싱 검사, 유해 URL 목록 상태, 단축 URL(만들기, 여러 개 한 번에, 통계, QR 코드, 미리보기, 이동).',
  '사업자 확인': '국세청 사업자등록 상태 조회와 진위확인 (번호 하나에 신분증 읽기 1회를 씁니다).',
  '링크 가드': 'Slack·Discord 채널에서 링크 가드가 찾은 유해 링크 기록.',
  '상태 확인': '로드 밸런서와 모니터링용 생존·준비 상태(인증 없음), 그리고 Prometheus 지표(`/metrics`, METRICS_TOKEN).',
  문서: '이 OpenAPI 문서 자체.',
} as const satisfies Record<string, string>;

export type ApiTag = keyof typeof API_TAGS;

/** The document's top-level `tags`, in the order above. */
export function declaredTags(): { name: string; description: string }[] {
  return Object.entries(API_TAGS).map(([name, description]) => ({ name, description }));
}
