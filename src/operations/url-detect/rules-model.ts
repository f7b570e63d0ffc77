import type { CanonicalUrl } from './canonicalize.js';
import type { LexicalModel } from './lexical-model.js';
import { CATEGORY_LABEL, type Signal } from './signals.js';

/**
 * The lexical model's opinion as a signal. Above its calibrated threshold it decides alone;
 * on shared hosting (github.io, vercel.app…) and in the band just below, it only adds weight,
 * so a legitimate page there needs something specific from the rules before it is flagged.
 */
export function modelSignals(url: CanonicalUrl, model: LexicalModel, ruleSignals: readonly Signal[]): Signal[] {
  const prediction = model.predict(url.host);
  const threshold = model.info.threshold;
  const evidence = prediction.evidence.length > 0 ? `, 근거: ${prediction.evidence.map((e) => `'${e}'`).join(', ')}` : '';
  const reason = `공개 차단 목록으로 학습한 주소 모델이 ${CATEGORY_LABEL[prediction.category]} 사이트 주소와 닮았다고 판단함(확률 ${Math.round(prediction.harm * 100)}%${evidence})`;
  const shared = ruleSignals.some((signal) => signal.reason.includes('공유 호스팅'));
  if (prediction.flagged) return [{ category: prediction.category, weight: shared ? 30 : 50, reason }];
  if (prediction.harm >= threshold * 0.8 && ruleSignals.length > 0) return [{ category: prediction.category, weight: 20, reason }];
  return [];
}
