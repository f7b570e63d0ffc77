/**
 * `npx tsx scripts/learn-letter-pairs.ts`: learns how letters follow one another in the names of
 * ordinary sites — the train part of the top-sites list in ../shared/data/url-lists (read in
 * place; the dev and held-out parts are never read) — and writes the table the random-label rule
 * reads (src/operations/url-detect/data/letter-pairs.json). Run again when the list changes.
 */
import { writeFileSync } from 'node:fs';
import { expressionHost } from '../src/operations/url-detect/lists/detection-lists.js';
import { CLEAN, partOf, readReal, realListsPresent } from '../test/data/url-real.js';

/** Letters, then the start (^) and the end ($) of a word: the order data/letter-pairs.json is checked against. */
const LETTER_PAIR_ALPHABET = 'abcdefghijklmnopqrstuvwxyz^$';

if (!realListsPresent()) throw new Error('../shared/data/url-lists is absent');
const size = LETTER_PAIR_ALPHABET.length;
const at = (char: string) => LETTER_PAIR_ALPHABET.indexOf(char);
// Add-one-half smoothing: a pair never seen is rare, not impossible.
const counts = Array.from({ length: size }, () => new Float64Array(size).fill(0.5));
const hosts = new Set(
  readReal(CLEAN)
    .entries.filter((entry) => partOf(entry) === 'train')
    .map(expressionHost),
);
for (const host of hosts) {
  for (const label of host.split('.').slice(0, -1)) {
    for (const word of label.split(/[^a-z]+/)) {
      if (word.length < 2) continue;
      const text = `^${word}$`;
      for (let i = 1; i < text.length; i++) counts[at(text[i - 1]!)]![at(text[i]!)]! += 1;
    }
  }
}
const logp = counts.map((row) => {
  const total = row.reduce((sum, value) => sum + value, 0);
  return Array.from(row, (value) => Math.round(Math.log(value / total) * 100) / 100);
});
const table = {
  $comment: `Natural log of P(next letter | letter) in the labels of ${hosts.size} top-sites hosts (train part); ^ starts a word, $ ends it. Written by scripts/learn-letter-pairs.ts.`,
  alphabet: LETTER_PAIR_ALPHABET,
  logp,
};
const out = new URL('../src/operations/url-detect/data/letter-pairs.json', import.meta.url);
writeFileSync(
  out,
  `{\n  "$comment": ${JSON.stringify(table.$comment)},\n  "alphabet": "${table.alphabet}",\n  "logp": [\n${logp.map((row) => `    ${JSON.stringify(row)}`).join(',\n')}\n  ]\n}\n`,
);
console.log(`letter pairs learned from ${hosts.size} hosts → ${out.pathname}`);
