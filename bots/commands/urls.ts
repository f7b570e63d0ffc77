import { z } from 'zod';
import { CATEGORY_LABELS } from '../../src/operations/url-detect/category-labels.js';
import type { CommandContext, Reply, Text } from './types.js';
import { defineCommand, flag, text } from './options.js';
import { remainingLine } from './texts.js';

export function categoryName(t: (text: Text) => string, category: string): string {
  const label = CATEGORY_LABELS[category as keyof typeof CATEGORY_LABELS];
  return label ? t(label) : category;
}

/** `/urlcheck url`: harmful-URL detection. */
export const urlcheckCommand = defineCommand({
  name: 'urlcheck',
  description: { ko: 'URL이 유해한지 검사합니다', en: 'Check whether a URL is harmful' },
  options: [
    { name: 'url', type: 'string', required: true, description: { ko: '검사할 URL (http/https)', en: 'URL to check (http/https)' } },
  ],
  schema: z.object({ url: text('url') }),
  usage: { ko: '/urlcheck <URL>', en: '/urlcheck <URL>' },
  api: 'harmful-url-detection',
  slow: true,
  async handle(ctx, { url }): Promise<Reply> {
    const body = await ctx.call('harmful-url-detection', { url: unwrapSlackLink(url) });
    return {
      title: body.is_malicious
        ? ctx.t({ ko: '⚠️ 유해한 URL입니다', en: '⚠️ Harmful URL' })
        : ctx.t({ ko: '✅ 안전한 URL입니다', en: '✅ Looks safe' }),
      fields: [
        { name: 'URL', value: unwrapSlackLink(url), inline: false },
        { name: ctx.t({ ko: '분류', en: 'Category' }), value: categoryName(ctx.t, body.category), inline: true },
        { name: ctx.t({ ko: '근거', en: 'Reason' }), value: body.reason || '-', inline: false },
      ],
      context: remainingLine(ctx.locale, body.remaining),
      tone: body.is_malicious ? 'warn' : 'ok',
    };
  },
});

/** Links one `/shorten` makes in chat (more go through the API's bulk route, 100 a call). */
const MAX_CHAT_LINKS = 20;

/** `/shorten url [url…]`: URL shortening; several URLs (or a pasted list) go through the bulk shortener. */
export const shortenCommand = defineCommand({
  name: 'shorten',
  description: { ko: '긴 URL을 짧은 링크로 바꿉니다 (여러 개도 한 번에)', en: 'Shorten long URLs (several at once too)' },
  options: [
    {
      name: 'url',
      type: 'string',
      required: true,
      rest: true,
      description: {
        ko: `줄일 URL (여러 개는 띄어 쓰기·줄바꿈, ${MAX_CHAT_LINKS}개까지)`,
        en: `URLs to shorten (up to ${MAX_CHAT_LINKS})`,
      },
    },
    { name: 'public', type: 'boolean', required: false, description: { ko: '채널에 공개', en: 'Post to the channel' } },
  ],
  schema: z.object({ url: text('url'), public: flag }),
  usage: { ko: '/shorten <URL> [URL…] [공개]', en: '/shorten <URL> [URL…] [public]' },
  api: 'url-shortener',
  slow: false,
  publicable: true,
  async handle(ctx, options): Promise<Reply> {
    const found = urlsIn(options.url, MAX_CHAT_LINKS + 1);
    const urls = found.length > 0 ? found.slice(0, MAX_CHAT_LINKS) : [unwrapSlackLink(options.url)];
    if (urls.length === 1 || !ctx.extra.shortenBulk) {
      const url = urls[0]!;
      const body = await ctx.call('url-shortener', { url });
      await rememberOrigin(ctx, [body.code]);
      return {
        title: ctx.t({ ko: '짧은 링크', en: 'Short link' }),
        text: body.short_url,
        fields: [{ name: ctx.t({ ko: '원래 URL', en: 'Original' }), value: url }],
        context: remainingLine(ctx.locale, body.remaining),
        tone: 'ok',
      };
    }
    const body = await ctx.run(ctx.extra.shortenBulk, { urls });
    await rememberOrigin(
      ctx,
      body.results.flatMap((result) => (result.success ? [String(result.code)] : [])),
    );
    const fields = body.results.map((result, index) => ({
      name: urls[index]!,
      value: result.success ? String(result.short_url) : `⚠️ ${String(result.error)}`,
      inline: false,
    }));
    const more =
      found.length > MAX_CHAT_LINKS
        ? ctx.t({
            ko: ` (앞의 ${MAX_CHAT_LINKS}개만; 더 많으면 API의 /url/shorten/bulk)`,
            en: ` (first ${MAX_CHAT_LINKS} only; use the API's bulk route for more)`,
          })
        : '';
    return {
      title:
        ctx.t({ ko: `짧은 링크 ${body.results.length - body.failed}개`, en: `${body.results.length - body.failed} short links` }) + more,
      fields,
      context: remainingLine(ctx.locale, body.remaining),
      tone: body.failed > 0 ? 'warn' : 'ok',
    };
  },
});

/** The channel a link was made in is told if a rescan later finds its target harmful (issue 40 item 6). */
async function rememberOrigin(ctx: CommandContext, codes: string[]): Promise<void> {
  const { platform, workspaceId, channelId } = ctx.invocation;
  if (!ctx.account || !channelId || !ctx.extra.linkOrigin) return;
  await ctx.extra.linkOrigin(ctx.account.id, codes, { platform, workspaceId, channelId }).catch((error: unknown) => {
    ctx.logger.warn({ err: error }, 'short link origin not recorded');
  });
}

/** Discord users wrap a link as `<https://x>` to suppress its preview (Slack's `<url|label>` is decoded at its door); the core wants the bare URL. */
export function unwrapSlackLink(value: string): string {
  const match = /^<([^|>]+)(?:\|[^>]*)?>$/.exec(value.trim());
  return match ? match[1]! : value.trim();
}

/** Every http(s) URL of a message, Slack's `<url|label>` form included, at most `limit`, without repeats. */
export function urlsIn(message: string, limit = 10): string[] {
  const found = new Set<string>();
  for (const match of message.matchAll(/<(https?:\/\/[^|>\s]+)(?:\|[^>]*)?>|(https?:\/\/[^\s<>"')\]]+)/gi)) {
    const url = (match[1] ?? match[2] ?? '').replace(/[.,;:!?]+$/, '');
    if (url) found.add(url);
    if (found.size >= limit) break;
  }
  return [...found];
}
