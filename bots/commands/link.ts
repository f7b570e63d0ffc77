import { z } from 'zod';
import { chatUser } from './attribution.js';
import { defineCommand, text } from './options.js';
import { forPlatform, PLATFORM_TEXTS, TEXTS, translateText } from './texts.js';

/** `/link key`: a Slack admin or a Discord member with Manage Server links the workspace to the key's account. */
export const linkCommand = defineCommand({
  name: 'link',
  description: {
    ko: '이 워크스페이스(서버)를 AI Utility Hub 계정에 연결합니다 (관리자 전용)',
    en: 'Link this workspace (server) to an AI Utility Hub account (admins only)',
  },
  options: [{ name: 'key', type: 'string', required: true, description: { ko: 'API 키 (aik_…)', en: 'API key (aik_…)' } }],
  schema: z.object({ key: text('key') }),
  usage: { ko: '/link <API 키>', en: '/link <API key>' },
  slow: false,
  sensitive: true,
  unlinked: true,
  managersOnly: true,
  async handle(ctx, { key }) {
    const { invocation, linking } = ctx;
    const fail = (message: { ko: string; en: string }) => ({
      title: ctx.t(TEXTS.errorTitle),
      text: ctx.t(message),
      tone: 'error' as const,
    });
    if (!invocation.workspaceId) return fail(forPlatform(invocation.platform, PLATFORM_TEXTS.linkOnlyInWorkspace));
    if (!(await invocation.canManage())) return fail(forPlatform(invocation.platform, PLATFORM_TEXTS.linkForbidden));
    const owner = await linking.keyOwner(key);
    if (!owner) return fail(TEXTS.linkBadKey);
    await linking.link(
      { platform: invocation.platform, workspaceId: invocation.workspaceId },
      { accountId: owner.id, keyId: owner.keyId, keyPrefix: owner.keyPrefix },
      chatUser(invocation),
    );
    ctx.logger.info({ accountId: owner.id, keyId: owner.keyId }, 'workspace linked');
    return {
      title: ctx.t(TEXTS.linked),
      text: translateText(ctx.locale, forPlatform(invocation.platform, PLATFORM_TEXTS.linkedText), { account: maskEmail(owner.email) }),
      tone: 'ok',
    };
  },
});

/** `kim@example.com` → `k**@example.com`: enough to recognise the account, not to harvest it. */
function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  return `${local.slice(0, 1)}${'*'.repeat(Math.min(3, Math.max(2, local.length - 1)))}@${domain}`;
}
