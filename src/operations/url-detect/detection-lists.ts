import { getDomain } from 'tldts';
import type { FeedCategory } from './feeds.js';
import { LexicalModel, type TrainingOptions } from './lexical-model.js';
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
  return (expression.startsWith('=') ? expression.slice(1, slash) : expression.slice(0, slash === -1 ? undefined : slash));
}

/**
 * Builds the index of the team lists and the harm feeds, and trains the lexical model on the
 * feeds' hosts against the `clean` feeds. Yields to the event loop as it goes: a reload of
 * millions of entries never holds up requests, and the engine swaps to the result at once.
 */
export async function buildDetectionLists(feeds: readonly LoadedFeed[], training: TrainingOptions & { model?: boolean } = {}): Promise<DetectionLists> {
  const builder = new ListIndexBuilder();
  for (const entry of teamEntries()) builder.add(entry.hash, entry.category, entry.source);
  const examples = new Map<FeedCategory, Set<string>>();
  let done = 0;
  for (const feed of feeds) {
    const hosts = examples.get(feed.category) ?? new Set<string>();
    examples.set(feed.category, hosts);
    for (const expression of feed.entries) {
      if (feed.category !== 'clean') builder.add(expressionHash(expression), feed.category, feed.name);
      hosts.add(expressionHost(expression));
      if (++done % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    if (feed.category === 'clean') continue;
    for (const expression of feed.exceptions ?? []) builder.add(expressionHash(expression), feed.category, feed.name, true);
  }
  const index = builder.finish();
  const model = training.model === false ? undefined : await LexicalModel.train(examples, training);
  const popular = DomainSet.of([...(examples.get('clean') ?? [])].flatMap((host) => getDomain(host) ?? []));
  return { index, model, popular };
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
