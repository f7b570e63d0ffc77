import type { HarmCategory } from './list-index.js';

/** One observation of a rule: which category it points to, how strongly, and why (Korean). */
export interface Signal {
  /** `generic` signals (cheap TLD, long host...) strengthen whichever category leads. */
  category: HarmCategory | 'generic';
  weight: number;
  reason: string;
  /** Names the category whatever else scores higher (an APK download is malware even when it wears a brand). */
  decisive?: boolean;
}

export const CATEGORY_LABEL: Record<HarmCategory, string> = {
  spam: '스팸·광고',
  gambling: '불법 도박',
  adult: '성인·음란물',
  phishing: '피싱·사칭',
  malware: '악성코드 유포',
};
