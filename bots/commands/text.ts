import { z } from 'zod';
import { LANGUAGES, type Language } from '../../src/operations/translate/translate.schema.js';
import { LANGUAGE_CHOICES, languageCode } from './languages.js';
import { TONES, type Tone } from '../../src/operations/tone/tone.schema.js';
import { TONE_NAMES, toneCode, toneName } from '../../src/operations/tone/tone-names.js';
import { languageNameOf } from '../../src/operations/translate/language-names.js';
import type { Answer, Reply } from './types.js';
import { defineCommand, flag, text } from './options.js';
import { remainingLine } from './texts.js';

/** The ten tones as Discord shows them: `해요체 (casual)`, localized for English clients. */
const TONE_CHOICES = TONES.map((code) => ({
  name: `${TONE_NAMES[code].ko} (${code})`,
  name_localizations: { 'en-US': `${TONE_NAMES[code].en} (${code})`, 'en-GB': `${TONE_NAMES[code].en} (${code})` },
  value: code,
}));
const TONE_WORDS = TONES.map((code) => TONE_NAMES[code].ko).join('|');

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
      choiceNames: TONE_CHOICES,
      description: { ko: '말투 (해요체, 하십시오체, 반말 …)', en: 'Style (polite casual, formal, plain …)' },
    },
    { name: 'text', type: 'string', required: true, rest: true, description: { ko: '바꿀 문장', en: 'Text to rewrite' } },
  ],
  schema: z.object({ style: text('style'), text: text('text') }),
  usage: { ko: `/tone <${TONE_WORDS}> <문장>`, en: `/tone <${TONES.join('|')}> <text>` },
  api: 'tone-transformation',
  slow: true,
  async handle(ctx, options) {
    // Slack users type the tone's name (해요체) or its code; the header names it either way.
    const tone = toneCode(options.style) as Tone;
    const body = await ctx.call('tone-transformation', { text: options.text, target_tone: tone });
    return {
      title: ctx.t({ ko: `말투 변환 · ${toneName(body.target_tone, 'ko')}`, en: `Tone · ${toneName(body.target_tone, 'en')}` }),
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
    {
      name: 'target',
      type: 'string',
      required: true,
      choices: LANGUAGES,
      choiceNames: LANGUAGE_CHOICES,
      description: { ko: '번역할 언어', en: 'Target language' },
    },
    { name: 'text', type: 'string', required: true, rest: true, description: { ko: '번역할 문장', en: 'Text to translate' } },
    { name: 'public', type: 'boolean', required: false, description: { ko: '채널에 공개', en: 'Post to the channel' } },
  ],
  schema: z.object({ target: text('target'), text: text('text'), public: flag }),
  usage: { ko: '/translate <영어|일본어|중국어|한국어> <문장> [공개]', en: '/translate <English|Japanese|Chinese|Korean> <text> [public]' },
  api: 'translation',
  slow: true,
  publicable: true,
  async handle(ctx, options) {
    // Slack users type the language's name (영어, Japanese) as Discord's choices show it.
    const body = await ctx.call('translation', { text: options.text, target_lang: languageCode(options.target) as Language });
    return translationReply(ctx.t.bind(ctx), body, ctx.locale);
  },
});

export function translationReply(t: (text: { ko: string; en: string }) => string, body: Answer<'translation'>, locale: 'ko' | 'en'): Reply {
  const name = (code: string) => t({ ko: languageNameOf(code, 'ko'), en: languageNameOf(code, 'en') });
  return {
    title: t({ ko: '번역', en: 'Translation' }) + ` · ${name(body.source_lang)} → ${name(body.target_lang)}`,
    text: body.translated,
    context: remainingLine(locale, body.remaining),
    tone: 'ok',
  };
}
