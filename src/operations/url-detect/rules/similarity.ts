import { CONFUSABLES } from './tables.js';
/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition), stopping
 * early once `max` is exceeded: typosquats are one or two edits from the brand.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, (prevPrev[j - 2] ?? 0) + 1);
      row.push(value);
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length] ?? max + 1;
}

/** The Latin "skeleton" of a label: confusables mapped, `rn`→`m`, `vv`→`w`. */
export function skeleton(label: string): string {
  let out = '';
  for (const char of label.normalize('NFKC').toLowerCase()) out += CONFUSABLES[char] ?? char;
  return out.replace(/rn/g, 'm').replace(/vv/g, 'w');
}

/** Shannon entropy in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** Letter and digit counts: each edit changes their L1 distance by at most 2, a cheap pre-filter. */
export function charCounts(text: string): Int16Array {
  const counts = new Int16Array(37);
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    counts[code >= 97 && code <= 122 ? code - 97 : code >= 48 && code <= 57 ? code - 22 : 36]! += 1;
  }
  return counts;
}

export function countsDistance(a: Int16Array, b: Int16Array): number {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return total;
}
