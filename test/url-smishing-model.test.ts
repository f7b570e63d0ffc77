import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalizeUrl } from '../src/operations/url-detect/canonicalize.js';
import { expressionHost } from '../src/operations/url-detect/lists/detection-lists.js';
import { parseFeed } from '../src/operations/url-detect/lists/feed-parse.js';
import { smishingNeedsSample, smishingSignals, trainSmishingModel } from '../src/operations/url-detect/model/smishing-model.js';
import { CLEAN, readReal, realListsPresent } from './data/url-real.js';
import { sharedDataPath } from './helpers/shared-data.js';

const KISA_2022 = sharedDataPath('url-lists-kr/kisa-phishing-2022-09-11.csv');

describe('Korean smishing model (trained on the Korean feed at refresh time)', () => {
  it.skipIf(!existsSync(KISA_2022) || !realListsPresent())(
    "learns 2022's shapes from KISA's reports and judges a 2023 campaign, never a restricted Korean suffix",
    { timeout: 120_000 },
    async () => {
      const kisa = [...parseFeed(readFileSync(KISA_2022), 'csv').entries].map(expressionHost);
      const clean = readReal(CLEAN).entries.slice(0, 20_000).map(expressionHost);
      const model = await trainSmishingModel(kisa, clean);
      expect(model).toBeDefined();
      const signals = (url: string) => smishingSignals(canonicalizeUrl(url), model);
      // A 2023 report of the same family of random labels on a cheap TLD (not in the 2022 file).
      expect(signals('http://m04.x7hz.black/')[0]?.reason).toContain('KISA가 신고한 스미싱 주소');
      // Suffixes only public bodies, schools and local governments register; shorteners; platforms.
      for (const url of [
        'https://www.kuh.ac.kr/',
        'https://opengov.seoul.go.kr/',
        'https://x7hz.seoul.kr/',
        'https://bit.ly/x7hz',
        'https://x7hz.blogspot.com/',
      ])
        expect(signals(url), url).toEqual([]);
      // Too few reports teach nothing.
      expect(await trainSmishingModel(kisa.slice(0, 50), clean)).toBeUndefined();
    },
  );
});

describe('samples read at load with a saved global model', () => {
  it('reads the Korean and clean feeds’ samples only when a Korean feed is stored, and none without one', () => {
    const global = [
      { name: 'openphish', category: 'phishing' },
      { name: 'top-sites', category: 'clean' },
    ];
    const withKisa = [...global, { name: 'kisa-smishing', category: 'phishing' }];
    expect(global.filter((feed) => smishingNeedsSample(feed, global))).toEqual([]);
    expect(withKisa.filter((feed) => smishingNeedsSample(feed, withKisa)).map((feed) => feed.name)).toEqual(['top-sites', 'kisa-smishing']);
  });
});
