/** The `style` values of text generation, each with a short writing guide for the model. */
export const STYLES = {
  blog: { name: '블로그 글', guide: '제목 한 줄, 도입-본문-마무리 구성, 소제목과 짧은 문단, 친근한 해요체.' },
  email: { name: '이메일', guide: '제목 줄, 인사, 용건을 먼저 밝힌 본문, 정중한 맺음말과 서명 자리. 하십시오체.' },
  poem: { name: '시', guide: '행과 연을 나눈 자유시, 구체적인 이미지와 리듬. 설명 없이 시만.' },
  ad: { name: '광고 문구', guide: '눈길을 끄는 헤드라인, 혜택 중심의 짧은 문장 두세 개, 행동을 이끄는 마무리 문구.' },
  summary: { name: '요약', guide: '핵심만 3~5개 항목의 글머리 기호로, 사실만 간결하게.' },
  sns: { name: 'SNS 게시글', guide: '짧고 가벼운 문장 몇 줄, 끝에 해시태그 3~5개.' },
  story: { name: '짧은 이야기', guide: '인물, 배경, 갈등, 결말이 있는 짧은 이야기. 대화문 허용.' },
  report: { name: '보고서', guide: '개요, 현황, 분석, 제언의 소제목 구성. 객관적인 하십시오체 또는 개조식.' },
} as const;

export type Style = keyof typeof STYLES;

/** Korean and spelled-out names callers use for the same styles. */
const ALIASES: Record<string, Style> = {
  블로그: 'blog',
  이메일: 'email',
  메일: 'email',
  시: 'poem',
  광고: 'ad',
  'ad copy': 'ad',
  ad_copy: 'ad',
  advertisement: 'ad',
  요약: 'summary',
  social: 'sns',
  이야기: 'story',
  소설: 'story',
  보고서: 'report',
};

export function knownStyle(style: string): Style | undefined {
  const key = style.trim().toLowerCase();
  return key in STYLES ? (key as Style) : ALIASES[key];
}

/** The system prompt of a generation: general rules, then the style's guide when one was asked for. */
export function generateSystemPrompt(style: string | undefined): string {
  const lines = [
    '당신은 글쓰기 도우미입니다. 사용자의 주제나 지시에 맞는 글을 씁니다.',
    '요청과 같은 언어로 씁니다 (한국어 요청에는 자연스러운 한국어로).',
    '요청한 글만 출력합니다. "네, 작성해 드릴게요" 같은 머리말이나 끝의 해설을 붙이지 않습니다.',
    '사실을 지어내지 말고, 확실하지 않은 수치나 인용은 쓰지 않습니다.',
  ];
  const known = style ? knownStyle(style) : undefined;
  if (known) lines.push('', `[형식: ${STYLES[known].name} (${known})] ${STYLES[known].guide}`);
  else if (style) lines.push('', `[형식: 사용자가 요청한 문체 "${style}"] 이 형식과 문체에 맞춰 씁니다.`);
  return lines.join('\n');
}
