import { describe, expect, it } from 'vitest';
import { smishingCheck } from '../bots/commands/smishing.js';
import { translateText } from '../bots/commands/texts.js';
import type { CommandContext, Locale, Text } from '../bots/commands/types.js';

/**
 * "스미싱 검사"'s reply from the message check's answer (`POST /url/scan`), with the operation
 * replaced by a fake answering what each test gives: the reply shows the judgement's scam name
 * and advice, and keeps harmful hosts defanged.
 */
function contextAnswering(answer: Record<string, unknown>, locale: Locale = 'ko') {
  const inputs: unknown[] = [];
  const ctx = {
    locale,
    t: (text: Text) => translateText(locale, text),
    extra: { urlScan: {} },
    async run(_operation: unknown, input: unknown) {
      inputs.push(input);
      return { urls: [], is_smishing: false, reasons: [], urls_found: 0, remaining: 41, ...answer };
    },
  } as unknown as CommandContext;
  return { ctx, inputs };
}

describe('"스미싱 검사" reply', () => {
  it("shows the scam's name and the answer's own advice for a message without a link", async () => {
    const { ctx, inputs } = contextAnswering({
      is_smishing: true,
      scam_type: 'family_impersonation',
      scam_label: '가족·지인 사칭',
      advice: '답장하지 말고, 가족에게 이미 알고 있는 번호로 직접 전화해 확인하세요.',
      score: 0.98,
      reasons: ['가족을 사칭해 다른 번호로 연락을 요구합니다.'],
    });
    const reply = await smishingCheck(ctx, { text: '엄마 나 폰 액정 깨져서 이 번호로 문자줘' });
    expect(inputs).toEqual([{ text: '엄마 나 폰 액정 깨져서 이 번호로 문자줘' }]);
    expect(reply.title).toBe('🚨 스미싱으로 보입니다: 가족·지인 사칭');
    expect(reply.text).toContain('가족에게 이미 알고 있는 번호로 직접 전화해 확인하세요.');
    expect(reply.text).not.toContain('118(KISA)로 신고하세요');
    expect(reply.tone).toBe('warn');
  });

  it('defangs harmful hosts in the reasons and fields', async () => {
    const { ctx } = contextAnswering({
      is_smishing: true,
      scam_type: 'other',
      scam_label: '기타 스미싱',
      advice: '링크를 누르지 말고 118(KISA)에 상담하세요.',
      score: 0.95,
      urls: [
        {
          url: 'http://kbstar-login.xyz/v',
          final_url: 'http://kbstar-login.xyz/v',
          is_malicious: true,
          category: 'phishing',
          reason: '사칭',
        },
      ],
      reasons: ['kbstar-login.xyz: 사칭'],
    });
    const reply = await smishingCheck(ctx, { text: '인증 http://kbstar-login.xyz/v' });
    expect(reply.title).toBe('🚨 스미싱으로 보입니다: 기타 스미싱');
    expect(JSON.stringify(reply)).not.toContain('kbstar-login.xyz');
    expect(reply.text).toContain('118(KISA)');
  });

  it('answers a clean DM text with what else the bot can do', async () => {
    const { ctx } = contextAnswering({ reasons: ['스미싱에 흔한 문구가 없습니다.'] });
    const reply = await smishingCheck(ctx, { text: '내일 회의는 3시에 시작합니다', withHelp: true });
    expect(reply.title).toBe('✅ 스미싱 징후를 찾지 못했습니다');
    expect(reply.context).toContain('스미싱인지 검사합니다');
    expect(reply.tone).toBe('ok');
  });
});
