import { getDomain } from 'tldts';
import type { FeedCategory } from './feeds.js';
import { LexicalModel, stableHash, type TrainingOptions } from '../model/lexical-model.js';
import { expressionHash, HARM_CATEGORIES, HashCollector, HashSet64, ListIndex, type ListEntryRef, type ListPart } from './list-index.js';
import { TEAM_LISTS } from './team-lists.js';
import { entryExpression, expressionHost, isWholeHostExpression } from './expressions.js';
import { DomainFamilies, FamilyCollector } from '../model/domain-families.js';
import { campaignExpression } from './campaigns.js';
import { KOREAN_FEED, trainSmishingModel } from '../model/smishing-model.js';
import { learnShorteners, ShortCodeCounter, type LearnedShorteners } from '../expansion/learned-shorteners.js';

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
  /** Name families of the listed gambling, adult and scam domains (domain-families.ts). */
  families?: DomainFamilies;
  /** Korean smishing's own host model, trained on the Korean feeds (smishing-model.ts). */
  smishing?: LexicalModel | undefined;
  /** Shorteners the feeds' reported links show (expansion/learned-shorteners.ts). */
  shorteners?: LearnedShorteners;
}

/**
 * A set of registrable domains as sorted 64-bit hashes (8 bytes each): a top-million list
 * costs 8 MB instead of a Set of strings.
 */
export class DomainSet {
  private constructor(private readonly set: HashSet64) {}

  static of(domains: Iterable<string>): DomainSet {
    const collector = new HashCollector();
    for (const domain of domains) collector.add(domain);
    return new DomainSet(HashSet64.of(collector.finish()));
  }

  /** From `popularDomainHashes` stored with a clean feed. */
  static fromHashes(parts: readonly BigUint64Array[]): DomainSet {
    const collector = new HashCollector();
    for (const part of parts) for (const hash of part) collector.addHash(hash);
    return new DomainSet(HashSet64.of(collector.finish()));
  }

  get size(): number {
    return this.set.size;
  }

  has(domain: string): boolean {
    return this.set.has(domain);
  }
}

const YIELD_EVERY = 50_000;
const pause = () => new Promise((resolve) => setImmediate(resolve));

export { expressionHost } from './expressions.js';

/** How many training hosts a category keeps (the model's own defaults). */
export function sampleCap(category: FeedCategory, training: TrainingOptions = {}): number {
  return category === 'clean' ? (training.maxClean ?? 100_000) : (training.maxPerCategory ?? 40_000);
}

/** One feed reduced to what the engine needs: sorted hashes, and a host sample for training. */
export interface CompactFeed {
  name: string;
  category: FeedCategory;
  /** Harm feeds: the entries' expression hashes; clean feeds: their registrable domains'. */
  hashes: BigUint64Array;
  exceptions: BigUint64Array;
  /** The feed's hosts with the smallest `stableHash` (all of the `sampleCap` smallest, at most twice that). */
  sample: string[];
  /** Distinct entries (expressions) the feed named. */
  entries: number;
  /** The feed's name families, one line a stem (`FamilyCollector`; absent in feeds stored before families). */
  families?: string;
  /** Short-code links per host, `host⇥count` a line (`ShortCodeCounter`; absent in feeds stored before them). */
  shortLinks?: string;
}

/**
 * Reduces a feed's expressions as they stream by: no string is kept but the training
 * sample. The smallest-hash sample of a category is the smallest-hash sample of its feeds'
 * samples, so storing each feed's own sample loses nothing.
 */
export class FeedCompactor {
  private readonly entries = new HashCollector();
  /** `~domain/` of the listed whole hosts (campaigns.ts), stored with the entries' hashes. */
  private readonly campaigns = new HashCollector();
  private readonly exceptions = new HashCollector();
  /** Clean feeds: their distinct expressions, counted (their `entries` hold domains). */
  private readonly expressions = new HashCollector();
  private readonly sample: HostSample;
  private readonly families = new FamilyCollector();
  private readonly shortCodes = new ShortCodeCounter();
  /** Only Korean smishing feeds (KISA) report campaigns whose sub-domains rotate. */
  private readonly campaignFeed: boolean;

  constructor(
    readonly name: string,
    readonly category: FeedCategory,
    training: TrainingOptions = {},
  ) {
    this.sample = new HostSample(sampleCap(category, training));
    this.campaignFeed = KOREAN_FEED.test(name);
  }

