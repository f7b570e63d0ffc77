import type { BotPlatform } from '../../src/platform/workspace-links.js';
import type { Locale, Text } from './types.js';

/**
 * Messages that name a platform's own syntax or roles: Slack reads `/link <API 키>` and speaks of
 * workspace admins; Discord fills option fields (`/link key:…`) and speaks of servers and the
 * Manage Server permission. Each platform sees only its own.
 */
export const PLATFORM_TEXTS = {
  notLinked: {
    slack: {
      ko: '이 워크스페이스는 아직 AI Utility Hub 계정에 연결되지 않았습니다. 워크스페이스 관리자가 `/link <API 키>`로 연결해 주세요. API 키는 포털에서 가입 후 발급받을 수 있습니다.',
      en: 'This workspace is not linked to an AI Utility Hub account yet. A workspace admin can link it with `/link <API key>`; keys are issued in the portal after signing up.',
    },
    discord: {
      ko: '이 서버는 아직 AI Utility Hub 계정에 연결되지 않았습니다. 서버 관리 권한이 있는 멤버가 `/link` 명령의 key 칸에 API 키를 넣어 연결해 주세요. API 키는 포털에서 가입 후 발급받을 수 있습니다.',
      en: 'This server is not linked to an AI Utility Hub account yet. A member with Manage Server can link it: run `/link` and put the API key in its key field. Keys are issued in the portal after signing up.',
    },
  },
  linkOnlyInWorkspace: {
    slack: { ko: '`/link`는 워크스페이스 채널에서만 쓸 수 있습니다.', en: '`/link` works only in a workspace channel.' },
    discord: {
      ko: '`/link`는 서버 채널에서만 쓸 수 있습니다 (DM에서는 안 됩니다).',
      en: '`/link` works only in a server channel, not in a DM.',
    },
  },
  linkForbidden: {
    slack: { ko: '워크스페이스 관리자만 계정을 연결할 수 있습니다.', en: 'Only a workspace admin can link an account.' },
    discord: { ko: '서버 관리 권한이 있는 멤버만 계정을 연결할 수 있습니다.', en: 'Only a member with Manage Server can link an account.' },
  },
  linkedText: {
    slack: {
      ko: '이제 이 워크스페이스의 명령은 {account} 계정의 할당량으로 실행됩니다. 키는 저장되지 않고 참조만 보관되며, 포털에서 키를 폐기하면 연결도 끊깁니다.',
      en: 'Commands in this workspace now use the quota of {account}. The key itself is not stored, only a reference; revoking the key in the portal unlinks the workspace.',
    },
    discord: {
      ko: '이제 이 서버의 명령은 {account} 계정의 할당량으로 실행됩니다. 키는 저장되지 않고 참조만 보관되며, 포털에서 키를 폐기하면 연결도 끊깁니다.',
      en: 'Commands in this server now use the quota of {account}. The key itself is not stored, only a reference; revoking the key in the portal unlinks the server.',
    },
  },
} satisfies Record<string, Record<BotPlatform, Text>>;

/** The text of `entry` for the platform the message is on. */
export function forPlatform(platform: BotPlatform, entry: Record<BotPlatform, Text>): Text {
  return entry[platform];
}

/** Messages the bots write themselves (the core's errors come localized from AppError). */
export const TEXTS = {
  processing: { ko: '처리 중…', en: 'Working on it…' },
  notLinkedTitle: { ko: '계정 연결 필요', en: 'Link required' },
  linkBadKey: {
    ko: 'API 키가 올바르지 않거나 폐기되었습니다. 포털에서 키를 확인해 주세요.',
    en: 'The API key is invalid or revoked. Check it in the portal.',
  },
  linked: { ko: '연결되었습니다', en: 'Linked' },
  rateLimited: {
    ko: '명령을 너무 자주 보냈어요. {seconds}초 뒤에 다시 시도해 주세요.',
    en: 'Too many commands. Please try again in {seconds} s.',
  },
  unexpected: {
    ko: '예상치 못한 오류가 발생했습니다. 문제가 계속되면 참조 ID `{ref}`와 함께 문의해 주세요.',
    en: 'Something went wrong. If it keeps happening, contact us with reference `{ref}`.',
  },
  errorTitle: { ko: '요청을 처리하지 못했습니다', en: 'Could not complete the request' },
  usageTitle: { ko: '사용법', en: 'Usage' },
  remaining: { ko: '남은 호출 {n}회', en: '{n} calls left' },
  unknownCommand: { ko: '알 수 없는 명령입니다.', en: 'Unknown command.' },
  dmHelpTitle: { ko: '이렇게 쓸 수 있어요', en: 'What I can do' },
  dmHelp: {
    ko: '신분증·운전면허증·사업자등록증 사진이나 PDF를 이 대화에 올리면 읽어서 민감정보를 가린 결과를 보여 드립니다. 의심스러운 문자를 붙여 넣거나 문자 캡처·QR 코드 사진을 올리면 스미싱인지 검사합니다. 그 밖의 기능은 명령으로 쓰세요: `/ask` 질문, `/kb add` 지식 저장, `/tone` 말투 변환, `/translate 영어 <문장>` 번역, `/generate` 글 생성, `/urlcheck` 링크 검사, `/shorten` URL 단축, `/track` 택배 조회.',
    en: 'Upload a photo or PDF of an ID card, driver licence or business registration here and I will read it, masking the sensitive parts. Paste a suspicious text message, or upload its screenshot or a QR code, and I check it for smishing. For the rest, use the commands: `/ask` a question, `/kb add` knowledge, `/tone` to restyle, `/translate en <text>`, `/generate` text, `/urlcheck` a link, `/shorten` a URL, `/track` a parcel.',
  },
  unsupportedFile: {
    ko: '이 파일({type})은 읽을 수 없습니다. 신분증이나 사업자등록증의 사진(PNG, JPEG 등) 또는 PDF를 올려 주세요.',
    en: 'I cannot read this file ({type}). Upload a photo (PNG, JPEG…) or a PDF of an ID card or business registration.',
  },
} satisfies Record<string, Text>;

export function translateText(locale: Locale, text: Text, vars: Record<string, string | number> = {}): string {
  return (locale === 'en' ? text.en : text.ko).replace(/\{(\w+)\}/g, (whole, key: string) => (key in vars ? String(vars[key]) : whole));
}

/** English for an English locale (`en`, `en-US`, `en-GB`), Korean otherwise. */
export function localeOf(tag: string | undefined): Locale {
  return tag && /^en\b/i.test(tag) ? 'en' : 'ko';
}

export function remainingLine(locale: Locale, remaining: number): string {
  return translateText(locale, TEXTS.remaining, { n: remaining });
}

/** Cuts a text to a platform limit, marking the cut. */
export function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}
