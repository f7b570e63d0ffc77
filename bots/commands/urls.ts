import { z } from 'zod';
import { CATEGORY_LABELS } from '../../src/operations/url-detect/category-labels.js';
import type { Reply, Text } from './types.js';
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

/** `/shorten url`: URL shortening. */
export const shortenCommand = defineCommand({
  name: 'shorten',
  description: { ko: '긴 URL을 짧은 링크로 바꿉니다', en: 'Shorten a long URL' },
  options: [
    { name: 'url', type: 'string', required: true, description: { ko: '줄일 URL', en: 'URL to shorten' } },
    { name: 'public', type: 'boolean', required: false, description: { ko: '채널에 공개', en: 'Post to the channel' } },
  ],
  schema: z.object({ url: text('url'), public: flag }),
  usage: { ko: '/shorten <URL> [공개]', en: '/shorten <URL> [public]' },
  api: 'url-shortener',
  slow: false,
  publicable: true,
  async handle(ctx, options): Promise<Reply> {
    const url = unwrapSlackLink(options.url);
    const body = await ctx.call('url-shortener', { url });
    return {
      title: ctx.t({ ko: '짧은 링크', en: 'Short link' }),
      text: body.short_url,
      fields: [{ name: ctx.t({ ko: '원래 URL', en: 'Original' }), value: url }],
      context: remainingLine(ctx.locale, body.remaining),
      tone: 'ok',
    };
  },
});

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
