import { z } from 'zod';
import { LANGUAGES, type Language } from '../../src/operations/translate/translate.schema.js';
import { TONES, type Tone } from '../../src/operations/tone/tone.schema.js';
import type { Answer, Reply } from './types.js';
import { defineCommand, flag, text } from './options.js';
import { remainingLine } from './texts.js';

const LANGUAGE_NAMES: Record<string, { ko: string; en: string }> = {
  ko: { ko: '한국어', en: 'Korean' },
  en: { ko: '영어', en: 'English' },
  ja: { ko: '일본어', en: 'Japanese' },
  zh: { ko: '중국어', en: 'Chinese' },
};

/** `/tone style text`: the tone conversion (style = a SPEC tone code). */
export const toneCommand = defineCommand({
  name: 'tone',
  description: { ko: '문장을 원하는 말투로 바꿉니다', en: 'Rewrite text in another speaking style' },
  options: [
    {
      name: 'style',
      type: 'string',
      required: true,
      choices: TONES,
      description: { ko: '말투 (formal, casual, cute …)', en: 'Style (formal, casual, cute …)' },
    },
    { name: 'text', type: 'string', required: true, rest: true, description: { ko: '바꿀 문장', en: 'Text to rewrite' } },
  ],
  schema: z.object({ style: text('style'), text: text('text') }),
  usage: { ko: `/tone <${TONES.join('|')}> <문장>`, en: `/tone <${TONES.join('|')}> <text>` },
  api: 'tone-transformation',
  slow: true,
  async handle(ctx, options) {
    const body = await ctx.call('tone-transformation', { text: options.text, target_tone: options.style.toLowerCase() as Tone });
    return {
      title: ctx.t({ ko: `말투 변환 · ${options.style}`, en: `Tone · ${options.style}` }),
      text: body.transformed_text,
      context: remainingLine(ctx.locale, body.remaining),
      tone: 'ok',
    };
  },
});

/** `/generate prompt`: text generation. */
export const generateCommand = defineCommand({
  name: 'generate',
  description: { ko: '주제나 지시로 글을 생성합니다', en: 'Generate text from a prompt' },
  options: [
    { name: 'prompt', type: 'string', required: true, rest: true, description: { ko: '주제 또는 지시', en: 'Topic or instruction' } },
  ],
  schema: z.object({ prompt: text('prompt') }),
  usage: { ko: '/generate <주제 또는 지시>', en: '/generate <prompt>' },
  api: 'text-generation',
  slow: true,
  async handle(ctx, { prompt }) {
    const body = await ctx.call('text-generation', { prompt });
    return {
      title: ctx.t({ ko: '텍스트 생성', en: 'Generated text' }),
      text: body.content,
      context: `${remainingLine(ctx.locale, body.remaining)} · ${ctx.t({ ko: `토큰 ${body.tokens_used}개`, en: `${body.tokens_used} tokens` })}`,
      tone: 'ok',
    };
  },
});

/** `/translate target text`: translation from the detected language. */
export const translateCommand = defineCommand({
  name: 'translate',
  description: { ko: '문장을 번역합니다 (ko, en, ja, zh)', en: 'Translate text (ko, en, ja, zh)' },
  options: [
    { name: 'target', type: 'string', required: true, choices: LANGUAGES, description: { ko: '번역할 언어', en: 'Target language' } },
    { name: 'text', type: 'string', required: true, rest: true, description: { ko: '번역할 문장', en: 'Text to translate' } },
    { name: 'public', type: 'boolean', required: false, description: { ko: '채널에 공개', en: 'Post to the channel' } },
  ],
  schema: z.object({ target: text('target'), text: text('text'), public: flag }),
  usage: { ko: '/translate <ko|en|ja|zh> <문장> [공개]', en: '/translate <ko|en|ja|zh> <text> [public]' },
  api: 'translation',
  slow: true,
  publicable: true,
  async handle(ctx, options) {
    const body = await ctx.call('translation', { text: options.text, target_lang: options.target as Language });
    return translationReply(ctx.t.bind(ctx), body, ctx.locale);
  },
});

export function translationReply(t: (text: { ko: string; en: string }) => string, body: Answer<'translation'>, locale: 'ko' | 'en'): Reply {
  const name = (code: string) => (LANGUAGE_NAMES[code] ? t(LANGUAGE_NAMES[code]) : code);
  return {
    title: t({ ko: '번역', en: 'Translation' }) + ` · ${name(body.source_lang)} → ${name(body.target_lang)}`,
    text: body.translated,
    context: remainingLine(locale, body.remaining),
    tone: 'ok',
  };
}
