import type { HarmCategory } from './lists/list-index.js';

/**
 * The one wording of the harm categories, for every door: the engine's reasons, the redirect
 * warning page and the bots. `clean` (the detector) and `safe` (the shortener's check) are
 * the same verdict under SPEC's two names.
 */
export const CATEGORY_LABELS: Record<HarmCategory | 'clean' | 'safe', { ko: string; en: string }> = {
  clean: { ko: '안전', en: 'clean' },
  safe: { ko: '안전', en: 'safe' },
  spam: { ko: '스팸·광고', en: 'spam' },
  gambling: { ko: '불법 도박', en: 'gambling' },
  adult: { ko: '성인·음란물', en: 'adult' },
  phishing: { ko: '피싱·사칭', en: 'phishing' },
  malware: { ko: '악성코드 유포', en: 'malware' },
};

/** The Korean label of a harmful category (the engine's reasons, the warning page). */
export const CATEGORY_LABEL: Record<HarmCategory, string> = {
  spam: CATEGORY_LABELS.spam.ko,
  gambling: CATEGORY_LABELS.gambling.ko,
  adult: CATEGORY_LABELS.adult.ko,
  phishing: CATEGORY_LABELS.phishing.ko,
  malware: CATEGORY_LABELS.malware.ko,
};
