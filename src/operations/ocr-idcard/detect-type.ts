import { findBusinessNumber, findLicenceNumber, findResidentNumber } from './numbers.js';
import { looksLikeAddress } from './address.js';
import { isIssuerLine } from './parse-card.js';
import { compact } from './text.js';

/** Six digits, a dash, and six or seven more: a resident number even when its date is impossible. */
const RESIDENT_SHAPE = /(?<!\d)\d{6}[-–~]\d{6,7}(?!\d)/;

export type DocumentType = '주민등록증' | '자동차운전면허증' | '사업자등록증';

interface Clue {
  pattern: RegExp;
  weight: number;
}

/**
 * Title and layout words of each document, with weights. Partial titles count too: the big
 * title is the line most often misread on a photographed card.
 */
const CLUES: Record<DocumentType, Clue[]> = {
  주민등록증: [
    { pattern: /주민등록증/, weight: 6 },
    // The big title misread by a syllable or two ("수민등록중", "주민등록층").
    { pattern: /[주수두쭈][민먼만]등|민등록|등록[증중층]$/m, weight: 3 },
  ],
  자동차운전면허증: [
    { pattern: /운전면허/, weight: 6 },
    { pattern: /자동차|면허증|운전면/, weight: 3 },
    { pattern: /적성검사|갱신기간/, weight: 3 },
    { pattern: /경찰청장/, weight: 3 },
    { pattern: /[12]종(보통|대형|소형|특수)|원동기/, weight: 2 },
  ],
  사업자등록증: [
    { pattern: /사업자등록증/, weight: 6 },
    { pattern: /사업자|등록번호/, weight: 3 },
    { pattern: /세무서장/, weight: 3 },
    { pattern: /업태|종목|사업장|소재지|개업|상호|법인명|대표자/, weight: 2 },
    { pattern: /과세자|법인사업자|발급사유/, weight: 2 },
  ],
};

export interface TypeGuess {
  type?: DocumentType;
  score: number;
}

/** The document type with the most evidence from its words and number formats; none below the bar. */
export function detectDocumentType(lines: string[]): TypeGuess {
  const compactLines = lines.map(compact);
  const text = compactLines.join('\n');
  const scores: Record<DocumentType, number> = { 주민등록증: 0, 자동차운전면허증: 0, 사업자등록증: 0 };
  for (const [type, clues] of Object.entries(CLUES) as Array<[DocumentType, Clue[]]>) {
    for (const clue of clues) if (clue.pattern.test(text)) scores[type] += clue.weight;
  }
  const hasResident = lines.some((line) => findResidentNumber(line));
  const hasLicence = lines.some((line) => findLicenceNumber(line));
  const hasBusiness = lines.some((line) => !findResidentNumber(line) && !findLicenceNumber(line) && findBusinessNumber(line));
  if (hasLicence) scores.자동차운전면허증 += 4;
  if (hasResident) {
    scores.주민등록증 += 2;
    scores.자동차운전면허증 += 1;
  }
  if (hasBusiness) scores.사업자등록증 += 3;
  // Without a readable title, a card still shows what it is: a resident number (or a number
  // shaped like one), the issuer's line and an address make a 주민등록증 unless a licence's
  // own marks are there too.
  const issuer = lines.some((line) => isIssuerLine(line) && !/경찰/.test(compact(line)));
  if (issuer) scores.주민등록증 += 3;
  if (!hasResident && lines.some((line) => RESIDENT_SHAPE.test(compact(line)))) scores.주민등록증 += 1;
  if (issuer && lines.some((line) => looksLikeAddress(line) && !isIssuerLine(line))) scores.주민등록증 += 2;
  // "사업자등록증" also contains "등록증": a certificate is not a resident card.
  if (/사업자/.test(text)) scores.주민등록증 = Math.max(0, scores.주민등록증 - 3);

  const ranked = (Object.entries(scores) as Array<[DocumentType, number]>).sort((a, b) => b[1] - a[1]);
  const [best] = ranked;
  if (!best || best[1] < 5) return { score: best?.[1] ?? 0 };
  return { type: best[0], score: best[1] };
}
