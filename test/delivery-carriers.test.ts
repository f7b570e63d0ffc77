import { describe, expect, it } from 'vitest';
import { detectCarriers } from '../src/operations/delivery/carrier-detect.js';
import { matchCarrier, resolveCarrier } from '../src/operations/delivery/carrier-names.js';
import { CARRIERS } from '../src/operations/delivery/carriers.js';
import { AppError } from '../src/errors.js';

const idOf = (text: string) => {
  const match = matchCarrier(text);
  return 'carrier' in match ? match.carrier.id : 'candidates' in match ? match.candidates.map((c) => c.id) : null;
};

describe('one carrier resolver for the API and the bots', () => {
  it('finds the biggest carriers by the names people use', () => {
    const expected: Record<string, string> = {
      우체국: 'kr.epost',
      우체국택배: 'kr.epost',
      '우체국 택배': 'kr.epost',
      롯데: 'kr.lotte',
      롯데택배: 'kr.lotte',
      대한통운: 'kr.cjlogistics',
      CJ: 'kr.cjlogistics',
      cj: 'kr.cjlogistics',
      CJ대한통운: 'kr.cjlogistics',
      'CJ 대한통운': 'kr.cjlogistics',
      한진: 'kr.hanjin',
      한진택배: 'kr.hanjin',
      로젠: 'kr.logen',
      경동: 'kr.kdexp',
      대신: 'kr.daesin',
      쿠팡: 'kr.coupangls',
      'CU 편의점택배': 'kr.cupost',
      GS25: 'kr.cvsnet',
      EMS: 'kr.epost.ems',
      일양: 'kr.ilyanglogis',
      'Korea Post': 'kr.epost',
      'kr.cjlogistics': 'kr.cjlogistics',
      cjlogistics: 'kr.cjlogistics',
      'KR.LOTTE': 'kr.lotte',
      'Lotte Global': 'kr.lotte.global',
      ＣＪ대한통운: 'kr.cjlogistics',
      CJ대한통운택배: 'kr.cjlogistics',
      천일: 'kr.chunilps',
      합동택배: 'kr.hdexp',
    };
    for (const [name, id] of Object.entries(expected)) expect(idOf(name), name).toBe(id);
  });

  it('resolves every carrier by its id, English name and Korean name', () => {
    for (const carrier of CARRIERS) {
      for (const name of [carrier.id, carrier.name, carrier.name_ko]) expect(idOf(name), name).toBe(carrier.id);
    }
  });

  it('lists the candidates of an ambiguous name and refuses an unknown one, as a 400 on the field', () => {
    expect(idOf('성원글로벌카고')).toEqual(['kr.swgexp.epost', 'kr.swgexp.cjlogistics']);
    expect(idOf('편의점택배')).toEqual(expect.arrayContaining(['kr.cupost', 'kr.cvsnet']));
    expect(idOf('없는택배')).toBeNull();
    expect(idOf('  ')).toBeNull();
    const ambiguous = (() => {
      try {
        resolveCarrier('성원');
      } catch (error) {
        return error as AppError;
      }
    })();
    expect(ambiguous).toMatchObject({
      status: 400,
      extra: { field: 'carrier_id', candidates: ['kr.swgexp.epost', 'kr.swgexp.cjlogistics'] },
    });
    expect(ambiguous!.message).toContain('성원글로벌카고 (우체국)(kr.swgexp.epost), 성원글로벌카고 (대한통운)(kr.swgexp.cjlogistics)');
  });
});

describe('carrier detection by number format', () => {
  it('narrows by length and check digit, most likely carrier first', () => {
    const top3 = (number: string) => detectCarriers(number).slice(0, 3);
    expect(top3('6408-1234-5670')).toEqual(['kr.cjlogistics', 'kr.lotte', 'kr.hanjin']); // 12 digits, mod-7 check holds
    // Check digit wrong: not the mod-7 carriers; only carriers without a known format remain.
    expect(detectCarriers('640812345671')).not.toContain('kr.cjlogistics');
    expect(detectCarriers('640812345671')[0]).toBe('kr.coupangls');
    expect(top3('64081234560')[0]).toBe('kr.logen');
    expect(detectCarriers('6408123456')).not.toContain('kr.hanjin'); // 10 digits, check fails
    expect(top3('6123456789012')[0]).toBe('kr.epost');
    expect(top3('EE123456785KR')[0]).toBe('kr.epost.ems'); // UPU S10 check digit 5
    expect(detectCarriers('EE123456789KR')).not.toContain('kr.epost.ems');
    expect(detectCarriers('12345')).toEqual([]);
  });
});
