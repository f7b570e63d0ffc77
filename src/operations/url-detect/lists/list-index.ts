import { endianness } from 'node:os';

export const HARM_CATEGORIES = ['spam', 'gambling', 'adult', 'phishing', 'malware'] as const;
export type HarmCategory = (typeof HARM_CATEGORIES)[number];

export interface ListEntryRef {
  /** `expressionHash` of the Safe Browsing expression. */
  hash: bigint;
  category: HarmCategory;
  /** Where the entry came from: `team` for shipped lists, the feed name otherwise. */
  source: string;
  /** An adblock `@@` exception: it cancels the hits of its own source. */
  exception?: boolean;
}

export interface ListHit {
  category: HarmCategory;
  source: string;
  expression: string;
}

if (endianness() !== 'LE') throw new Error('the URL list index assumes a little-endian machine');

/** The two 32-bit lanes of the last `hashLanes` call (no allocation on the lookup path). */
let laneHigh = 0;
let laneLow = 0;

/**
 * A 64-bit hash of an expression (cyrb53's two 32-bit lanes, both kept): tens of lookups a
 * URL must stay in microseconds, which SHA-256 does not. With 64 bits a false hit among two
 * million entries is about one in 10^13 lookups — never, in practice.
 */
function hashLanes(expression: string): void {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < expression.length; i++) {
    const ch = expression.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  laneHigh = h2 >>> 0;
  laneLow = h1 >>> 0;
}

/** The 64-bit hash of a text as its two 32-bit lanes, written into `out` ([high, low]; no allocation). */
export function hashLanesInto(text: string, out: Uint32Array): void {
  hashLanes(text);
  out[0] = laneHigh;
  out[1] = laneLow;
}

/** The 64-bit hash of an expression, as a bigint (builders and tests; lookups use the lanes). */
export function expressionHash(expression: string): bigint {
  hashLanes(expression);
  return (BigInt(laneHigh) << 32n) | BigInt(laneLow);
}

/**
 * Collects 64-bit hashes in a growing buffer (8 bytes each, no per-entry objects) and sorts
 * them natively: a feed of a million entries becomes a sorted, duplicate-free BigUint64Array
 * in a few hundred milliseconds, without a string kept.
 */
export class HashCollector {
  private words = new Uint32Array(2 * 1024);
  private length = 0;

  /** Adds the hash of an expression. */
  add(expression: string): void {
    hashLanes(expression);
    this.push(laneHigh, laneLow);
  }

  addHash(hash: bigint): void {
    this.push(Number(hash >> 32n) >>> 0, Number(hash & 0xffffffffn) >>> 0);
  }

  get size(): number {
    return this.length;
  }

  private push(high: number, low: number): void {
    if (this.length * 2 === this.words.length) {
      const grown = new Uint32Array(this.words.length * 2);
      grown.set(this.words);
      this.words = grown;
    }
    this.words[this.length * 2] = low;
    this.words[this.length * 2 + 1] = high;
    this.length++;
  }

  /** Sorted, without duplicates. The collector is empty afterwards. */
  finish(): BigUint64Array {
    const sorted = new BigUint64Array(this.words.buffer, 0, this.length).sort();
    const words = this.words;
    let kept = 0;
    for (let i = 0; i < this.length; i++) {
      if (kept > 0 && words[2 * i] === words[2 * kept - 2] && words[2 * i + 1] === words[2 * kept - 1]) continue;
      words[2 * kept] = words[2 * i]!;
      words[2 * kept + 1] = words[2 * i + 1]!;
      kept++;
    }
    const out = sorted.slice(0, kept);
    this.words = new Uint32Array(2 * 1024);
    this.length = 0;
    return out;
  }
}

/** Sorted hashes as bytes (little-endian), for the database; and back. */
export function hashesToBytes(hashes: BigUint64Array): Buffer {
  return Buffer.from(hashes.buffer, hashes.byteOffset, hashes.byteLength);
}

