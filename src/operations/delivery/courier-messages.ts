import { z } from 'zod';

export const SITUATIONS = ['door', 'security', 'box', 'call'] as const;
export const COURIER_TONES = ['polite', 'short', 'friendly'] as const;
export type Situation = (typeof SITUATIONS)[number];
export type CourierTone = (typeof COURIER_TONES)[number];

export const situationSchema = z.enum(SITUATIONS, { error: "situation은 'door', 'security', 'box', 'call' 중 하나여야 합니다." });
export const courierToneSchema = z.enum(COURIER_TONES, { error: "tone은 'polite', 'short', 'friendly' 중 하나여야 합니다." });

/** What each situation asks of the courier (also given to the LLM). */
export const SITUATION_KO: Record<Situation, string> = {
  door: '문 앞에 놓아 달라',
  security: '경비실에 맡겨 달라',
  box: '무인 택배함에 넣어 달라',
  call: '도착 전에 전화해 달라',
};

export const TONE_KO: Record<CourierTone, string> = {
  polite: '정중한 존댓말(하십시오체·해요체), 인사와 감사 포함',
  short: '한 문장의 짧고 분명한 존댓말',
  friendly: '밝고 친근한 해요체, 감사 인사 포함',
};

/** A message for every situation and tone: the fallback when no LLM answers. */
export const COURIER_TEMPLATES: Record<Situation, Record<CourierTone, string>> = {
  door: {
    polite: '안녕하세요, 기사님. 부재 시 문 앞에 놓아 주시면 감사하겠습니다. 늘 수고 많으십니다.',
    short: '문 앞에 놓아 주세요.',
    friendly: '기사님, 안녕하세요! 문 앞에 살짝 놓아 주시면 돼요. 오늘도 고맙습니다!',
  },
  security: {
    polite: '안녕하세요, 기사님. 번거로우시겠지만 경비실에 맡겨 주시면 감사하겠습니다. 늘 수고 많으십니다.',
    short: '경비실에 맡겨 주세요.',
    friendly: '기사님, 안녕하세요! 경비실에 맡겨 주시면 제가 찾아갈게요. 오늘도 고맙습니다!',
  },
  box: {
    polite: '안녕하세요, 기사님. 무인 택배함에 넣어 주시면 감사하겠습니다. 늘 수고 많으십니다.',
    short: '택배함에 넣어 주세요.',
    friendly: '기사님, 안녕하세요! 택배함에 쏙 넣어 주시면 돼요. 오늘도 고맙습니다!',
  },
  call: {
    polite: '안녕하세요, 기사님. 도착하시기 전에 전화 한 통 주시면 감사하겠습니다. 늘 수고 많으십니다.',
    short: '도착 전에 전화 주세요.',
    friendly: '기사님, 안녕하세요! 도착하시기 전에 전화 한 번 주시면 바로 나갈게요. 오늘도 고맙습니다!',
  },
};

export function courierTemplate(situation: Situation, tone: CourierTone): string {
  return COURIER_TEMPLATES[situation][tone];
}
