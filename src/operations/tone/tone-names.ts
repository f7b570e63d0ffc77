import type { Tone } from './tone.schema.js';

/**
 * The ten tones as Korean users name them (docs/operations/tone.md): one name each, the one a
 * header shows, and the other spellings people type. `target_tone` takes any of them and the
 * answer still gives the code.
 */
export const TONE_NAMES: Record<Tone, { ko: string; en: string; aliases: string[] }> = {
  formal: { ko: '하십시오체', en: 'Formal', aliases: ['합쇼체', '격식체', '격식', '공손체'] },
  casual: { ko: '해요체', en: 'Polite casual', aliases: ['존댓말', '일상 존댓말', '일상존댓말'] },
  informal: { ko: '반말', en: 'Plain (banmal)', aliases: ['해체', '해라체', '친구체'] },
  professional: { ko: '비즈니스', en: 'Business', aliases: ['업무용', '업무', '전문가', '비즈니스체'] },
  emotive: { ko: '감성', en: 'Emotive', aliases: ['감성적', '감성체', '감성적으로'] },
  child: { ko: '어린이', en: 'Child', aliases: ['아이', '어린이 말투', '어린이체'] },
  cute: { ko: '귀엽게', en: 'Cute', aliases: ['귀여운 말투', '귀여운', '애교'] },
  lovely: { ko: '다정하게', en: 'Affectionate', aliases: ['다정한 말투', '다정', '다정한'] },
  elder: { ko: '어르신', en: 'Elderly', aliases: ['어르신 말투', '어르신체', '노인'] },
  thug: { ko: '느와르', en: 'Noir', aliases: ['누아르', '건달', '건달 말투', '조폭'] },
};

const BY_NAME = new Map<string, Tone>(
  (Object.keys(TONE_NAMES) as Tone[]).flatMap((code) =>
    [code, TONE_NAMES[code].ko, TONE_NAMES[code].en, ...TONE_NAMES[code].aliases].map((name) => [normalize(name), code] as const),
  ),
);

function normalize(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** The tone code of a code or a name (`해요체` → `casual`); the input unchanged when unknown (the schema says what it takes). */
export function toneCode(input: unknown): unknown {
  return typeof input === 'string' ? (BY_NAME.get(normalize(input)) ?? BY_NAME.get(normalize(input).replace(/ /g, '')) ?? input) : input;
}

/** The tone's name in the reader's language: `하십시오체` / `Formal`. */
export function toneName(code: string, locale: 'ko' | 'en'): string {
  const entry = TONE_NAMES[code as Tone];
  return entry ? entry[locale] : code;
}

/** `formal(하십시오체), casual(해요체), …`: what a refusal lists. */
export function toneList(): string {
  return (Object.keys(TONE_NAMES) as Tone[]).map((code) => `${code}(${TONE_NAMES[code].ko})`).join(', ');
}