export function hashesFromBytes(bytes: Uint8Array): BigUint64Array {
  if (bytes.byteLength % 8 !== 0) throw new Error('a hash blob must hold whole 64-bit words');
  // Copied: a Buffer's offset in its pool need not be 8-aligned.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new BigUint64Array(copy.buffer);
}

/** First position whose (high, low) is not below the target, in parallel sorted lanes. */
function lowerBound(highs: Uint32Array, lows: Uint32Array, high: number, low: number): number {
  let from = 0;
  let to = highs.length;
  while (from < to) {
    const mid = (from + to) >>> 1;
    const h = highs[mid]!;
    if (h < high || (h === high && lows[mid]! < low)) from = mid + 1;
    else to = mid;
  }
  return from;
}

/** Splits sorted 64-bit words into high and low lanes (compared as plain numbers, no BigInt). */
function lanesOf(hashes: BigUint64Array): { highs: Uint32Array; lows: Uint32Array } {
  const words = new Uint32Array(hashes.buffer, hashes.byteOffset, hashes.length * 2);
  const highs = new Uint32Array(hashes.length);
  const lows = new Uint32Array(hashes.length);
  for (let i = 0; i < hashes.length; i++) {
    lows[i] = words[2 * i]!;
    highs[i] = words[2 * i + 1]!;
  }
  return { highs, lows };
}

/** A set of strings kept as sorted 64-bit hashes: 8 bytes a member, searched by bisection. */
export class HashSet64 {
  private constructor(
    private readonly highs: Uint32Array,
    private readonly lows: Uint32Array,
  ) {}

  static of(hashes: BigUint64Array): HashSet64 {
    const { highs, lows } = lanesOf(hashes);
    return new HashSet64(highs, lows);
  }

  get size(): number {
    return this.highs.length;
  }

  has(text: string): boolean {
    hashLanes(text);
    const at = lowerBound(this.highs, this.lows, laneHigh, laneLow);
    return at < this.highs.length && this.highs[at] === laneHigh && this.lows[at] === laneLow;
  }
}

const MAX_PAYLOADS = 256;
/** When one expression is on several lists, the gravest category names the hit. */
const GRAVITY: Record<HarmCategory, number> = { malware: 5, phishing: 4, adult: 3, gambling: 2, spam: 1 };

export interface ListPart {
  category: HarmCategory;
  source: string;
  exception?: boolean;
  /** Sorted, duplicate-free (`HashCollector.finish`). */
  hashes: BigUint64Array;
}

interface Payload {
  category: HarmCategory;
  source: string;
  exception: boolean;
}

/**
 * Millions of list entries in memory as three parallel typed arrays sorted by 64-bit hash —
 * high lanes, low lanes, and a one-byte payload naming (category, source, exception) — i.e.
 * 9 bytes an entry instead of a string in a Set. A lookup of the ≤ 60 expressions of a URL
 * bisects 2 M entries in microseconds.
 */
export class ListIndex {
  /** For `Merge` only. */
  constructor(
    private readonly highs: Uint32Array,
    private readonly lows: Uint32Array,
    private readonly payloadOf: Uint8Array,
    private readonly payloads: Payload[],
  ) {}

  static empty(): ListIndex {
    return new ListIndex(new Uint32Array(0), new Uint32Array(0), new Uint8Array(0), []);
  }

  /** From loose entries (team lists, tests). */
  static build(entries: Iterable<ListEntryRef>): ListIndex {
    const groups = new Map<string, { ref: ListEntryRef; collector: HashCollector }>();
    for (const entry of entries) {
      const id = `${entry.category}\u0000${entry.source}\u0000${entry.exception ? 1 : 0}`;
      let group = groups.get(id);
      if (!group) groups.set(id, (group = { ref: entry, collector: new HashCollector() }));
      group.collector.addHash(entry.hash);
    }
    return ListIndex.merge(
      [...groups.values()].map(({ ref, collector }) => ({
        category: ref.category,
        source: ref.source,
        exception: ref.exception ?? false,
        hashes: collector.finish(),
      })),
    );
  }

