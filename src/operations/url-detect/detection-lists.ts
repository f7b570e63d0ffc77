import { getDomain } from 'tldts';
import type { FeedCategory } from './feeds.js';
import { LexicalModel, stableHash, type TrainingOptions } from './lexical-model.js';
import { expressionHash, HARM_CATEGORIES, ListIndexBuilder, type ListEntryRef, type ListIndex } from './list-index.js';
import { TEAM_LISTS } from './lists/team-lists.js';
import { entryExpression } from './expressions.js';

/** A feed's entries as loaded from the database (or read by the evaluation). */
export interface LoadedFeed {
  name: string;
  category: FeedCategory;
  entries: Iterable<string>;
  exceptions?: Iterable<string>;
}

/** What the engine matches against: the list index and the model trained on the same feeds. */
export interface DetectionLists {
  index: ListIndex;
  model: LexicalModel | undefined;
  /** Registrable domains of the `clean` (top-sites) feeds. */
  popular?: DomainSet;
}

/**
 * A set of registrable domains as sorted 47-bit hashes (8 bytes each): a top-million list
 * costs 8 MB instead of a Set of strings.
 */
export class DomainSet {
  private constructor(private readonly hashes: Float64Array) {}

  static of(domains: Iterable<string>): DomainSet {
    const hashes: number[] = [];
    for (const domain of domains) hashes.push(expressionHash(domain));
    return new DomainSet(Float64Array.from(new Set(hashes)).sort());
  }

  get size(): number {
    return this.hashes.length;
  }

  has(domain: string): boolean {
    const target = expressionHash(domain);
    let low = 0;
    let high = this.hashes.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.hashes[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return this.hashes[low] === target;
  }
}

const YIELD_EVERY = 50_000;

/** The host an expression names (`=host/`, `host/`, `host/path…`). */
export function expressionHost(expression: string): string {
  const slash = expression.indexOf('/');
  return expression.startsWith('=') ? expression.slice(1, slash) : expression.slice(0, slash === -1 ? undefined : slash);
}

/**
 * Builds the index of the team lists and the harm feeds, and trains the lexical model on the
 * feeds' hosts against the `clean` feeds. Yields to the event loop as it goes: a reload of
 * millions of entries never holds up requests, and the engine swaps to the result at once.
 */
export async function buildDetectionLists(
  feeds: Iterable<LoadedFeed> | AsyncIterable<LoadedFeed>,
  training: TrainingOptions & { model?: boolean; trained?: LexicalModel } = {},
): Promise<DetectionLists> {
  const builder = new ListIndexBuilder();
  for (const entry of teamEntries()) builder.add(entry.hash, entry.category, entry.source);
  const capOf = (category: FeedCategory) => (category === 'clean' ? (training.maxClean ?? 100_000) : (training.maxPerCategory ?? 40_000));
  const samples = new Map<FeedCategory, HostSample>();
  const popularDomains: string[] = [];
  let done = 0;
  for await (const feed of feeds) {
    let sample = samples.get(feed.category);
    if (!sample) samples.set(feed.category, (sample = new HostSample(capOf(feed.category))));
    for (const expression of feed.entries) {
      const host = expressionHost(expression);
      if (feed.category === 'clean') popularDomains.push(getDomain(host) ?? host);
      else builder.add(expressionHash(expression), feed.category, feed.name);
      sample.add(host);
      if (++done % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    if (feed.category === 'clean') continue;
    for (const expression of feed.exceptions ?? []) builder.add(expressionHash(expression), feed.category, feed.name, true);
  }
  const index = builder.finish();
  const examples = new Map([...samples].map(([category, sample]) => [category, sample.values()]));
  const model = training.model === false ? undefined : (training.trained ?? (await LexicalModel.train(examples, training)));
  return { index, model, popular: DomainSet.of(popularDomains) };
}

/**
 * The hosts of a category with the smallest hashes, at most a few times what training keeps:
 * millions of list entries never sit in memory as strings at once.
 */
class HostSample {
  private hosts = new Map<string, number>();
  private ceiling = Infinity;

  constructor(private readonly keep: number) {}

  add(host: string): void {
    const hash = stableHash(host);
    if (hash >= this.ceiling || this.hosts.has(host)) return;
    this.hosts.set(host, hash);
    if (this.hosts.size > this.keep * 2) this.prune();
  }

  /** Keeps the `keep` smallest hashes (a typed-array sort: milliseconds, not a long pause). */
  private prune(): void {
    const hashes = Float64Array.from(this.hosts.values()).sort();
    this.ceiling = hashes[this.keep] ?? Infinity;
    for (const [host, hash] of this.hosts) if (hash >= this.ceiling) this.hosts.delete(host);
  }

  values(): string[] {
    return [...this.hosts.keys()];
  }
}

/** The shipped team lists as index entries (source `team`). */
export function teamEntries(): ListEntryRef[] {
  return HARM_CATEGORIES.flatMap((category) =>
    TEAM_LISTS[category].flatMap((entry) => {
      const expression = entryExpression(entry);
      return expression ? [{ hash: expressionHash(expression), category, source: 'team' }] : [];
    }),
  );
}
