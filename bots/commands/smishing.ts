import { AppError } from '../../src/errors.js';
import { MAX_SCAN_CHARS } from '../../src/operations/url-scan/extract-urls.js';
import { defang } from './guard-warning.js';
import { readIdImage } from './idcard.js';
import { remainingLine, TEXTS, translateText } from './texts.js';
import type { CommandContext, ImageSource, Reply } from './types.js';
import { categoryName } from './urls.js';

export interface SmishingTarget {
  text: string;
  /** Links the message carries besides its text (Slack attachments and blocks, Discord embeds). */
  urls?: string[];
  image?: ImageSource;
  /** A DM's picture: read as an ID document first; one that is none is checked for smishing (CONTRACT §6). */
  idFirst?: boolean;
  /** A text sent to the bot in a DM: a message found clean also says what else the bot can do. */
  withHelp?: boolean;
}

/** What to do, for a reader of English (the judge's advice is Korean). */
const DEFAULT_ADVICE = {
  ko: '링크를 누르거나 앱을 설치하지 말고, 개인정보·인증번호를 입력하지 마세요. 의심되면 118(KISA)로 신고하세요.',
  en: 'Do not open the link or install anything, and never type personal data or codes. Report it to 118 (KISA) if in doubt.',
};

/**
 * "스미싱 검사": the message's text, screenshot (OCR) or QR code through the message check
 * (`POST /url/scan`): each URL with its verdict, and in plain Korean whether the message is
 * smishing and why. Harmful links are shown defanged, never one click away.
 */
export async function smishingCheck(ctx: CommandContext, target: SmishingTarget): Promise<Reply> {
  const text = [target.text, ...(target.urls ?? [])].join('\n').slice(0, MAX_SCAN_CHARS).trim();
  const image = target.image ? await target.image() : undefined;
  if (!text && !image)
    return {
      title: ctx.t({ ko: '안내', en: 'Note' }),
      text: ctx.t({ ko: '검사할 글이나 이미지가 없는 메시지입니다.', en: 'The message has no text or image to check.' }),
      tone: 'info',
    };
  if (target.idFirst && image) {
    // Most pictures sent to the bot are ID documents: read as one (a refusal is free), else an SMS screenshot or a QR code.
    try {
      return await readIdImage(ctx, image);
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'UNPROCESSABLE')) throw error;
    }
  }
  const body = await ctx.run(ctx.extra.urlScan, {
    ...(text ? { text } : {}),
    ...(image ? { base64_image: image.toString('base64') } : {}),
  });
  const harmful = body.urls.filter((url) => url.is_malicious).length;
  const fields = body.urls.slice(0, 20).map((url) => ({
    name: `${url.is_malicious ? '⚠️' : '✅'} ${url.is_malicious ? defang(url.url) : url.url}`,
    value: `${categoryName(ctx.t, url.category)} · ${url.is_malicious ? defang(url.reason || '-') : url.reason || '-'}${
      url.final_url !== url.url ? `\n→ ${url.is_malicious ? defang(url.final_url) : url.final_url}` : ''
    }`,
  }));
  const label = body.is_smishing && body.scam_label ? body.scam_label : undefined;
  const title = body.is_smishing
    ? label
      ? ctx.t({ ko: `🚨 스미싱으로 보입니다: ${label}`, en: `🚨 This looks like smishing: ${label}` })
      : ctx.t({ ko: '🚨 스미싱으로 보입니다', en: '🚨 This looks like smishing' })
    : harmful > 0
      ? ctx.t({ ko: `⚠️ 위험한 링크 ${harmful}개`, en: `⚠️ ${harmful} harmful link(s)` })
      : // The message itself is judged too (issue 50): a text without links can be clean or not.
        ctx.t({ ko: '✅ 스미싱 징후를 찾지 못했습니다', en: '✅ No sign of smishing found' });
  // Reasons name hosts (`casino-king.xyz`): written so no client links them.
  const reasons = body.reasons.map((reason) => `• ${defang(reason)}`).join('\n');
  // The judge's advice is Korean, written for the kind of scam found; an English reader gets the general one.
  const advice = body.is_smishing || harmful > 0 ? (ctx.locale === 'ko' ? body.advice : ctx.t(DEFAULT_ADVICE)) : undefined;
  const help = target.withHelp && !body.is_smishing && harmful === 0 ? translateText(ctx.locale, TEXTS.dmHelp) : undefined;
  return {
    title,
    text: [reasons, advice].filter(Boolean).join('\n\n') || undefined,
    fields,
    context: [remainingLine(ctx.locale, body.remaining), help].filter(Boolean).join('\n'),
    tone: body.is_smishing || harmful > 0 ? 'warn' : 'ok',
  };
}