  /** Merges the sorted hashes of each (category, source, exception) part: linear, no sort. */
  static merge(parts: readonly ListPart[]): ListIndex {
    const merging = new Merge(parts);
    merging.step(Infinity);
    return merging.result();
  }

  /** The same, yielding to the event loop every quarter million entries. */
  static async mergeAsync(parts: readonly ListPart[]): Promise<ListIndex> {
    const merging = new Merge(parts);
    while (!merging.step(250_000)) await new Promise((resolve) => setImmediate(resolve));
    return merging.result();
  }

  get size(): number {
    return this.highs.length;
  }

  /** The list hits among a URL's expressions, gravest first; a source's `@@` exception cancels its hits. */
  lookup(expressions: readonly string[]): ListHit[] {
    if (this.highs.length === 0) return [];
    const hits: ListHit[] = [];
    let excepted: Set<string> | undefined;
    for (const expression of expressions) {
      hashLanes(expression);
      const high = laneHigh;
      const low = laneLow;
      for (let i = lowerBound(this.highs, this.lows, high, low); i < this.highs.length; i++) {
        if (this.highs[i] !== high || this.lows[i] !== low) break;
        const payload = this.payloads[this.payloadOf[i]!]!;
        if (payload.exception) (excepted ??= new Set()).add(payload.source);
        else hits.push({ category: payload.category, source: payload.source, expression });
      }
    }
    const kept = excepted ? hits.filter((hit) => !excepted.has(hit.source)) : hits;
    return kept.sort((a, b) => GRAVITY[b.category] - GRAVITY[a.category]);
  }
}

/** A k-way merge of sorted parts into the index's lanes, run in steps. */
class Merge {
  private readonly payloads: Payload[];
  private readonly words: Uint32Array[];
  private readonly heads: Uint32Array;
  private readonly highs: Uint32Array;
  private readonly lows: Uint32Array;
  private readonly payloadOf: Uint8Array;
  private out = 0;

  constructor(parts: readonly ListPart[]) {
    const used = parts.filter((part) => part.hashes.length > 0);
    if (used.length > MAX_PAYLOADS) throw new Error(`more than ${MAX_PAYLOADS} list (source, category) parts`);
    this.payloads = used.map((part) => ({ category: part.category, source: part.source, exception: part.exception ?? false }));
    const total = used.reduce((sum, part) => sum + part.hashes.length, 0);
    this.highs = new Uint32Array(total);
    this.lows = new Uint32Array(total);
    this.payloadOf = new Uint8Array(total);
    this.words = used.map((part) => new Uint32Array(part.hashes.buffer, part.hashes.byteOffset, part.hashes.length * 2));
    this.heads = new Uint32Array(used.length);
  }

  /** Merges up to `count` more entries; true when done. */
  step(count: number): boolean {
    const { words, heads, highs, lows, payloadOf } = this;
    const end = Math.min(highs.length, this.out + count);
    for (; this.out < end; this.out++) {
      let best = -1;
      let bestHigh = 0;
      let bestLow = 0;
      for (let p = 0; p < words.length; p++) {
        const at = heads[p]!;
        const w = words[p]!;
        if (at * 2 >= w.length) continue;
        const high = w[at * 2 + 1]!;
        const low = w[at * 2]!;
        if (best === -1 || high < bestHigh || (high === bestHigh && low < bestLow)) {
          best = p;
          bestHigh = high;
          bestLow = low;
        }
      }
      highs[this.out] = bestHigh;
      lows[this.out] = bestLow;
      payloadOf[this.out] = best;
      heads[best] = heads[best]! + 1;
    }
    return this.out === highs.length;
  }

  result(): ListIndex {
    return new ListIndex(this.highs, this.lows, this.payloadOf, this.payloads);
  }
}