  add(expression: string, exception = false): void {
    if (exception) {
      if (this.category !== 'clean') this.exceptions.add(expression);
      return;
    }
    const host = expressionHost(expression);
    if (this.category === 'clean') {
      const domain = getDomain(host) ?? host;
      this.entries.add(domain);
      this.expressions.add(expression);
      // Top-sites lists name service hosts (api.x.com): their domain's name is what vetoes a family.
      this.families.add(domain);
    } else {
      this.entries.add(expression);
      this.shortCodes.add(host, expression);
      // A listed page is often a hacked site: only whole hosts and domains name a family or a campaign.
      if (isWholeHostExpression(expression)) {
        this.families.add(host);
        // Smishing reports (the Korean feeds) stand for their campaign; a hosts file names that host
        // alone (`=host/`), and global lists name hacked sub-domains of innocent domains too
        // (measured: widening them doubled the clean false positives of `npm run eval:urls`).
        const campaign = this.campaignFeed && !expression.startsWith('=') ? campaignExpression(host) : undefined;
        if (campaign) this.campaigns.add(campaign);
      }
    }
    this.sample.add(host);
  }

  finish(): CompactFeed {
    const entries = this.entries.finish();
    // One sorted array: a campaign hash is looked up like any entry's.
    const merged = new HashCollector();
    for (const hash of entries) merged.addHash(hash);
    for (const hash of this.campaigns.finish()) merged.addHash(hash);
    return {
      name: this.name,
      category: this.category,
      entries: this.category === 'clean' ? this.expressions.finish().length : entries.length,
      hashes: merged.finish(),
      exceptions: this.exceptions.finish(),
      sample: this.sample.values(),
      families: this.families.finish(),
      shortLinks: this.shortCodes.finish(),
    };
  }
}

/**
 * The index of the team lists and the compact feeds, the popular-domain set of the clean
 * feeds, and the lexical model (given, or trained on the samples). Merging sorted hashes is
 * linear: two million entries take a fraction of a second.
 */
export async function assembleDetectionLists(
  feeds: readonly CompactFeed[],
  training: TrainingOptions & { model?: boolean; trained?: LexicalModel | undefined } = {},
): Promise<DetectionLists> {
  const shorteners = learnShorteners(
    feeds.flatMap((feed) => (feed.category === 'clean' ? [] : [feed.shortLinks ?? ''])),
    training.now?.() ?? new Date(),
  );
  const parts: ListPart[] = teamParts();
  for (const feed of feeds) {
    if (feed.category === 'clean') continue;
    parts.push({ category: feed.category, source: feed.name, hashes: feed.hashes });
    parts.push({ category: feed.category, source: feed.name, exception: true, hashes: feed.exceptions });
  }
  const index = await ListIndex.mergeAsync(parts);
  const popular = DomainSet.fromHashes(feeds.filter((feed) => feed.category === 'clean').map((feed) => feed.hashes));
  const families = await DomainFamilies.build(
    feeds.flatMap((feed) => (feed.category === 'clean' ? [] : [{ category: feed.category, text: feed.families ?? '' }])),
    feeds.flatMap((feed) => (feed.category === 'clean' ? [feed.families ?? ''] : [])),
  );
  let model = training.trained;
  if (!model && training.model !== false) {
    const samples = new Map<FeedCategory, HostSample>();
    for (const feed of feeds) {
      let sample = samples.get(feed.category);
      if (!sample) samples.set(feed.category, (sample = new HostSample(sampleCap(feed.category, training))));
      for (const host of feed.sample) sample.add(host);
    }
    const examples = new Map([...samples].map(([category, sample]) => [category, sample.values()]));
    model = await LexicalModel.train(examples, training);
  }
  const smishing =
    training.model === false
      ? undefined
      : await trainSmishingModel(
          feeds.flatMap((feed) => (feed.category !== 'clean' && KOREAN_FEED.test(feed.name) ? feed.sample : [])),
          feeds.flatMap((feed) => (feed.category === 'clean' ? feed.sample : [])),
          { shorteners, now: training.now },
        );
  return { index, model, popular, families, smishing, shorteners };
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
  const compact: CompactFeed[] = [];
  let done = 0;
  for await (const feed of feeds) {
    const compactor = new FeedCompactor(feed.name, feed.category, training);
    for (const expression of feed.entries) {
      compactor.add(expression);
      if (++done % YIELD_EVERY === 0) await pause();
    }
    for (const expression of feed.exceptions ?? []) compactor.add(expression, true);
    compact.push(compactor.finish());
  }
  return assembleDetectionLists(compact, training);
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

/** The team lists as index parts, one a category (source `team`). */
function teamParts(): ListPart[] {
  return HARM_CATEGORIES.map((category) => {
    const collector = new HashCollector();
    for (const entry of TEAM_LISTS[category]) {
      const expression = entryExpression(entry);
      if (expression) collector.add(expression);
    }
    return { category, source: 'team', hashes: collector.finish() };
  });
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
