import { z } from 'zod';
import type { DocumentVerification } from '../../src/operations/business/business.schema.js';
import type { DocumentInfo } from '../../src/operations/ocr-idcard/parse.js';
import type { CommandContext, Reply } from './types.js';
import { defineCommand } from './options.js';
import { remainingLine } from './texts.js';

const FIELD_NAMES: Array<[key: keyof DocumentInfo, ko: string, en: string]> = [
  ['name', '이름(상호)', 'Name'],
  ['id_number', '등록번호', 'Number'],
  ['license_number', '면허번호', 'Licence no.'],
  ['representative', '대표자', 'Representative'],
  ['address', '주소', 'Address'],
  ['issue_date', '발급(개업)일', 'Issued / opened'],
  ['biz_type', '업태', 'Business type'],
  ['biz_item', '종목', 'Business item'],
];

const WARNING_EN: Record<string, string> = {
  NOT_FOUND: 'could not be read',
  CHECKSUM_MISMATCH: 'the check digit does not match (possibly misread)',
  LOW_CONFIDENCE: 'possibly misread',
  ENGINES_DISAGREE: 'the OCR engine and the AI read it differently: compare with the original',
};
const DOCUMENT_EN: Record<string, string> = {
  주민등록증: 'Resident registration card',
  자동차운전면허증: "Driver's licence",
  사업자등록증: 'Business registration certificate',
};

/**
 * Reads an ID image through the core with `mask: true` (resident number's last six digits and
 * the licence number's middle hidden). The answer is always ephemeral and nothing of the
 * document is logged: the image is held in memory only for the call.
 */
export async function readIdImage(ctx: CommandContext, image: Buffer): Promise<Reply> {
  // A certificate is checked with the NTS when this server has a key (only ever a business number).
  const body = await ctx.call('ocr-idcard', { base64_image: image.toString('base64'), mask: true, verify: true });
  const { info } = body;
  const fields = FIELD_NAMES.filter(([key]) => (info[key] ?? '') !== '').map(([key, ko, en]) => ({
    name: ctx.t({ ko, en }),
    value: info[key]!,
    inline: key !== 'address',
  }));
  const status = businessStatusLine(ctx, body.verification);
  if (status) fields.push({ name: ctx.t({ ko: '국세청 확인', en: 'National Tax Service' }), value: status, inline: false });
  // The core's warnings are Korean sentences; an English-locale user gets them by code.
  const fieldName = (key: string) => FIELD_NAMES.find(([name]) => name === key)?.[2] ?? key;
  const warnings = body.warnings
    .map(
      (warning) =>
        `• ${ctx.locale === 'en' ? `${fieldName(warning.field)}: ${WARNING_EN[warning.code] ?? warning.code}` : warning.message}`,
    )
    .join('\n');
  return {
    title: ctx.t({ ko: body.info.type, en: DOCUMENT_EN[body.info.type] ?? body.info.type }),
    text: warnings ? `${ctx.t({ ko: '확인이 필요한 항목', en: 'Please check' })}\n${warnings}` : undefined,
    fields,
    context: `${ctx.t({ ko: '🔒 민감정보는 가려서 나에게만 보입니다', en: '🔒 Masked, visible only to you' })} · ${remainingLine(ctx.locale, body.remaining)}`,
    tone: body.warnings.length > 0 ? 'warn' : 'ok',
  };
}

/** The NTS's word on a certificate read, in one line; nothing for other documents or without a key. */
function businessStatusLine(ctx: CommandContext, verification: DocumentVerification | undefined): string | undefined {
  if (!verification || verification === 'unavailable') return undefined;
  if (!verification.checked) return info(verification.reason);
  const { status, validation } = verification;
  const parts = [status.status_text, status.tax_type, status.closed_at ? `폐업일 ${status.closed_at}` : undefined];
  if (validation) parts.push(validation.valid ? '진위확인 일치' : validation.message);
  return info(parts.filter(Boolean).join(' · '));

  function info(text: string): string {
    return ctx.locale === 'en' ? `${text} (as reported by the NTS, in Korean)` : text;
  }
}

/** `/idcard image`: the ID / business registration reader (Discord attachment; on Slack, a DM or the message action). */
export const idcardCommand = defineCommand({
  name: 'idcard',
  description: {
    ko: '신분증·사업자등록증 이미지를 읽습니다 (민감정보는 가려서 나에게만 표시)',
    en: 'Read an ID or business registration image (masked, only you see it)',
  },
  options: [
    { name: 'image', type: 'attachment', required: true, description: { ko: '문서 이미지 또는 PDF', en: 'Document image or PDF' } },
  ],
  schema: z.object({}),
  usage: { ko: '/idcard + 이미지 첨부', en: '/idcard with an image attached' },
  api: 'ocr-idcard',
  slow: true,
  sensitive: true,
  async handle(ctx): Promise<Reply> {
    if (!ctx.image) {
      return {
        title: ctx.t({ ko: '이미지가 필요합니다', en: 'An image is needed' }),
        text: ctx.t(
          ctx.invocation.platform === 'slack'
            ? {
                ko: '봇에게 DM으로 문서 사진을 보내거나, 사진이 있는 메시지에서 "신분증 읽기" 바로가기를 쓰세요.',
                en: 'Send the photo to the bot in a DM, or use the "신분증 읽기" shortcut on a message with the photo.',
              }
            : { ko: '`/idcard`의 image 옵션에 문서 사진을 첨부하세요.', en: 'Attach the photo to the `image` option of `/idcard`.' },
        ),
        tone: 'info',
      };
    }
    return readIdImage(ctx, await ctx.image());
  },
});
