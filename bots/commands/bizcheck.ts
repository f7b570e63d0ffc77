import { z } from 'zod';
import type { BusinessStatus } from '../../src/operations/business/business-checks.js';
import { defineCommand, text } from './options.js';
import { remainingLine } from './texts.js';
import type { Reply, Text } from './types.js';

/** A chat message stays readable: more numbers go through the API (100 a call). */
const MAX_NUMBERS = 10;

const STATE_ICONS: Record<BusinessStatus['status'], string> = { active: '🟢', suspended: '🟡', closed: '🔴', unknown: '⚪' };
const STATE_TEXT: Record<BusinessStatus['status'], Text> = {
  active: { ko: '계속사업자', en: 'active' },
  suspended: { ko: '휴업자', en: 'suspended' },
  closed: { ko: '폐업자', en: 'closed' },
  unknown: { ko: '확인 불가', en: 'unknown' },
};

/** `/bizcheck 123-45-67890 …`: the National Tax Service's status of one or more businesses. */
export const bizcheckCommand = defineCommand({
  name: 'bizcheck',
  description: {
    ko: '사업자등록번호로 국세청 사업자 상태(계속·휴업·폐업)를 조회합니다',
    en: 'Check businesses at the National Tax Service',
  },
  options: [
    {
      name: 'number',
      type: 'string',
      required: true,
      rest: true,
      description: {
        ko: `사업자등록번호 (여러 개는 띄어 쓰기, ${MAX_NUMBERS}개까지)`,
        en: `Business numbers (space-separated, up to ${MAX_NUMBERS})`,
      },
    },
  ],
  schema: z.object({ number: text('number') }),
  usage: { ko: '/bizcheck <사업자등록번호> [사업자등록번호…]', en: '/bizcheck <number> [number…]' },
  api: 'ocr-idcard',
  slow: true,
  async handle(ctx, { number }): Promise<Reply> {
    const numbers = number.split(/[\s,;]+/).filter(Boolean);
    const asked = numbers.slice(0, MAX_NUMBERS);
    const body = await ctx.run(ctx.extra.businessStatus, { b_no: asked });
    const fields = body.businesses.map((business) => ({
      name: `${STATE_ICONS[business.status]} ${business.b_no}`,
      value:
        business.status === 'unknown'
          ? business.status_text
          : [
              ctx.t(STATE_TEXT[business.status]),
              business.tax_type,
              business.closed_at ? ctx.t({ ko: `폐업일 ${business.closed_at}`, en: `closed on ${business.closed_at}` }) : undefined,
            ]
              .filter(Boolean)
              .join(' · '),
      inline: false,
    }));
    const skipped = numbers.length - asked.length;
    const note =
      skipped > 0
        ? ctx.t({
            ko: ` · ${skipped}개는 조회하지 않았습니다 (한 번에 ${MAX_NUMBERS}개)`,
            en: ` · ${skipped} not checked (${MAX_NUMBERS} at a time)`,
          })
        : '';
    return {
      title: ctx.t({ ko: '국세청 사업자 상태', en: 'Business status (National Tax Service)' }),
      fields,
      context: `${remainingLine(ctx.locale, body.remaining)}${note}`,
      tone: body.businesses.every((business) => business.status === 'active') ? 'ok' : 'warn',
    };
  },
});
