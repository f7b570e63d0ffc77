import { describe, expect, it } from 'vitest';
import brandsFile from '../src/operations/url-detect/data/brands.json' with { type: 'json' };
import weightsFile from '../src/operations/url-detect/data/weights.json' with { type: 'json' };
import { BRANDS, loadTable, TABLE_SCHEMAS, WEIGHTS } from '../src/operations/url-detect/rules/tables.js';

describe('the rules’ data tables (data/*.json, issue 31 item 5)', () => {
  it('loads the shipped tables', () => {
    expect(BRANDS.find((brand) => brand.name === 'CJ대한통운')?.domains).toContain('cjlogistics.com');
    expect(WEIGHTS.verdict).toEqual({ harmful: 50, uncertain: 30 });
  });

  it('refuses a malformed table at load, naming the file and the entry', () => {
    const brokenBrand = structuredClone(brandsFile);
    brokenBrand.brands[1]!.tokens = ['Kakao'];
    expect(() => loadTable('brands.json', TABLE_SCHEMAS['brands.json'], brokenBrand)).toThrow(/brands\.json: brands\.1\.tokens\.0/);
    const brokenWeight = structuredClone(weightsFile) as Record<string, unknown>;
    brokenWeight.verdict = { harmful: '50', uncertain: 30 };
    expect(() => loadTable('weights.json', TABLE_SCHEMAS['weights.json'], brokenWeight)).toThrow(/weights\.json: verdict\.harmful/);
  });

  it('refuses a word pattern that does not compile', () => {
    const table = {
      vocabularies: [
        {
          category: 'spam',
          label: 'x',
          host: ['(unclosed'],
          bounded: [],
          korean: [],
          weakHost: [],
          koreanStrong: [],
          hostWeight: 1,
          extraWeight: 1,
          pathWeight: 1,
          strongPathWeight: 1,
          weakWeight: 1,
        },
      ],
    };
    expect(() => loadTable('vocabulary.json', TABLE_SCHEMAS['vocabulary.json'], table)).toThrow(/vocabularies\.0\.host\.0/);
  });
});
