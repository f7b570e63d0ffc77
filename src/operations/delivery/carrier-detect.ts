import { z } from 'zod';
import raw from './rules/carrier-formats.json' with { type: 'json' };
import { CARRIERS, isRetired } from './carriers.js';

/**
 * Carrier detection from the waybill number, as Korean tracking apps do it. The rules are data
 * (rules/carrier-formats.json, with rules/README.md saying where each comes from): a rule gives
 * carriers whose numbers have these lengths (or match a pattern) and, where known, a check digit.
 * Which rules are published and which inferred:
 * - published: UPU S10 for Korea Post's international mail (pattern and check digit, a standard);
 *   Korea Post's 13-digit domestic registration numbers (its tracking form);
 * - inferred: the mod-7 check digit of CJ대한통운, 한진, 롯데 (10/12, 12 digits) and 로젠 (11 digits),
 *   which no carrier publishes; and "any 9–14 digits" for carriers without a known format.
 * Each matching carrier gets a score: its share of parcels × 1/(lengths it uses) × how much
 * likelier a passing check makes it (a random number passes mod 7 one time in 7). The scores,
 * normalised, are the candidates' confidence; the top `maxCandidates` are asked upstream.
 */

const carrierId = z.string().refine((id) => CARRIERS.some((carrier) => carrier.id === id), '알 수 없는 택배사 id');

const ruleSchema = z
  .object({
    carriers: z.array(carrierId).min(1),
    lengths: z.array(z.number().int().min(4).max(40)).min(1).optional(),
    pattern: z.string().optional(),
    check: z.enum(['none', 'mod7', 's10']),
    basis: z.enum(['published', 'inferred']),
    reference: z.string().min(10),
  })
  .refine((rule) => Boolean(rule.lengths) !== Boolean(rule.pattern), '규칙에는 lengths와 pattern 중 하나만 있어야 합니다');

export const carrierFormatsSchema = z.object({
  maxCandidates: z.number().int().min(1).max(5),
  checkFactors: z.object({ none: z.number().positive(), mod7: z.number().positive(), s10: z.number().positive() }),
  priors: z.record(z.string(), z.union([z.number().min(0).max(1), z.string()])),
  rules: z.array(ruleSchema).min(1),
});

export type CarrierFormats = z.output<typeof carrierFormatsSchema>;
type Rule = CarrierFormats['rules'][number];

/** The shipped rules, validated once at load: a broken edit fails at start, not on a lookup. */
export const CARRIER_FORMATS: CarrierFormats = carrierFormatsSchema.parse(raw);

/** Candidates asked at most for one number (each is one upstream lookup under the rate limit). */
export const MAX_DETECT_CANDIDATES = CARRIER_FORMATS.maxCandidates;
const DEFAULT_PRIOR = 0.005;

export interface RankedCarrier {
  carrierId: string;
  /** Share of the candidates' scores, 0–1. */
  confidence: number;
  /** Whether the rule that matched is published by the carrier (or a standard) or inferred. */
  basis: 'published' | 'inferred';
  check: Rule['check'];
}

/** The last digit is the number formed by the others, mod 7. */
export function mod7Valid(digits: string): boolean {
  if (!/^\d{2,}$/.test(digits)) return false;
  const body = BigInt(digits.slice(0, -1));
  return Number(body % 7n) === Number(digits.at(-1));
}

/** UPU S10 check digit: weights 8 6 4 2 3 5 9 7, 11 − sum mod 11 (10 → 0, 11 → 5). */
export function s10Valid(id: string): boolean {
  const match = /^[A-Z]{2}(\d{8})(\d)[A-Z]{2}$/.exec(id);
  if (!match) return false;
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = [...match[1]!].reduce((total, digit, index) => total + Number(digit) * weights[index]!, 0);
  const check = 11 - (sum % 11);
  return (check === 10 ? 0 : check === 11 ? 5 : check) === Number(match[2]);
}

function passes(check: Rule['check'], number: string): boolean {
  return check === 'none' || (check === 'mod7' ? mod7Valid(number) : s10Valid(number));
}

const compiled = CARRIER_FORMATS.rules.map((rule) => ({ rule, pattern: rule.pattern ? new RegExp(rule.pattern) : undefined }));

/** Ranked candidates for a number (spaces and hyphens dropped, upper-cased); empty: no guess. */
export function rankCarriers(raw: string, formats: CarrierFormats = CARRIER_FORMATS): RankedCarrier[] {
  const number = raw.replace(/[\s-]+/g, '').toUpperCase();
  const rules =
    formats === CARRIER_FORMATS
      ? compiled
      : formats.rules.map((rule) => ({ rule, pattern: rule.pattern ? new RegExp(rule.pattern) : undefined }));
  const best = new Map<string, { score: number; rule: Rule }>();
  for (const { rule, pattern } of rules) {
    const shape = pattern ? pattern.test(number) : /^\d+$/.test(number) && rule.lengths!.includes(number.length);
    if (!shape || !passes(rule.check, number)) continue;
    const spread = rule.lengths ? 1 / rule.lengths.length : 1;
    for (const id of rule.carriers) {
      if (isRetired(id)) continue;
      const prior = formats.priors[id];
      const score = (typeof prior === 'number' ? prior : DEFAULT_PRIOR) * spread * formats.checkFactors[rule.check];
      const held = best.get(id);
      if (!held || score > held.score) best.set(id, { score, rule });
    }
  }
  const total = [...best.values()].reduce((sum, entry) => sum + entry.score, 0);
  return [...best.entries()]
    .map(([id, { score, rule }]) => ({ carrierId: id, confidence: score / total, basis: rule.basis, check: rule.check }))
    .sort((a, b) => b.confidence - a.confidence || a.carrierId.localeCompare(b.carrierId));
}

/** Carrier ids the number's format points to, most likely first (empty: no guess). */
export function detectCarriers(raw: string): string[] {
  return rankCarriers(raw).map((candidate) => candidate.carrierId);
}
