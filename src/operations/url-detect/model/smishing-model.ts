import type { CanonicalUrl } from '../canonicalize.js';
import { isInstitutionalSuffix, isSharedPlatformHost, SHARED_HOSTING } from '../rules/domains.js';
import { LexicalModel } from './lexical-model.js';
import { learnedShortenerOf, type LearnedShorteners } from '../expansion/learned-shorteners.js';
import type { Signal } from '../signals.js';
import { DOMAINS, WEIGHTS } from '../rules/tables.js';

/**
 * Korean smishing's own host model (issue 31 item 4). KISA's reports are a few thousand hosts a
 * year against millions in the global feeds: mixed in, they barely move the global model. So
 * the hosts of the Korean feeds (named `kisa…` or `…-kr`, KISA's default feed among them) train
 * a second character n-gram model against the same clean top sites, at every refresh: it
 * learns each season's shapes (random labels on cheap new TLDs, carrier look-alikes) as KISA
 * publishes them. Below its firm level it only adds weight, so a look-alike of a brand (a rule
 * signal) plus a smishing-shaped name decides, while neither alone does.
 */

/** Feed names that carry Korean smishing reports. */
export const KOREAN_FEED = /^kisa|-kr$/i;
/**
 * data/weights.json `smishingModel`: `minHosts` — fewer reported hosts teach nothing reliable;
 * `firm` — the probability from which the model decides alone, `leaning` — from which it adds
 * weight (measured on the dev part only); `hint` — from here it only tips a near-miss of the rules
 * (a carrier's name in a domain it does not own scores 45 of 50).
 */
const { minHosts: MIN_HOSTS, firm: FIRM, leaning: LEANING, hint: HINT } = WEIGHTS.smishingModel;

/**
 * Korean second-level suffixes only public bodies, schools, research institutes, non-profits
 * and local governments can register: smishing is not sent from them, and their names (public
 * bodies' acronyms) look random to any n-gram model.
 */
const RESTRICTED_KR: ReadonlySet<string> = new Set(DOMAINS.koreanRestrictedSuffixes);
const REGIONAL_KR = new RegExp(`(^|\\.)(${DOMAINS.koreanRegions.join('|')})\\.kr$`);

/**
 * Whether the smishing model needs a stored feed's host sample: the Korean feeds' and the clean
 * feeds' when a Korean feed is stored, none otherwise (the global model, when saved, needs none).
 */
export function smishingNeedsSample(
  feed: { name: string; category: string },
  feeds: readonly { name: string; category: string }[],
): boolean {
  const korean = (f: { name: string; category: string }) => f.category !== 'clean' && KOREAN_FEED.test(f.name);
  return (feed.category === 'clean' || korean(feed)) && feeds.some(korean);
}

/** A shortener's host (shipped or learned) says nothing of the campaigns behind its links: no example. */
export async function trainSmishingModel(
  koreanHosts: readonly string[],
  cleanHosts: readonly string[],
  options: { shorteners?: LearnedShorteners; now?: (() => Date) | undefined } = {},
): Promise<LexicalModel | undefined> {
  const reported = koreanHosts.filter((host) => !learnedShortenerOf(host, options.shorteners));
  if (reported.length < MIN_HOSTS || cleanHosts.length === 0) return undefined;
  return LexicalModel.train(
    new Map([
      ['phishing', reported],
      ['clean', cleanHosts],
    ]),
    { now: options.now },
  );
}

/** Where the smishing model may speak: not on restricted Korean suffixes, shared platforms or shorteners. */
function mayJudge(url: CanonicalUrl, shorteners: LearnedShorteners | undefined): boolean {
  if (url.ipVersion || !url.domain || learnedShortenerOf(url.host, shorteners)) return false;
  if (RESTRICTED_KR.has(url.publicSuffix) || REGIONAL_KR.test(url.host) || isInstitutionalSuffix(url.publicSuffix)) return false;
  return !isSharedPlatformHost(url.host) && !SHARED_HOSTING.has(url.domain);
}

export function smishingSignals(url: CanonicalUrl, model: LexicalModel | undefined, shorteners?: LearnedShorteners): Signal[] {
  if (!model || !mayJudge(url, shorteners)) return [];
  const prediction = model.predict(url.host);
  if (prediction.harm < HINT) return [];
  const evidence = prediction.evidence.length > 0 ? `, 근거: ${prediction.evidence.map((e) => `'${e}'`).join(', ')}` : '';
  return [
    {
      category: 'phishing',
      weight:
        prediction.harm >= FIRM
          ? WEIGHTS.smishingModel.firmWeight
          : prediction.harm >= LEANING
            ? WEIGHTS.smishingModel.leaningWeight
            : WEIGHTS.smishingModel.hintWeight,
      reason: `KISA가 신고한 스미싱 주소들로 학습한 모델이 스미싱 주소와 닮았다고 판단함(확률 ${Math.round(prediction.harm * 100)}%${evidence})`,
    },
  ];
}
