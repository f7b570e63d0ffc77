export const HARM_CATEGORIES = ['spam', 'gambling', 'adult', 'phishing', 'malware'] as const;
export type HarmCategory = (typeof HARM_CATEGORIES)[number];

export interface ListEntryRef {
  /** `expressionHash` of the Safe Browsing expression. */
  hash: number;
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

/**
 * A 47-bit hash of an expression (cyrb53, a fast non-cryptographic mix of two 32-bit lanes):
 * with a 6-bit payload the key still fits a double exactly. Tens of lookups a URL must stay
 * in microseconds, which SHA-256 does not; nobody gains by forging a collision with a blocklist.
 */
export function expressionHash(expression: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < expression.length; i++) {
    const ch = expression.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  // 15 bits of h2 above the 32 of h1: 47 bits.
  return (h2 & 0x7fff) * 4294967296 + (h1 >>> 0);
}

const PAYLOAD_SLOTS = 64;
/** When one expression is on several lists, the gravest category names the hit. */
const GRAVITY: Record<HarmCategory, number> = { malware: 5, phishing: 4, adult: 3, gambling: 2, spam: 1 };

/**
 * Millions of list entries in memory as one sorted Float64Array of `hash·64 + payload`
 * (8 bytes an entry instead of a string in a Map), searched by bisection: a lookup of the
 * ≤ 30 expressions of a URL costs microseconds. A 47-bit hash makes a false hit about
 * one in 10^7 lookups even with five million entries — the price of the compact form.
 */
export class ListIndex {
  private constructor(
    private readonly keys: Float64Array,
    private readonly payloads: Payload[],
  ) {}

  static empty(): ListIndex {
    return new ListIndex(new Float64Array(0), []);
  }

  static build(entries: Iterable<ListEntryRef>): ListIndex {
    const builder = new ListIndexBuilder();
    for (const entry of entries) builder.add(entry.hash, entry.category, entry.source, entry.exception);
    return builder.finish();
  }

  /** For the builder only. */
  static of(keys: Float64Array, payloads: Payload[]): ListIndex {
    return new ListIndex(keys, payloads);
  }

  get size(): number {
    return this.keys.length;
  }

  /** The list hits among a URL's expressions, gravest first; a source's `@@` exception cancels its hits. */
  lookup(expressions: readonly string[]): ListHit[] {
    if (this.keys.length === 0) return [];
    const hits: ListHit[] = [];
    let excepted: Set<string> | undefined;
    for (const expression of expressions) {
      const base = expressionHash(expression) * PAYLOAD_SLOTS;
      for (let i = this.lowerBound(base); i < this.keys.length; i++) {
        const key = this.keys[i] ?? Infinity;
        if (key >= base + PAYLOAD_SLOTS) break;
        const payload = this.payloads[key - base];
        if (!payload) continue;
        if (payload.exception) (excepted ??= new Set()).add(payload.source);
        else hits.push({ category: payload.category, source: payload.source, expression });
      }
    }
    const kept = excepted ? hits.filter((hit) => !excepted.has(hit.source)) : hits;
    return kept.sort((a, b) => GRAVITY[b.category] - GRAVITY[a.category]);
  }

  private lowerBound(value: number): number {
    let low = 0;
    let high = this.keys.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.keys[mid] ?? Infinity) < value) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

interface Payload {
  category: HarmCategory;
  source: string;
  exception: boolean;
}

/** Collects keys in a growing Float64Array (8 bytes an entry, no per-entry objects). */
export class ListIndexBuilder {
  private keys = new Float64Array(1024);
  private length = 0;
  private readonly payloadIds = new Map<string, number>();
  private readonly payloads: Payload[] = [];

  add(hash: number, category: HarmCategory, source: string, exception = false): void {
    const id = `${category}\u0000${source}\u0000${exception ? 1 : 0}`;
    let payload = this.payloadIds.get(id);
    if (payload === undefined) {
      if (this.payloads.length >= PAYLOAD_SLOTS) throw new Error(`more than ${PAYLOAD_SLOTS} list (source, category) pairs`);
      payload = this.payloads.length;
      this.payloadIds.set(id, payload);
      this.payloads.push({ category, source, exception });
    }
    if (this.length === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    this.keys[this.length++] = hash * PAYLOAD_SLOTS + payload;
  }

  finish(): ListIndex {
    return ListIndex.of(this.keys.slice(0, this.length).sort(), this.payloads);
  }
}
