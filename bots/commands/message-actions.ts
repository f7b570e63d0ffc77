import { AppError } from '../../src/errors.js';
import { readIdImage } from './idcard.js';
import { translationReply } from './text.js';
import type { CommandContext, ImageSource, Reply, Text } from './types.js';
import { categoryName, urlsIn } from './urls.js';
import { remainingLine } from './texts.js';
import { smishingCheck } from './smishing.js';
import { saveThread, type ThreadSource } from './save-thread.js';

export type MessageActionId = 'link_check' | 'translate_message' | 'read_idcard' | 'smishing_check' | 'save_knowledge';

export interface MessageActionDef {
  id: MessageActionId;
  /** The name users see (Discord context menu name, Slack shortcut name). */
  name: Text;
  description: Text;
  sensitive?: boolean;
}

/** CONTRACT §6's message actions: Slack message shortcuts (callback id) and Discord message context menus (name). */
export const MESSAGE_ACTIONS: readonly MessageActionDef[] = [
  {
    id: 'link_check',
    name: { ko: '링크 검사', en: 'Check links' },
    description: { ko: '메시지의 모든 URL을 검사합니다', en: 'Check every URL in the message' },
  },
  {
    id: 'translate_message',
    name: { ko: '번역', en: 'Translate' },
    description: { ko: '한국어로 번역합니다 (한국어 메시지는 영어로)', en: 'Translate to Korean (Korean to English)' },
  },
  {
    id: 'read_idcard',
    name: { ko: '신분증 읽기', en: 'Read ID' },
    description: { ko: '메시지의 이미지를 신분증으로 읽습니다', en: "Read the message's image as an ID" },
    sensitive: true,
  },
  {
    id: 'smishing_check',
    name: { ko: '스미싱 검사', en: 'Smishing check' },
    description: {
      ko: '메시지 글·문자 캡처·QR 코드가 스미싱인지 검사합니다',
      en: "Check the message's text, SMS screenshot or QR code for smishing",
    },
  },
  {
    id: 'save_knowledge',
    name: { ko: '지식으로 저장', en: 'Save as knowledge' },
    description: { ko: '스레드 전체를 지식 항목 하나로 저장합니다', en: 'Save the whole thread as one knowledge entry' },
  },
];

export interface TargetMessage {
  text: string;
  /** Links the message carries besides its text (Slack attachments and blocks, Discord embeds). */
  urls?: string[];
  image?: ImageSource;
  /** A DM's picture: read as an ID document first, checked for smishing when it is none ("스미싱 검사" only). */
  idFirst?: boolean;
  /** A text sent to the bot in a DM: a clean answer also says what else the bot can do ("스미싱 검사" only). */
  withHelp?: boolean;
  /** The message's thread ("지식으로 저장"). */
  thread?: ThreadSource;
}

const MAX_URLS = 10;

export async function runMessageAction(ctx: CommandContext, id: MessageActionId, message: TargetMessage): Promise<Reply> {
  if (id === 'save_knowledge') return saveThread(ctx, message.thread);
  if (id === 'link_check')
    return checkLinks(ctx, [...new Set([...urlsIn(message.text, MAX_URLS), ...(message.urls ?? [])])].slice(0, MAX_URLS));
  if (id === 'smishing_check') return smishingCheck(ctx, message);
  if (id === 'translate_message') {
    if (message.text.trim() === '') return info(ctx, { ko: '번역할 글이 없는 메시지입니다.', en: 'The message has no text to translate.' });
    const body = await ctx.call('translation', {
      text: message.text,
      target_lang: isMostlyKorean(message.text) ? 'en' : 'ko',
    });
    return translationReply(ctx.t.bind(ctx), body, ctx.locale);
  }
  if (!message.image) return info(ctx, { ko: '이미지가 있는 메시지에서 써 주세요.', en: 'Use it on a message with an image.' });
  return readIdImage(ctx, await message.image());
}

async function checkLinks(ctx: CommandContext, urls: string[]): Promise<Reply> {
  if (urls.length === 0) return info(ctx, { ko: '메시지에 검사할 URL이 없습니다.', en: 'The message has no URL to check.' });
  const fields: NonNullable<Reply['fields']> = [];
  let harmful = 0;
  let remaining: number | undefined;
  for (const url of urls) {
    try {
      const verdict = await ctx.call('harmful-url-detection', { url });
      remaining = verdict.remaining;
      if (verdict.is_malicious) harmful += 1;
      fields.push({
        name: `${verdict.is_malicious ? '⚠️' : '✅'} ${url}`,
        value: `${categoryName(ctx.t, verdict.category)} · ${verdict.reason || '-'}`,
      });
    } catch (error) {
      // One malformed URL should not hide the others' verdicts; quota and subscription errors stop all.
      if (!(error instanceof AppError) || error.status !== 400) throw error;
      const why = error.detail
        ? ctx.locale === 'en'
          ? (error.detail.en ?? error.localized('en'))
          : error.detail.ko
        : error.localized(ctx.locale);
      fields.push({ name: `❔ ${url}`, value: why });
    }
  }
  return {
    title:
      harmful > 0
        ? ctx.t({ ko: `⚠️ 유해한 URL ${harmful}개`, en: `⚠️ ${harmful} harmful URL(s)` })
        : ctx.t({ ko: `✅ URL ${urls.length}개 모두 안전`, en: `✅ All ${urls.length} URL(s) look safe` }),
    fields,
    context: remaining === undefined ? undefined : remainingLine(ctx.locale, remaining),
    tone: harmful > 0 ? 'warn' : 'ok',
  };
}

/** Hangul among the letters: a Korean message is translated to English, anything else to Korean. */
export function isMostlyKorean(text: string): boolean {
  const letters = text.match(/\p{L}/gu) ?? [];
  const hangul = text.match(/[\uac00-\ud7a3\u3131-\u318e]/g) ?? [];
  return letters.length > 0 && hangul.length / letters.length >= 0.3;
}

function info(ctx: CommandContext, text: Text): Reply {
  return { title: ctx.t({ ko: '안내', en: 'Note' }), text: ctx.t(text), tone: 'info' };
}
