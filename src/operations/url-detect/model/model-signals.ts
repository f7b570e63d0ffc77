import type { CanonicalUrl } from '../canonicalize.js';
import type { LexicalModel } from './lexical-model.js';
import { isInstitutionalSuffix, isSharedPlatformHost, SHARED_HOSTING } from '../rules/domains.js';
import { CATEGORY_LABEL, type Signal } from '../signals.js';
import { WEIGHTS } from '../rules/tables.js';

/**
 * Weights (data/weights.json `globalModel`): above the threshold `alone` where the model may
 * decide alone, else `notAlone`; above the suspicious level `suspicious` (a cheap TLD or one word
 * more makes it harmful), `suspiciousShared` on shared hosting.
 */
const POINTS = WEIGHTS.globalModel;

/**
 * The lexical model's opinion as a signal. Above its category's calibrated threshold it decides
 * alone; on shared hosting (github.io, vercel.app…), under suffixes only public bodies and
 * schools register (go.id, edu…), and in the band just below the threshold it only adds weight,
 * so a legitimate page there needs something specific from the rules (a brand it does not own,
 * a phishing word…) before it is flagged.
 */
export function modelSignals(url: CanonicalUrl, model: LexicalModel, ruleSignals: readonly Signal[]): Signal[] {
  const prediction = model.predict(url.host);
  const threshold = model.info.threshold;
  const evidence = prediction.evidence.length > 0 ? `, 근거: ${prediction.evidence.map((e) => `'${e}'`).join(', ')}` : '';
  const reason = `공개 차단 목록으로 학습한 주소 모델이 ${CATEGORY_LABEL[prediction.category]} 사이트 주소와 닮았다고 판단함(확률 ${Math.round(prediction.harm * 100)}%${evidence})`;
  if (prediction.flagged)
    return [{ category: prediction.category, weight: modelDecidesAlone(url) ? POINTS.alone : POINTS.notAlone, reason }];
  // Between the suspicious level and the threshold: one more sign from the rules decides.
  const suspicious = model.info.suspicious ?? threshold;
  // Shape signals (cheap TLD, digits, random letters) are what the model already read: no second vote.
  const corroborated = ruleSignals.some((signal) => !signal.shape && signal.weight > 5);
  if (prediction.harm >= suspicious && corroborated)
    return [{ category: prediction.category, weight: onSharedHosting(url) ? POINTS.suspiciousShared : POINTS.suspicious, reason }];
  return [];
}

function onSharedHosting(url: CanonicalUrl): boolean {
  return isSharedPlatformHost(url.host) || (url.domain !== undefined && SHARED_HOSTING.has(url.domain));
}

/**
 * Whether the model's verdict alone may condemn this address: not on shared hosting, where
 * anyone picks any name, nor under suffixes only public bodies and schools register (lists name
 * hacked government and school sites by the hundred: the model learns their suffix, not harm).
 */
export function modelDecidesAlone(url: CanonicalUrl): boolean {
  return !onSharedHosting(url) && !isInstitutionalSuffix(url.publicSuffix);
}
