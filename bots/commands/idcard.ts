import { z } from 'zod';
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

/**
 * Reads an ID image through the core with `mask: true` (resident number's last six digits and
 * the licence number's middle hidden). The answer is always ephemeral and nothing of the
 * document is logged: the image is held in memory only for the call.
 */
export async function readIdImage(ctx: CommandContext, image: Buffer): Promise<Reply> {
  const body = await ctx.call('ocr-idcard', { base64_image: image.toString('base64'), mask: true });
  const { info } = body;
  const fields = FIELD_NAMES.filter(([key]) => (info[key] ?? '') !== '').map(([key, ko, en]) => ({
    name: ctx.t({ ko, en }),
    value: info[key]!,
    inline: key !== 'address',
  }));
  const warnings = body.warnings.map((warning) => `• ${warning.message}`).join('\n');
  return {
    title: body.info.type,
    text: warnings ? `${ctx.t({ ko: '확인이 필요한 항목', en: 'Please check' })}\n${warnings}` : undefined,
    fields,
    context: `${ctx.t({ ko: '🔒 민감정보는 가려서 나에게만 보입니다', en: '🔒 Masked, visible only to you' })} · ${remainingLine(ctx.locale, body.remaining)}`,
    tone: body.warnings.length > 0 ? 'warn' : 'ok',
  };
}

/** `/idcard image`: the ID / business registration reader (Discord attachment; on Slack, a DM or the message action). */
export const idcardCommand = defineCommand({
  name: 'idcard',
  description: {
    ko: '신분증·사업자등록증 이미지를 읽습니다 (민감정보는 가려서 나에게만 표시)',
    en: 'Read an ID or business registration image (masked, only you see it)',
  },
  options: [{ name: 'image', type: 'attachment', required: false, description: { ko: '문서 이미지', en: 'Document image' } }],
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
