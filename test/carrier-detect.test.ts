import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CARRIER_FORMATS,
  carrierFormatsSchema,
  MAX_DETECT_CANDIDATES,
  mod7Valid,
  rankCarriers,
  s10Valid,
} from '../src/operations/delivery/carrier-detect.js';

const table = z
  .object({
    real: z.number().int(),
    numbers: z.array(
      z.object({
        carrier: z.string(),
        number: z.string(),
        origin: z.enum(['generated', 'real']),
        rule: z.string(),
        source: z.string().optional(),
      }),
    ),
  })
  .parse(JSON.parse(readFileSync(new URL('./fixtures/waybills/waybills.json', import.meta.url), 'utf8')));

/** Per carrier: how often the true carrier is ranked first, and among the candidates asked upstream. */
function score(rows: typeof table.numbers) {
  const byCarrier = new Map<string, { n: number; top1: number; asked: number }>();
  for (const row of rows) {
    const ranked = rankCarriers(row.number).map((candidate) => candidate.carrierId);
    const entry = byCarrier.get(row.carrier) ?? { n: 0, top1: 0, asked: 0 };
    entry.n++;
    if (ranked[0] === row.carrier) entry.top1++;
    if (ranked.slice(0, MAX_DETECT_CANDIDATES).includes(row.carrier)) entry.asked++;
    byCarrier.set(row.carrier, entry);
  }
  return byCarrier;
}

describe('carrier detection on the waybill table (test/fixtures/waybills)', () => {
  it('states how many numbers are real, and scores the real ones apart', () => {
    const real = table.numbers.filter((row) => row.origin === 'real');
    expect(real).toHaveLength(table.real);
    for (const row of real) expect(row.source, `${row.number} needs a source`).toBeTruthy();
  });

  it('asks the true carrier for every number of a carrier with a format rule; ranks by share where formats overlap', () => {
    const generated = score(table.numbers.filter((row) => row.origin === 'generated'));
    const lines = [...generated.entries()].map(
      ([carrier, s]) => `${carrier}: top-1 ${s.top1}/${s.n}, asked (top-${MAX_DETECT_CANDIDATES}) ${s.asked}/${s.n}`,
    );
    console.info(`carrier detection, generated numbers (${table.numbers.length}, real ${table.real}):\n${lines.join('\n')}`);
    for (const carrier of ['kr.cjlogistics', 'kr.hanjin', 'kr.lotte', 'kr.logen', 'kr.epost', 'kr.epost.ems']) {
      const s = generated.get(carrier)!;
      expect(s.asked, carrier).toBe(s.n);
    }
    // Formats that only one rule gives are ranked first.
    for (const carrier of ['kr.logen', 'kr.epost', 'kr.epost.ems', 'kr.cjlogistics'])
      expect(generated.get(carrier)!.top1, carrier).toBe(generated.get(carrier)!.n);
    // 12 digits with the mod-7 check are CJ's, Lotte's or Hanjin's: the number alone cannot tell them apart.
    expect(generated.get('kr.lotte')!.top1).toBe(0);
  });

  it('ranks with confidences that sum to one, published rules before a fallback', () => {
    const ranked = rankCarriers('6408-1234-5670');
    expect(ranked.slice(0, 3).map((c) => c.carrierId)).toEqual(['kr.cjlogistics', 'kr.lotte', 'kr.hanjin']);
    expect(ranked.reduce((sum, c) => sum + c.confidence, 0)).toBeCloseTo(1, 6);
    expect(ranked[0]).toMatchObject({ basis: 'inferred', check: 'mod7' });
    expect(ranked[0]!.confidence).toBeGreaterThan(0.4);
    const ems = rankCarriers('EE123456785KR');
    expect(ems[0]).toMatchObject({ carrierId: 'kr.epost.ems', basis: 'published', check: 's10' });
    expect(ems[0]!.confidence).toBeGreaterThan(0.8);
    expect(rankCarriers('6123456789012')[0]).toMatchObject({ carrierId: 'kr.epost', basis: 'published' });
    // Letters that are not S10: the international carriers without a format, equally unsure.
    expect(
      rankCarriers('ABCD12345678')
        .map((c) => c.carrierId)
        .sort(),
    ).toEqual(['kr.actcore.ocean-inbound', 'kr.epantos', 'kr.lotte.global']);
    expect(rankCarriers('12345')).toEqual([]);
    // Retired carriers are never candidates.
    expect(rankCarriers('123456789012').map((c) => c.carrierId)).not.toContain('kr.hdexp');
  });

  it('check digits: mod 7 and UPU S10', () => {
    expect(mod7Valid('64081234567' + String(64081234567 % 7))).toBe(true);
    expect(mod7Valid('640812345671')).toBe(false);
    expect(s10Valid('EE123456785KR')).toBe(true);
    expect(s10Valid('EE123456789KR')).toBe(false);
  });

  it('the rules file is validated at load: a rule with neither lengths nor a pattern, or an unknown carrier, is refused', () => {
    expect(carrierFormatsSchema.safeParse(CARRIER_FORMATS).success).toBe(true);
    const broken = {
      ...CARRIER_FORMATS,
      rules: [{ carriers: ['kr.cjlogistics'], check: 'none', basis: 'inferred', reference: 'no shape given' }],
    };
    expect(carrierFormatsSchema.safeParse(broken).success).toBe(false);
    const unknown = { ...CARRIER_FORMATS, rules: [{ ...CARRIER_FORMATS.rules[0]!, carriers: ['kr.nowhere'] }] };
    expect(carrierFormatsSchema.safeParse(unknown).success).toBe(false);
  });
});
