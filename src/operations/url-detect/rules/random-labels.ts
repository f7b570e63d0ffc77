import type { CanonicalUrl } from '../canonicalize.js';
import type { Signal } from '../signals.js';
import { isInstitutionalSuffix, SHARED_HOSTING } from './domains.js';
import { LETTER_PAIRS, WEIGHTS } from './tables.js';

/**
 * Campaign hosts are made by machines: a random sub-domain on a random registered name
 * (`vyosq.agdfv.com`, `xb05.h9ts.wtf`), a new one for every batch of texts. Two shapes:
 * - both labels four to six letters that no ordinary name strings together: how letters follow
 *   one another in ordinary sites' names is learned from the top-sites list (data/letter-pairs.json,
 *   scripts/learn-letter-pairs.ts), and a label whose letters are, on average, less likely than
 *   `pronounceable` is random;
 * - a numbered batch label (`x08`, `ax04`) on a short name with a digit among its letters (`h9ts`).
 * The first decides alone (issue 50: fold 1 of the forward evaluation missed it on `.com` names,
 * and no Korean clean page has it); the second needs the smishing model's hint, a cheap TLD or a brand.
 */

/** Letters, then the start (^) and the end ($) of a word. */
export const LETTER_PAIR_ALPHABET = 'abcdefghijklmnopqrstuvwxyz^$';
const POINTS = WEIGHTS.randomLabels;

/** Mean log-probability of the label's letter pairs (the word's start and end included). */
export function letterPairScore(word: string): number {
  const text = `^${word}$`;
  let total = 0;
  for (let i = 1; i < text.length; i++) {
    total += LETTER_PAIRS[LETTER_PAIR_ALPHABET.indexOf(text[i - 1]!)]?.[LETTER_PAIR_ALPHABET.indexOf(text[i]!)] ?? -10;
  }
  return total / (text.length - 1);
}

const random = (label: string) => /^[a-z]{4,6}$/.test(label) && letterPairScore(label) < POINTS.pronounceable;
const NUMBERED_BATCH = /^[a-z]{1,2}\d{2}$/;
/** Four or five characters, a letter first, one or more digits among at least three letters (`h9ts`, `je0q`). */
const DIGIT_AMONG_LETTERS = /^(?=.*\d)(?=(?:.*[a-z]){3})[a-z][a-z0-9]{3,4}$/;

export function randomLabelSignals(url: CanonicalUrl): Signal[] {
  if (url.ipVersion || !url.domain || SHARED_HOSTING.has(url.domain) || isInstitutionalSuffix(url.publicSuffix)) return [];
  const sub = url.subdomain;
  const name = url.domainLabel;
  if (random(sub) && random(name)) {
    return [
      {
        category: 'phishing',
        weight: POINTS.bothRandom,
        reason: `하위 도메인('${sub}')과 도메인 이름('${name}')이 모두 무작위 글자(캠페인마다 새로 만드는 스미싱 주소의 특징)`,
      },
    ];
  }
  if (NUMBERED_BATCH.test(sub) && DIGIT_AMONG_LETTERS.test(name)) {
    return [
      {
        category: 'phishing',
        weight: POINTS.numbered,
        reason: `번호를 붙인 하위 도메인('${sub}')과 글자·숫자를 섞은 짧은 도메인 이름('${name}')(대량 발송 스미싱 주소의 특징)`,
      },
    ];
  }
  return [];
}
