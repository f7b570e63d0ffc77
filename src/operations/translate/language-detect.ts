import type { Language } from './translate.schema.js';

/**
 * Offline language detection for ko/en/ja/zh. The script decides almost everything:
 * Hangul is Korean, kana is Japanese, Latin is English. Text written only in Han characters
 * is Japanese or Chinese: function words and character forms that only one of them uses
 * decide first, then the `eld` n-gram detector restricted to those two languages.
 */

const HANGUL = /\p{Script=Hangul}/gu;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const HAN = /\p{Script=Han}/gu;
const LATIN = /\p{Script=Latin}/gu;

/** Japanese-only forms (shinjitai, kokuji, iteration marks), absent from both kinds of Chinese. */
const JA_ONLY = new Set(
  '々〆気駅営売図広県済関楽戦鉄歳変対発読帰転伝払拡験険検続総浜沢畑込働峠枠円様労薬黒価両単実児従悪桜歩乗亜仏恵掲歴毎'.split(''),
);
/** Chinese function words and forms (simplified and traditional) that Japanese text does not use. */
const ZH_ONLY = new Set(
  '很吗嗎呢吧你她们們这這说說沒么麼个给让讓还过为对對时谢謝吃喝买卖电脑网开关发现样种请问间见东车长门马鸟鱼语话认识读书乐经济饭馆习华气'.split(
    '',
  ),
);

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;

interface HanDetector {
  detect(text: string): { language: string };
}

let hanDetector: Promise<HanDetector> | undefined;

/** eld's medium database, loaded on the first Han-only text (it costs ~0.4 s and some memory). */
function loadHanDetector(): Promise<HanDetector> {
  hanDetector ??= import('eld/medium').then(({ eld }) => {
    const detector = eld.newInstance();
    detector.setLanguageSubset(['ja', 'zh']);
    return detector;
  });
  return hanDetector;
}

async function hanOnly(text: string): Promise<'ja' | 'zh'> {
  let ja = 0;
  let zh = 0;
  for (const char of text) {
    if (JA_ONLY.has(char)) ja++;
    if (ZH_ONLY.has(char)) zh++;
  }
  if (ja !== zh) return ja > zh ? 'ja' : 'zh';
  const detected = (await loadHanDetector()).detect(text).language;
  // Without a signal either way, Han-only text is far more often Chinese.
  return detected === 'ja' ? 'ja' : 'zh';
}

/** The language of `text`, or undefined when it has no letters (digits, emoji, a URL alone). */
export async function detectLanguage(text: string): Promise<Language | undefined> {
  const withoutUrls = text.replace(/\b(?:https?:\/\/|www\.)\S+|\S+@\S+\.\S+/gi, ' ');
  const hangul = count(withoutUrls, HANGUL);
  const kana = count(withoutUrls, KANA);
  const han = count(withoutUrls, HAN);
  const latin = count(withoutUrls, LATIN);
  if (kana > 0 && kana >= hangul) return 'ja';
  if (hangul > 0) return 'ko';
  // A Han character carries about a word; a few names in Hanzi don't make English text Chinese.
  if (han > 0 && han * 3 >= latin) return hanOnly(withoutUrls);
  if (latin > 0) return 'en';
  return undefined;
}
